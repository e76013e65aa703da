import { listNotifications } from "~/models/notifications/notification.server";
import { apiLoader, jsonResponse } from "~/web/api.server";
import { NO_STORE } from "~/web/cache-control.server";
import { requireActor } from "~/web/session.server";

/**
 * GET /api/notifications?limit=&cursor= → 200 `{ items, unread, nextCursor }`, newest first
 * (CONTRACT.md §7); signed out 401. The member's own, never kept by any cache.
 */
export const loader = apiLoader(async ({ request }) => {
  const member = await requireActor(request);
  const params = new URL(request.url).searchParams;
  const limit = params.get("limit");
  const page = await listNotifications(member, { limit: limit ? Number(limit) : undefined, cursor: params.get("cursor") });
  return jsonResponse(page, NO_STORE);
});

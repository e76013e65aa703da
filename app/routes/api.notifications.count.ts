import { unreadCount } from "~/models/notifications/notification.server";
import { apiLoader, jsonResponse } from "~/web/api.server";
import { NO_STORE } from "~/web/cache-control.server";
import { requireActor } from "~/web/session.server";

/**
 * GET /api/notifications/count → 200 `{ unread }` (CONTRACT.md §7; capped, 100 means "99+"): what the
 * top bar asks when its tab comes back into view. Signed out 401; never cached.
 */
export const loader = apiLoader(async ({ request }) => {
  const member = await requireActor(request);
  return jsonResponse({ unread: await unreadCount(member.id) }, NO_STORE);
});

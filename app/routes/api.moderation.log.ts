import { moderationLogPage } from "~/models/moderation/moderation-log.server";
import { apiLoader, jsonResponse } from "~/web/api.server";
import { getSessionUser } from "~/web/session.server";

/**
 * GET /api/moderation/log?cursor= → 200 {entries, nextCursor}, newest first (CONTRACT.md §8 "Log"):
 * every decision for site staff, their clubs' for club staff; 401 signed out, 403 anyone else.
 */
export const loader = apiLoader(async ({ request }) => {
  const cursor = new URL(request.url).searchParams.get("cursor");
  return jsonResponse(await moderationLogPage(await getSessionUser(request), cursor));
});

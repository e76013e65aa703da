import { moderationQueue } from "~/models/moderation/report.server";
import { QUEUE_STATUSES, type QueueStatus } from "~/schemas/report";
import { badRequest } from "~/utils/errors";
import { apiLoader, listPageResponse } from "~/web/api.server";
import { getSessionUser } from "~/web/session.server";

/**
 * GET /api/moderation/reports?status=open|closed&cursor= → 200 an array of cases, newest first, one
 * per reported target (CONTRACT.md §8 "Queue"), with `Link: <…>; rel="next"` when more exist: every
 * case for site staff, their clubs' for club staff; 401 signed out, 403 anyone else. Who reported is
 * never in it.
 */
export const loader = apiLoader(async ({ request }) => {
  const url = new URL(request.url);
  const status = url.searchParams.get("status") ?? "open";
  if (!(QUEUE_STATUSES as readonly string[]).includes(status)) throw badRequest("status must be open or closed");
  const page = await moderationQueue(await getSessionUser(request), {
    status: status as QueueStatus,
    cursor: url.searchParams.get("cursor"),
  });
  return listPageResponse(url, page.entries, page.nextCursor);
});

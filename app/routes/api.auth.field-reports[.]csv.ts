import { listOwnFieldReports } from "~/models/places/harvest-log.server";
import { apiLoader } from "~/web/api.server";
import { feedOrigin } from "~/web/atom-feed.server";
import { harvestLogCsvResponse } from "~/web/harvest-log-csv.server";
import { getSessionUser } from "~/web/session.server";

/**
 * GET /api/auth/field-reports.csv?kind= → 200 `text/csv`, an attachment: the harvest log as the
 * JSON answer lists it, with a header row and absolute post addresses on the site's public origin
 * (CONTRACT.md §14; web/harvest-log-csv.server.ts). Signed out: 401; a bad kind: 400.
 */
export const loader = apiLoader(async ({ request }) => {
  const user = await getSessionUser(request);
  const reports = await listOwnFieldReports(user, new URL(request.url).searchParams.get("kind"));
  return harvestLogCsvResponse(reports, feedOrigin(request), user!.username);
});

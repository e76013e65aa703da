import { listOwnFieldReports } from "~/models/places/harvest-log.server";
import { apiLoader, jsonResponse } from "~/web/api.server";
import { NO_STORE_VALUE } from "~/web/cache-control.server";
import { getSessionUser } from "~/web/session.server";

/**
 * GET /api/auth/field-reports?kind= → 200 `{ items }`: the signed-in member's own field reports
 * (private clubs' and hidden posts' included), newest day seen first (CONTRACT.md §14 "Harvest
 * log"); `kind` one of sighting, rut_sign, harvest (else 400). Signed out: 401. Never stored by a cache.
 */
export const loader = apiLoader(async ({ request }) => {
  const kind = new URL(request.url).searchParams.get("kind");
  const items = await listOwnFieldReports(await getSessionUser(request), kind);
  return jsonResponse({ items }, { headers: { "Cache-Control": NO_STORE_VALUE } });
});

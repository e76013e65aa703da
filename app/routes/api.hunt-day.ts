import { huntDayCard } from "~/models/places/hunt-day.server";
import { apiLoader, jsonResponse } from "~/web/api.server";

/**
 * GET /api/hunt-day?county={fips}&date=YYYY-MM-DD → 200 `{ county: {fips, name, state}, date, sunrise,
 * sunset, legalStart, legalEnd, moon: { phase, illumination, name } }` (CONTRACT.md §14), instants in
 * UTC for the county's centre; `date` defaults to the county's today. A missing, malformed or unknown
 * county or a malformed date: 400 with `fieldErrors`.
 */
export const loader = apiLoader(({ request }) => {
  const params = new URL(request.url).searchParams;
  return jsonResponse(huntDayCard({ county: params.get("county"), date: params.get("date") }));
});

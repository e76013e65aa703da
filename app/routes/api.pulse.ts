import { getPulse } from "~/models/places/pulse.server";
import { apiLoader, jsonResponse } from "~/web/api.server";

/**
 * GET /api/pulse?days=7 → 200 `{ days, counties: [{ fips, name, state, reports, reporters, rutPhase,
 * lastAt }] }` (CONTRACT.md §14 "The pulse"; docs/decisions/0094-the-pulse.md): public field reports
 * seen in the last `days` days (1-30; junk falls back to 7, out of range is clamped, as the feed's
 * `limit`), a county only with at least 3 different reporters. The same answer for everyone.
 */
export const loader = apiLoader(async ({ request }) => {
  const { days, counties } = await getPulse(new URL(request.url).searchParams.get("days"));
  return jsonResponse({ days, counties });
});

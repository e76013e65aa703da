import { getCountyPulse } from "~/models/places/pulse.server";
import { apiLoader, jsonResponse } from "~/web/api.server";
import { getSessionUser } from "~/web/session.server";

/**
 * GET /api/pulse/{fips}?days= → 200 `{ days, county: { fips, name, state, reports, reporters,
 * rutPhase, lastAt }, posts }` (CONTRACT.md §14 "The pulse"; docs/decisions/0094-the-pulse.md): the
 * county's figures in the window and its public report posts, newest first (up to 50, SPEC's post
 * objects as the caller sees them). 404 `Not enough reports yet` under the floor of 3 reporters; 404
 * for a code that is no US county (malformed or unknown, as a malformed id).
 */
export const loader = apiLoader(async ({ request, params }) => {
  const actor = await getSessionUser(request);
  const { days, county, posts } = await getCountyPulse(actor, params.fips, new URL(request.url).searchParams.get("days"));
  return jsonResponse({ days, county, posts });
});

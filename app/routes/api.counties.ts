import { findCounties } from "~/models/places/county-search.server";
import { apiLoader, jsonResponse } from "~/web/api.server";

/**
 * GET /api/counties?q= → 200 an array of up to 20 US counties `{ fips, name, state }` whose county or
 * state name matches (CONTRACT.md §14): the field-report and hunt-day pickers' type-ahead. The same
 * answer for everyone, from data shipped with the site.
 */
export const loader = apiLoader(({ request }) => jsonResponse(findCounties(new URL(request.url).searchParams.get("q"))));

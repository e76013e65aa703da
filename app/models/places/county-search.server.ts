import { COUNTY_SEARCH_MAX, searchCounties, type CountyRef } from "~/utils/counties/counties.server";
import { invalid } from "~/utils/errors";

/** At most this many counties per answer (CONTRACT.md §14). */
export const COUNTY_SEARCH_LIMIT = 20;

/**
 * `GET /api/counties?q=`: up to 20 `{ fips, name, state }` whose county or state name matches `q`
 * (utils/counties/counties.server.ts says how). No text: none. Longer than 60 characters: 400.
 */
export function findCounties(query: string | null): CountyRef[] {
  const text = (query ?? "").trim();
  if (text.length > COUNTY_SEARCH_MAX) throw invalid({ q: [`Search must be at most ${COUNTY_SEARCH_MAX} characters`] });
  return searchCounties(text, COUNTY_SEARCH_LIMIT);
}

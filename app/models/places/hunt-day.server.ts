import { COUNTY_FIPS, countyRef, getCounty, type County, type CountyRef } from "~/utils/counties/counties.server";
import { invalid } from "~/utils/errors";
import { huntDay, huntDays, isCalendarDate, localDate, type HuntDay } from "~/utils/hunt-day";

/**
 * The hunt-day card (CONTRACT.md §14; docs/decisions/0090-counties-and-hunt-day.md): sunrise,
 * sunset, legal light (30 minutes either side) and the moon at a county's centre, on a day of the
 * county's own calendar. No database: counties ship with the site, the figures are computed.
 */

export const COUNTY_MESSAGES = {
  required: "Choose a county",
  shape: "County must be a 5-digit FIPS code",
  unknown: "No US county has that FIPS code",
} as const;
export const DATE_MESSAGE = "Date must be a day written YYYY-MM-DD (1900 to 2100)";

/** The county a `county` parameter names, or a 400 saying what is wrong with it. */
export function requireCounty(value: string | null | undefined): County {
  const text = (value ?? "").trim();
  if (!text) throw invalid({ county: [COUNTY_MESSAGES.required] });
  if (!COUNTY_FIPS.test(text)) throw invalid({ county: [COUNTY_MESSAGES.shape] });
  const county = getCounty(text);
  if (!county) throw invalid({ county: [COUNTY_MESSAGES.unknown] });
  return county;
}

export type HuntDayCard = { county: CountyRef } & HuntDay;

/**
 * `GET /api/hunt-day?county=&date=`: the card for one day (the county's today when `date` is left
 * out). Instants are UTC ISO 8601; a day the sun does not rise or set has nulls and `polar`.
 */
export function huntDayCard(params: { county: string | null; date: string | null }, now = Date.now()): HuntDayCard {
  const county = requireCounty(params.county);
  const date = params.date?.trim() || localDate(now, county.timeZone);
  if (!isCalendarDate(date)) throw invalid({ date: [DATE_MESSAGE] });
  return { county: countyRef(county), ...huntDay(county, date) };
}

/** The page's days: the county's today and the next 14. */
export function huntDayForecast(county: County, now = Date.now()): HuntDay[] {
  return huntDays(county, now);
}

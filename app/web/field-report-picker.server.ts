import { getHomeCounty } from "~/models/places/home-county.server";
import type { Actor } from "~/models/members/user.server";
import { countyRef, getCounty, type County } from "~/utils/counties/counties.server";
import { localDate } from "~/utils/hunt-day";
import { countyPickerData } from "./county-picker.server";
import { FIELD_STATE_NAME, type FieldReportPicker } from "~/schemas/field-report-form";

/** Where the default "today" is read when the member has no home county: the US's latest zone. */
const FALLBACK_ZONE = "America/Los_Angeles";

/** The plain form's state select in a post form (outside `field.*`: the post schemas never see it). */
export const FIELD_STATE = "fieldState";
/** The plain form's "List counties" button: the same form back, that state's counties listed, nothing published. */
export const LIST_COUNTIES_INTENT = "list-counties";

/**
 * What a post form's Field report part needs from the server (CONTRACT.md §14, issue 45 item 1):
 * the county it opens on (the one sent, else the member's home county), today where the member
 * hunts (the home county's zone; the day seen may not be later), and without JavaScript the states
 * and the chosen state's counties for the two plain selects.
 */
export async function fieldReportPicker(
  actor: Actor,
  { county: sent, state }: { county?: string | null; state?: string | null } = {},
  now = Date.now(),
): Promise<FieldReportPicker> {
  const home = await getHomeCounty(actor);
  const county: County | null = getCounty(sent) ?? (sent ? null : home);
  return {
    ...countyPickerData(state ?? null, county),
    county: county ? countyRef(county) : null,
    today: localDate(now, home?.timeZone ?? FALLBACK_ZONE),
  };
}

/** The picker for a form sent with "List counties": its county and its state select's choice. */
export function fieldReportPickerFor(actor: Actor, formData: FormData): Promise<FieldReportPicker> {
  const value = (name: string) => {
    const v = formData.get(name);
    return typeof v === "string" ? v : null;
  };
  return fieldReportPicker(actor, { county: value("field.county"), state: value(FIELD_STATE_NAME) });
}

import type { FieldReport } from "./shapes";

/**
 * The post forms' Field report part (CONTRACT.md §14, issue 45 item 1), with no zod: what the
 * server gives it (the picker), its values as the form holds them, and the names of the plain form's
 * extra controls. The kinds, phases and their labels are field-report-options.ts's.
 */

/**
 * What a form's Field report part gets from the server (web/field-report-picker.server.ts): the
 * county it opens on, today's date where the member hunts, and the plain selects' states and counties.
 */
export type FieldReportPicker = {
  states: { postal: string; name: string }[];
  chosenState: string | null;
  stateCounties: { fips: string; name: string }[];
  county: { fips: string; name: string; state: string } | null;
  today: string;
};

/** The form's values of the part, as sent (Conform's nested `field.*` names). */
export type FieldReportValues = Partial<Record<"kind" | "county" | "observedOn" | "rutPhase" | "bucks" | "does", string>>;

/** A report's values as the edit form starts from them. */
export function fieldValuesOf(report: FieldReport | null | undefined): FieldReportValues {
  if (!report) return {};
  return {
    kind: report.kind,
    county: report.county.fips,
    observedOn: report.observedOn,
    rutPhase: report.rutPhase ?? "",
    bucks: report.bucks === null ? "" : String(report.bucks),
    does: report.does === null ? "" : String(report.does),
  };
}

/** The plain form's state select (outside `field.*`, so the post schemas never see it). */
export const FIELD_STATE_NAME = "fieldState";
/** The plain form's "List counties" button: the same form back, that state's counties listed, nothing published. */
export const LIST_COUNTIES_INTENT = "list-counties";
/** What the type-ahead chose, "County, ST", kept with a draft so a restored form can say it again. */
export const FIELD_COUNTY_LABEL_NAME = "fieldCountyLabel";

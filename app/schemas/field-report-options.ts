/**
 * Field reports on posts (CONTRACT.md §14, issue 45 item 1): what the post forms and the line on a
 * card say. Kept apart from the schemas so a card pays only for these few words.
 */
export const FIELD_KINDS = ["sighting", "rut_sign", "harvest"] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];
export const FIELD_KIND_LABELS: Record<FieldKind, string> = { sighting: "Sighting", rut_sign: "Rut sign", harvest: "Harvest" };

export const RUT_PHASES = ["pre", "seeking", "chasing", "lockdown", "post"] as const;
export type RutPhase = (typeof RUT_PHASES)[number];
export const RUT_PHASE_LABELS: Record<RutPhase, string> = {
  pre: "Pre-rut",
  seeking: "Seeking",
  chasing: "Chasing",
  lockdown: "Lockdown",
  post: "Post-rut",
};

/** Deer seen, per kind of deer (CONTRACT.md §14: 0-50). */
export const DEER_MAX = 50;

/** A post's report as the post object answers it (CONTRACT.md §14). */
export type FieldReportView = {
  kind: FieldKind;
  county: { fips: string; name: string; state: string };
  observedOn: string;
  rutPhase: RutPhase | null;
  bucks: number | null;
  does: number | null;
};

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
export function fieldValuesOf(report: FieldReportView | null | undefined): FieldReportValues {
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

/**
 * Field reports' options as plain constants, with no zod (CONTRACT.md §14 "Field reports"): the post
 * card and page show them without the validation library. app/schemas/field-report.ts validates
 * with them; db/schema-sqlite.ts keeps the same lists for its column enums (a test holds them equal).
 */

export const FIELD_REPORT_KINDS = ["sighting", "rut_sign", "harvest"] as const;
export type FieldReportKind = (typeof FIELD_REPORT_KINDS)[number];

export const FIELD_REPORT_KIND_LABELS: Record<FieldReportKind, string> = {
  sighting: "Sighting",
  rut_sign: "Rut sign",
  harvest: "Harvest",
};

export const RUT_PHASES = ["pre", "seeking", "chasing", "lockdown", "post"] as const;
export type RutPhase = (typeof RUT_PHASES)[number];

export const RUT_PHASE_LABELS: Record<RutPhase, string> = {
  pre: "Pre-rut",
  seeking: "Seeking",
  chasing: "Chasing",
  lockdown: "Lockdown",
  post: "Post-rut",
};

/** Bucks or does seen: 0 to this many. */
export const DEER_COUNT_MAX = 50;

export const FIELD_REPORT_MESSAGES = {
  kind: "Choose what you saw: a sighting, rut sign or a harvest",
  county: "Choose a county",
  countyShape: "County must be a 5-digit FIPS code",
  countyUnknown: "No US county has that FIPS code",
  observedOn: "Date seen must be a day written YYYY-MM-DD",
  future: "Date seen cannot be in the future",
  rutPhase: "Choose a rut phase from the list",
  count: `Enter a whole number from 0 to ${DEER_COUNT_MAX}`,
} as const;

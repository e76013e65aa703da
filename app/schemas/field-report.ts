import * as z from "zod/mini";
import { preprocess } from "./text";
import {
  DEER_COUNT_MAX,
  FIELD_REPORT_KINDS,
  FIELD_REPORT_MESSAGES as M,
  RUT_PHASES,
  type FieldReportKind,
  type RutPhase,
} from "./field-report-options";
export * from "./field-report-options";

/**
 * A post's field report as sent (CONTRACT.md §14): JSON's `field: {...}` or the editor's
 * `field.kind`, `field.county`… inputs, which Conform reads into the same object. The form always
 * sends `field.sent`, so a part left blank reads as "no report" (null). Browser-safe: the shape
 * only; whether the county exists and the day is not yet to come in it is the model's check
 * (models/places/field-report.server.ts), since the county list is the server's.
 */

const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");
const one = (v: unknown) => (Array.isArray(v) ? v[v.length - 1] : v);
const trimmed = (v: unknown) => {
  const value = one(v);
  return blank(value) ? undefined : typeof value === "string" ? value.trim() : value;
};

const deerCount = preprocess(
  (v) => {
    const value = trimmed(v);
    return typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  },
  z.optional(z.nullable(z.number({ error: M.count }).check(z.int(M.count), z.minimum(0, M.count), z.maximum(DEER_COUNT_MAX, M.count)))),
);

const report = z.object({
  kind: preprocess(trimmed, z.enum(FIELD_REPORT_KINDS, { error: M.kind })),
  county: preprocess(trimmed, z.string({ error: M.county }).check(z.regex(/^\d{5}$/, M.countyShape))),
  observedOn: preprocess(trimmed, z.string({ error: M.observedOn }).check(z.regex(/^\d{4}-\d{2}-\d{2}$/, M.observedOn))),
  rutPhase: preprocess(trimmed, z.optional(z.nullable(z.enum(RUT_PHASES, { error: M.rutPhase })))),
  bucks: deerCount,
  does: deerCount,
});

/** The fields a report may carry besides the form's `sent` marker and the no-JS state pick. */
const REPORT_KEYS = ["kind", "county", "observedOn", "rutPhase", "bucks", "does"] as const;

/**
 * `field`: absent stays absent (on edit: keep the report); null, or a part with nothing filled in, is
 * null (no report; on edit: remove it); anything else must be a whole report. The editor's part
 * (it sends `field.sent`) fills in the member's home county and today for them, so there its kind
 * alone decides: "No report" (no kind) is no report whatever else it holds. The outbox sends the
 * part as it is, so a form queued offline reads the same.
 */
export const fieldReportField = preprocess(
  (v) => {
    if (v === undefined) return undefined;
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v === null ? null : v;
    const given = v as Record<string, unknown>;
    if ("sent" in given && blank(one(given.kind))) return null;
    return REPORT_KEYS.every((key) => blank(one(given[key]))) ? null : given;
  },
  z.optional(z.nullable(report)),
);

export type FieldReportInput = {
  kind: FieldReportKind;
  county: string;
  observedOn: string;
  rutPhase?: RutPhase | null;
  bucks?: number | null;
  does?: number | null;
};

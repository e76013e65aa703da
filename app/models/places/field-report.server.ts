import { eq } from "drizzle-orm";
import { fieldReports } from "#db/schema";
import { FIELD_REPORT_MESSAGES as M, type FieldReportInput } from "~/schemas/field-report";
import type { FieldReport } from "~/schemas/shapes";
import { countyRef, getCounty, type CountyRef } from "~/utils/counties/counties.server";
import type { Tx } from "~/utils/db.server";
import { invalid } from "~/utils/errors";
import { isCalendarDate, localDate } from "~/utils/hunt-day";

/**
 * A post's field report (CONTRACT.md §14, issue 45): checked before the post's transaction, written
 * in it, read with the post. The shape is the schema's (schemas/field-report.ts); what needs the
 * county list is here: the county exists, and the day seen is not after the county's today.
 */

/** 400 under the form's own keys (`field.county`, `field.observedOn`) when the report names no real county or a day to come. */
export function checkFieldReport<T extends FieldReportInput | null | undefined>(field: T, now = Date.now()): T {
  if (!field) return field;
  const county = getCounty(field.county);
  if (!county) throw invalid({ "field.county": [M.countyUnknown] });
  if (!isCalendarDate(field.observedOn)) throw invalid({ "field.observedOn": [M.observedOn] });
  if (field.observedOn > localDate(now, county.timeZone)) throw invalid({ "field.observedOn": [M.future] });
  return field;
}

/**
 * Set (`field`), remove (null) or keep (undefined) the post's report, in the post's transaction. An
 * edit keeps the report's `createdAt` (the pulse's "last report" is when it was first told).
 */
export async function writeFieldReport(
  tx: Tx,
  postId: number,
  authorId: number,
  field: FieldReportInput | null | undefined,
): Promise<void> {
  if (field === undefined) return;
  if (field === null) {
    await tx.delete(fieldReports).where(eq(fieldReports.postId, postId));
    return;
  }
  const values = {
    kind: field.kind,
    county: field.county,
    observedOn: field.observedOn,
    rutPhase: field.rutPhase ?? null,
    bucks: field.bucks ?? null,
    does: field.does ?? null,
  };
  await tx
    .insert(fieldReports)
    .values({ postId, authorId, ...values })
    .onConflictDoUpdate({ target: fieldReports.postId, set: values });
}

/** The columns a post's read takes (a left join: all null when the post has no report). */
export const fieldReportColumns = {
  kind: fieldReports.kind,
  county: fieldReports.county,
  observedOn: fieldReports.observedOn,
  rutPhase: fieldReports.rutPhase,
  bucks: fieldReports.bucks,
  does: fieldReports.does,
};

type FieldReportRow = { [K in keyof typeof fieldReportColumns]: (typeof fieldReportColumns)[K]["_"]["data"] | null };

/** A report row as the post object answers it, or null (none, or a county the list no longer has). */
export function toFieldReport(row: FieldReportRow | null): FieldReport | null {
  if (!row?.kind || !row.observedOn) return null;
  const county = getCounty(row.county);
  if (!county) return null;
  return {
    kind: row.kind,
    county: countyRef(county),
    observedOn: row.observedOn,
    rutPhase: row.rutPhase,
    bucks: row.bucks,
    does: row.does,
  };
}

/** The county a stored report names, for the member's own lists (the harvest log, the export): one the list no longer knows keeps its code. */
export function reportCounty(fips: string): CountyRef {
  const county = getCounty(fips);
  return county ? countyRef(county) : { fips, name: fips, state: "" };
}

import { and, desc, eq } from "drizzle-orm";
import { FIELD_REPORT_KINDS, fieldReports, posts, type FieldReportKind, type RutPhase } from "#db/schema";
import { requireSignedIn } from "~/models/access.server";
import type { Actor } from "~/models/members/user.server";
import type { CountyRef } from "~/utils/counties/counties.server";
import { fieldReportColumns, reportCounty } from "./field-report.server";
import { db } from "~/utils/db.server";
import { invalid } from "~/utils/errors";

/**
 * The harvest log (CONTRACT.md §14, issue 45 item 4; docs/decisions/0095-harvest-log.md): the
 * signed-in member's own field reports, every one of them (a private club's, a hidden or removed
 * post's: they are the member's own, as in the account export), newest day seen first. Nobody can
 * name another member here: the list is always the actor's.
 */

/** A season's log is tens of rows; a member who reported every day for years still fits. Past this, the oldest are left off. */
export const HARVEST_LOG_MAX = 2000;

export const KIND_MESSAGE = `Kind must be one of ${FIELD_REPORT_KINDS.join(", ")}`;

export type OwnFieldReport = {
  postId: number;
  kind: FieldReportKind;
  county: CountyRef;
  observedOn: string;
  rutPhase: RutPhase | null;
  bucks: number | null;
  does: number | null;
  post: { id: number; title: string; url: string };
};

/** The `kind` filter: empty or missing is every kind; anything but a kind is a 400 naming the choices. */
export function fieldReportKind(value: string | null | undefined): FieldReportKind | null {
  const text = (value ?? "").trim();
  if (!text) return null;
  if (!(FIELD_REPORT_KINDS as readonly string[]).includes(text)) throw invalid({ kind: [KIND_MESSAGE] }, KIND_MESSAGE);
  return text as FieldReportKind;
}

/** The actor's own field reports, of one kind or all, newest day seen first (401 signed out). */
export async function listOwnFieldReports(actor: Actor, kindParam?: string | null): Promise<OwnFieldReport[]> {
  const me = requireSignedIn(actor);
  const kind = fieldReportKind(kindParam);
  const rows = await db
    .select({
      postId: fieldReports.postId,
      ...fieldReportColumns,
      title: posts.title,
    })
    .from(fieldReports)
    .innerJoin(posts, eq(posts.id, fieldReports.postId))
    // field_reports_author (author_id, observed_on): the member's rows, already in order.
    .where(kind ? and(eq(fieldReports.authorId, me.id), eq(fieldReports.kind, kind)) : eq(fieldReports.authorId, me.id))
    .orderBy(desc(fieldReports.observedOn), desc(fieldReports.postId))
    .limit(HARVEST_LOG_MAX);
  return rows.map(({ title, county, ...row }) => ({
    ...row,
    county: reportCounty(county),
    post: { id: row.postId, title, url: `/post/${row.postId}` },
  }));
}

import { and, inArray, eq } from "drizzle-orm";
import { clubMembers, users, type ReportReason, type ReportTarget, type SiteRole } from "#db/schema";
import { queryRow, type Tx } from "~/utils/db.server";
import { notify } from "~/models/notifications/notification.server";
import type { Queryable } from "~/models/access.server";
import { isSiteStaff, staffedClubIds } from "./moderation-access.server";

/**
 * Staff told of reports (ux-3 U23, docs/decisions/0086-staff-told-of-reports.md): a report that opens
 * a case tells the staff who may decide it (CONTRACT.md §8 "Queue": site moderators and admins for
 * everything, a club's owner and admins for their club's cases) with one `report` notification each;
 * a further report on the open case tells nobody again. Never the reporter, never the member the
 * case is about, and the notice never names who reported. The top bar shows staff how many cases
 * are open (`moderationBadge`).
 */

export type OpenedCase = {
  id: number;
  targetType: ReportTarget;
  /** The club whose staff decide it (null: the site's staff only). */
  clubId: number | null;
  /** Whom the case is about. */
  subjectId: number | null;
  reporterId: number;
  reason: ReportReason;
};

/** Who may decide a case: every site moderator and admin, and the owner and admins of its club. */
async function deciders(q: Queryable, clubId: number | null): Promise<number[]> {
  const site = await q
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.role, ["moderator", "admin"]));
  const club =
    clubId === null
      ? []
      : await q
          .select({ id: clubMembers.userId })
          .from(clubMembers)
          .where(and(eq(clubMembers.clubId, clubId), inArray(clubMembers.role, ["owner", "admin"])));
  return [...site, ...club].map((row) => row.id);
}

/**
 * Tells the case's deciders of a new case, in the report's transaction: the notices exist exactly
 * when the report does, and their mail and push start after it commits (notify's afterCommit).
 */
export async function tellStaffOfCase(tx: Tx, opened: OpenedCase): Promise<number> {
  const recipients = (await deciders(tx, opened.clubId)).filter((id) => id !== opened.reporterId && id !== opened.subjectId);
  return notify(
    recipients,
    {
      kind: "report",
      actorId: null,
      clubId: opened.clubId ?? undefined,
      caseId: opened.id,
      detail: opened.targetType,
      reason: opened.reason,
    },
    tx,
  );
}

/** The top bar's count stops here ("99+"), so counting never reads more than 100 index entries. */
export const OPEN_CASES_CAP = 100;

/**
 * Open cases in the queue the member sees, counted up to the cap from one index (site staff:
 * moderation_cases_status; club staff: moderation_cases_club); null for a member who moderates nothing.
 */
export const openCasesSql = (clubIds: number[] | null) =>
  `SELECT COUNT(*) AS n FROM (SELECT 1 FROM moderation_cases mc WHERE mc.status = 'open'${
    clubIds ? ` AND mc.club_id IN (${clubIds.filter((id) => Number.isSafeInteger(id)).join(", ")})` : ""
  } LIMIT ${OPEN_CASES_CAP}) AS open_cases`;

export async function moderationBadge(user: { id: number; role: SiteRole }): Promise<{ openCases: number } | null> {
  const site = isSiteStaff(user.role);
  const clubIds = site ? null : await staffedClubIds(user.id);
  if (clubIds && clubIds.length === 0) return null;
  const row = await queryRow<{ n: number | string }>(openCasesSql(clubIds));
  return { openCases: Number(row?.n ?? 0) };
}

import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import { moderationCases, moderationLog, reports, users, type SiteRole } from "#db/schema";
import { isSuspendedAt, suspendSchema, type SuspendInput } from "~/schemas/moderation-staff";
import type { ModerationLogEntry } from "~/schemas/shapes";
import { PROFILE_NOT_FOUND } from "~/schemas/messages";
import { db, first, writeTransaction } from "~/utils/db.server";
import { equalsIgnoringCase } from "~/utils/db/sql-dialect.server";
import { forbidden, invalid, notFound } from "~/utils/errors";
import { zodFieldErrors } from "~/utils/validation";
import type { Queryable } from "~/models/access.server";
import { requireSiteStaff, type Moderator } from "./moderation-access.server";
import { logDecision, toLogEntry } from "./moderation-log.server";
import { openCasesReportedBy } from "./report.server";
import type { Actor } from "~/models/members/user.server";
import { endSessionsForSuspension } from "~/models/members/session.server";

/**
 * Suspension (CONTRACT.md §8 "Suspension"): site staff suspend a member for some days or until
 * lifted, with a reason the member reads when they try to sign in. Suspending ends every session
 * of the member in the same transaction as the suspension and its log entry; their content stays.
 * Moderators suspend members; only admins suspend moderators and admins; nobody suspends themselves.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export const ONLY_ADMINS = "Only admins can suspend moderators and admins";
export const NOT_YOURSELF = "You cannot suspend yourself";

/** A member as the staff page shows them. */
export type MemberStatus = {
  id: number;
  username: string;
  displayName: string;
  role: SiteRole;
  /** Suspended now (an ended suspension is not). */
  suspended: boolean;
  suspendedAt: string | null;
  /** null while suspended: until a moderator lifts it. */
  suspendedUntil: string | null;
  suspensionReason: string | null;
};

type UserRow = typeof users.$inferSelect;

function toStatus(row: UserRow, now: number): MemberStatus {
  const suspended = isSuspendedAt(row, now);
  return {
    id: row.id,
    username: row.username,
    displayName: row.displayName,
    role: row.role,
    suspended,
    suspendedAt: suspended ? (row.suspendedAt?.toISOString() ?? null) : null,
    suspendedUntil: suspended ? (row.suspendedUntil?.toISOString() ?? null) : null,
    suspensionReason: suspended ? row.suspensionReason : null,
  };
}

export async function requireMemberRow(username: string, q: Queryable): Promise<UserRow> {
  const row = first(await q.select().from(users).where(equalsIgnoringCase(users.username, username)));
  if (!row) throw notFound(PROFILE_NOT_FOUND);
  return row;
}

/** May this staff member suspend (or lift the suspension of) this member? */
export function maySuspend(me: Pick<Moderator, "id" | "role">, target: { id: number; role: SiteRole }): string | null {
  if (me.id === target.id) return NOT_YOURSELF;
  if (target.role !== "member" && me.role !== "admin") return ONLY_ADMINS;
  return null;
}

/**
 * The staff member, the member and whether the one may act on the other (suspend, lift, purge: the
 * same ladder, CONTRACT.md §8 and §12); refusals throw.
 */
export async function requireStaffOverMember(actor: Actor, username: string, tx: Queryable) {
  const me = await requireSiteStaff(actor, tx);
  const target = await requireMemberRow(username, tx);
  const refusal = maySuspend(me, target);
  if (refusal) throw forbidden(refusal);
  return { me, target };
}

/**
 * POST /api/moderation/users/{username}/suspend: 401 signed out, 403 not site staff (or a moderator
 * suspending staff, or oneself), 404 no such member, 400 a bad reason or days. Suspending a
 * suspended member replaces the reason and the end.
 */
export function suspendMember(
  actor: Actor,
  username: string,
  input: SuspendInput | unknown,
  now: number = Date.now(),
): Promise<MemberStatus> {
  return writeTransaction(async (tx) => {
    const { me, target } = await requireStaffOverMember(actor, username, tx);
    const parsed = suspendSchema.safeParse(input);
    if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
    const { reason, days } = parsed.data;
    const [row] = await tx
      .update(users)
      .set({ suspendedAt: new Date(now), suspendedUntil: days ? new Date(now + days * DAY_MS) : null, suspensionReason: reason })
      .where(eq(users.id, target.id))
      .returning();
    await endSessionsForSuspension(tx, target.id, now);
    await logDecision(tx, {
      actor: me,
      action: "suspend",
      targetType: "user",
      targetId: target.id,
      targetLabel: target.username,
      reason: `${reason} (${days ? `${days} day${days === 1 ? "" : "s"}` : "until lifted"})`,
      at: new Date(now),
    });
    return toStatus(row!, now);
  });
}

/** POST /api/moderation/users/{username}/unsuspend: the same refusals; lifting nothing changes nothing. */
export function unsuspendMember(actor: Actor, username: string, now: number = Date.now()): Promise<MemberStatus> {
  return writeTransaction(async (tx) => {
    const { me, target } = await requireStaffOverMember(actor, username, tx);
    if (target.suspendedAt === null) return toStatus(target, now);
    const [row] = await tx
      .update(users)
      .set({ suspendedAt: null, suspendedUntil: null, suspensionReason: null })
      .where(eq(users.id, target.id))
      .returning();
    await logDecision(tx, {
      actor: me,
      action: "unsuspend",
      targetType: "user",
      targetId: target.id,
      targetLabel: target.username,
      at: new Date(now),
    });
    return toStatus(row!, now);
  });
}

export const MEMBER_LOG_SIZE = 20;

/** The latest decisions about a member and their content, newest first, from moderation_log_subject; list-plans explains it. */
export const memberLogQuery = (userId: number) =>
  db
    .select()
    .from(moderationLog)
    .where(eq(moderationLog.subjectId, userId))
    .orderBy(desc(moderationLog.createdAt), desc(moderationLog.id))
    .limit(MEMBER_LOG_SIZE);

/** How many reports the member's posts and comments drew, and on how many of them (a repeat offender, ux-3 U23). */
/** The reports on a member's posts and comments (moderation_cases_subject finds their cases, reports_case the reports); list-plans explains it. */
export const reportsDrawnQuery = (userId: number, q: Queryable = db) =>
  q
    .select({
      reports: count(reports.id),
      items: sql<number | string>`count(DISTINCT ${moderationCases.targetType} || ':' || ${moderationCases.targetId})`,
    })
    .from(moderationCases)
    .innerJoin(reports, eq(reports.caseId, moderationCases.id))
    .where(and(eq(moderationCases.subjectId, userId), inArray(moderationCases.targetType, ["post", "comment"])));

export async function reportsDrawnBy(userId: number, q: Queryable = db): Promise<{ reports: number; items: number }> {
  const row = first(await reportsDrawnQuery(userId, q));
  return { reports: Number(row?.reports ?? 0), items: Number(row?.items ?? 0) };
}

/**
 * The staff page of one member (/moderation/members/{username}): their status, whether the viewer
 * may suspend (and purge) them, how many open cases they reported, how many reports their content
 * drew, and the latest decisions about them and their posts and comments (ux-3 U23: removals,
 * restores, dismissed reports, suspensions), newest first. Site staff only.
 */
export async function memberForStaff(
  actor: Actor,
  username: string,
  now: number = Date.now(),
): Promise<{
  member: MemberStatus;
  openReports: number;
  drawn: { reports: number; items: number };
  maySuspend: boolean;
  refusal: string | null;
  log: ModerationLogEntry[];
}> {
  const me = await requireSiteStaff(actor);
  const row = await requireMemberRow(username, db);
  const refusal = maySuspend(me, row);
  const log = await memberLogQuery(row.id);
  const openReports = await openCasesReportedBy(row.id);
  const drawn = await reportsDrawnBy(row.id);
  return { member: toStatus(row, now), openReports, drawn, maySuspend: refusal === null, refusal, log: log.map(toLogEntry) };
}

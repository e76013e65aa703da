import { and, asc, countDistinct, desc, eq, inArray, lt, lte, or, type SQL } from "drizzle-orm";
import { clubMembers, clubs, moderationCases, reports, users, type ReportTarget } from "#db/schema";
import {
  ALREADY_REPORTED,
  OWN_CONTENT,
  reportSchema,
  reportTargetIdSchema,
  reportTargetTypeSchema,
  decisionSchema,
  type DecisionInput,
  type QueueEntry,
  type QueuePage,
  type QueueStatus,
  type ReportInput,
} from "~/schemas/report";
import { db, first, isUniqueViolation, writeTransaction } from "~/utils/db.server";
import { consumeLimit } from "~/utils/rate-limit.server";
import { env } from "~/utils/env.server";
import { badRequest, conflict, forbidden, invalid, notFound } from "~/utils/errors";
import { decodeKeyset, keysetPage } from "~/utils/keyset";
import { zodFieldErrors } from "~/utils/validation";
import { canReadClub, postVisibility, requireSignedIn, type Queryable } from "~/models/access.server";
import { isClubStaff, NOT_STAFF, requireModerationScope, scopeCovers } from "./moderation-access.server";
import { logDecision } from "./moderation-log.server";
import { tellStaffOfCase } from "./report-notice.server";
import {
  COMMENT_LABEL_CHARS,
  hideForReports,
  OWN_CONTENT_DECISION,
  loadTarget,
  removeContent,
  unhideDismissed,
  type ModeratedTarget,
} from "./moderation-removal.server";
import { notSuspendedAt, type Actor } from "~/models/members/user.server";

/**
 * Reports and the moderation queue (CONTRACT.md §8 "Reports", "Queue", "Automatic limits").
 *
 * A member reports a post, comment, member or club once; the report keeps the text as the member saw
 * it. Reports of one target gather in its one open case (moderation_cases, a unique index on the open
 * case of a target), which staff decide: dismiss (auto-hidden content comes back) or remove (posts and
 * comments, through moderation-removal.server.ts). A post or comment reported by AUTO_HIDE_REPORTS
 * different established members is hidden until then (CONTRACT.md §12, docs/decisions/0067): only
 * reporters past NEW_ACCOUNT_HOURS and not suspended count toward it (every report still reaches the
 * queue), site staff's content is never hidden by reports, and a member files at most 10 reports an
 * hour. Who reported is never part of any answer: the queue shows reasons, details and times only.
 */

export const REPORT_NOT_FOUND = "There is nothing to report there";
export const CASE_NOT_FOUND = "Report not found";
export const CASE_DECIDED = "This report has already been decided";
export const REMOVE_MEMBER_INSTEAD = "Members are not removed from reports: suspend them from their page, or dismiss the report";
export const REMOVE_CLUB_INSTEAD = "Clubs are not removed from reports: deal with the club on its page, or dismiss the report";
export const QUEUE_PAGE_SIZE = 20;

let autoHideReports = env.AUTO_HIDE_REPORTS;
/** For tests: the number of different members' reports that hides a post or comment. */
export function setAutoHideReports(value: number) {
  autoHideReports = value;
}

type Subject = {
  /** The club whose staff see the case (a post's or comment's club, the club reported), else null. */
  clubId: number | null;
  /** Whose it is: the author, the member reported, the club's owner. */
  subjectId: number | null;
  /** The text as it is now. */
  text: string;
  /** What it is called (the log's label). */
  label: string;
  /** Where it can be seen. */
  href: string;
  hiddenAt: Date | null;
  removalReason: string | null;
  /** The post itself, or the post a comment is under; null for a member or a club. */
  postId: number | null;
};

const postText = (title: string, content: string) => `${title}\n\n${content}`;
const userText = (displayName: string, username: string, bio: string | null) => `${displayName} (@${username})${bio ? `\n\n${bio}` : ""}`;
const clubText = (name: string, description: string | null) => `${name}${description ? `\n\n${description}` : ""}`;

/** The target as it is now, whoever looks (null when it is not there). */
async function loadSubject(q: Queryable, type: ReportTarget, id: number): Promise<Subject | null> {
  switch (type) {
    case "post":
    case "comment": {
      const row = await loadTarget(q, { type, id });
      if (!row) return null;
      return {
        clubId: row.clubId,
        subjectId: row.authorId,
        text: type === "post" ? postText(row.label, row.text) : row.text,
        label: row.label,
        href: type === "post" ? `/post/${id}` : `/post/${row.postId}#comment-${id}`,
        hiddenAt: row.hiddenAt,
        removalReason: row.removalReason,
        postId: row.postId,
      };
    }
    case "user": {
      const row = first(
        await q.select({ username: users.username, displayName: users.displayName, bio: users.bio }).from(users).where(eq(users.id, id)),
      );
      if (!row) return null;
      return {
        clubId: null,
        subjectId: id,
        text: userText(row.displayName, row.username, row.bio),
        label: `@${row.username}`,
        href: `/profile/${row.username}`,
        hiddenAt: null,
        removalReason: null,
        postId: null,
      };
    }
    case "club": {
      const row = first(
        await q
          .select({ name: clubs.name, description: clubs.description, creatorId: clubs.creatorId })
          .from(clubs)
          .where(eq(clubs.id, id)),
      );
      if (!row) return null;
      const owner = first(
        await q
          .select({ userId: clubMembers.userId })
          .from(clubMembers)
          .where(and(eq(clubMembers.clubId, id), eq(clubMembers.role, "owner"))),
      );
      return {
        // A report about a club goes to site staff, never to the club's own staff (who could dismiss
        // reports about themselves): the case is outside any club's queue.
        clubId: null,
        subjectId: owner?.userId ?? row.creatorId,
        text: clubText(row.name, row.description),
        label: row.name,
        href: `/clubs/${id}`,
        hiddenAt: null,
        removalReason: null,
        postId: null,
      };
    }
  }
}

/**
 * The target as the reporter may see it: 404 when it is missing, in a private club they cannot
 * read, or hidden from them (removed or auto-hidden content of someone else).
 */
async function reportableSubject(q: Queryable, actor: Actor, type: ReportTarget, id: number): Promise<Subject> {
  const subject = await loadSubject(q, type, id);
  if (!subject) throw notFound(REPORT_NOT_FOUND);
  const mine = subject.subjectId === actor?.id;
  if ((type === "post" || type === "comment") && subject.clubId !== null && !(await canReadClub(actor, subject.clubId))) {
    throw notFound(REPORT_NOT_FOUND);
  }
  // A hidden post is its author's alone (access.server.ts visiblePostSql), and so is every comment
  // under it but the reporter's own.
  if (
    (type === "post" || (type === "comment" && !mine)) &&
    subject.postId !== null &&
    !(await postVisibility(actor, subject.postId))?.visible
  ) {
    throw notFound(REPORT_NOT_FOUND);
  }
  // A hidden comment is its author's alone.
  if (subject.hiddenAt !== null && !mine) throw notFound(REPORT_NOT_FOUND);
  return subject;
}

/**
 * What the report form names (the report page and dialog): 401 signed out; 404 nothing the member can
 * see there; 400 bad type or id, or the member's own content.
 */
export async function reportableTarget(
  actor: Actor,
  input: { targetType: unknown; targetId: unknown },
): Promise<{ targetType: ReportTarget; targetId: number; label: string; href: string }> {
  const me = requireSignedIn(actor, "Please sign in to report");
  const type = reportTargetTypeSchema.safeParse(input.targetType);
  const id = reportTargetIdSchema.safeParse(input.targetId);
  if (!type.success || !id.success) throw notFound(REPORT_NOT_FOUND);
  const subject = await reportableSubject(db, me, type.data, id.data);
  if (subject.subjectId === me.id) throw badRequest(OWN_CONTENT);
  return { targetType: type.data, targetId: id.data, label: subject.label, href: subject.href };
}

function parseReport(input: ReportInput) {
  const parsed = reportSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
  return parsed.data;
}

/** How many open cases have a report by this member (the staff page's "Reports by"). */
export async function openCasesReportedBy(userId: number, q: Queryable = db): Promise<number> {
  const row = first(
    await q
      .select({ n: countDistinct(moderationCases.id) })
      .from(reports)
      .innerJoin(moderationCases, eq(moderationCases.id, reports.caseId))
      .where(and(eq(reports.reporterId, userId), eq(moderationCases.status, "open"))),
  );
  return Number(row?.n ?? 0);
}

export const moderated = (type: ReportTarget, id: number): ModeratedTarget | null =>
  type === "post" || type === "comment" ? { type, id } : null;

/**
 * Report a post, comment, member or club (POST /api/reports): 401 signed out; 400 bad input or one's
 * own content; 404 nothing the member can see there; 409 reported by this member before. One
 * transaction stores the report, opens the target's case or adds to the open one, and hides a post
 * or comment once AUTO_HIDE_REPORTS different members have reported it.
 */
export async function reportTarget(actor: Actor, input: ReportInput): Promise<{ id: number }> {
  const me = requireSignedIn(actor, "Please sign in to report");
  const data = parseReport(input);
  // Two first reports at once: both may find no open case and one insert meets the other's in the
  // unique index (a PostgreSQL run; SQLite writes one at a time). Run again: the case is there now,
  // and a second report by the same member is the 409 it should be.
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeTransaction((tx) => storeReport(tx, me.id, data));
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error)) continue;
      if (isUniqueViolation(error)) throw conflict(ALREADY_REPORTED);
      throw error;
    }
  }
}

async function storeReport(tx: Queryable, reporterId: number, data: ReturnType<typeof parseReport>): Promise<{ id: number }> {
  const { targetType, targetId } = data;
  const subject = await reportableSubject(tx, { id: reporterId }, targetType, targetId);
  if (subject.subjectId === reporterId) throw badRequest(OWN_CONTENT);
  const before = first(
    await tx
      .select({ id: reports.id })
      .from(reports)
      .where(and(eq(reports.reporterId, reporterId), eq(reports.targetType, targetType), eq(reports.targetId, targetId))),
  );
  if (before) throw conflict(ALREADY_REPORTED);
  await consumeLimit("reportsPerUser", String(reporterId));

  const open = first(
    await tx
      .select({ id: moderationCases.id })
      .from(moderationCases)
      .where(and(eq(moderationCases.targetType, targetType), eq(moderationCases.targetId, targetId), eq(moderationCases.status, "open"))),
  );
  const opened = open
    ? null
    : first(
        await tx
          .insert(moderationCases)
          .values({ targetType, targetId, clubId: await deciderClubOf(tx, subject), subjectId: subject.subjectId, snapshot: subject.text })
          .returning({ id: moderationCases.id, clubId: moderationCases.clubId }),
      )!;
  const caseId = open?.id ?? opened!.id;
  const [row] = await tx
    .insert(reports)
    .values({ caseId, targetType, targetId, reporterId, reason: data.reason, details: data.details ?? null, snapshot: subject.text })
    .returning({ id: reports.id });
  // A new case tells its deciders (ux-3 U23); a report added to an open case tells nobody again.
  if (opened) {
    await tellStaffOfCase(tx, {
      id: opened.id,
      targetType,
      clubId: opened.clubId,
      subjectId: subject.subjectId,
      reporterId,
      reason: data.reason,
    });
  }

  const target = moderated(targetType, targetId);
  if (target && subject.hiddenAt === null && !(await isSiteStaff(tx, subject.subjectId))) {
    if ((await weightyReporters(tx, caseId)) >= autoHideReports) await hideForReports(tx, target);
  }
  return { id: row!.id };
}

/**
 * The different members behind a case's reports who count toward auto-hide: accounts older than
 * NEW_ACCOUNT_HOURS and not suspended now. A brigade of throw-away accounts reaches the queue and
 * hides nothing (security-3 P2). Unlike the first-day caps, RATE_LIMITS=off does not lift this.
 */
async function weightyReporters(tx: Queryable, caseId: number, now = Date.now()): Promise<number> {
  const row = first(
    await tx
      .select({ n: countDistinct(reports.reporterId) })
      .from(reports)
      .innerJoin(users, eq(users.id, reports.reporterId))
      .where(and(eq(reports.caseId, caseId), lte(users.createdAt, new Date(now - env.NEW_ACCOUNT_HOURS * 3_600_000)), notSuspendedAt(now))),
  );
  return Number(row?.n ?? 0);
}

/** Content by site staff (moderators, admins) is never hidden by reports: a moderator decides on it. */
/**
 * Whose queue a new case goes to: the club's staff for club content, unless it is one of them the
 * case is about (their own post or comment): then the site's staff (security-3 P3).
 */
async function deciderClubOf(tx: Queryable, subject: Subject): Promise<number | null> {
  if (subject.clubId === null || subject.subjectId === null) return subject.clubId;
  return (await isClubStaff(subject.subjectId, subject.clubId, tx)) ? null : subject.clubId;
}

async function isSiteStaff(tx: Queryable, userId: number | null): Promise<boolean> {
  if (userId === null) return false;
  const row = first(await tx.select({ role: users.role }).from(users).where(eq(users.id, userId)));
  return row !== undefined && row.role !== "member";
}

// ---------------------------------------------------------------------------------------------
// The queue

type CaseRow = typeof moderationCases.$inferSelect;

function stateOf(subject: Subject | null): QueueEntry["state"] {
  if (!subject) return "deleted";
  if (subject.removalReason !== null) return "removed";
  return subject.hiddenAt !== null ? "hidden" : "visible";
}

async function toEntries(rows: CaseRow[]): Promise<QueueEntry[]> {
  if (rows.length === 0) return [];
  const reportRows = await db
    .select({ caseId: reports.caseId, reason: reports.reason, details: reports.details, createdAt: reports.createdAt })
    .from(reports)
    .where(
      inArray(
        reports.caseId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(reports.createdAt), asc(reports.id));
  const subjectIds = [...new Set(rows.map((r) => r.subjectId).filter((id): id is number => id !== null))];
  const subjects = new Map(
    subjectIds.length === 0
      ? []
      : (
          await db
            .select({ id: users.id, username: users.username, displayName: users.displayName })
            .from(users)
            .where(inArray(users.id, subjectIds))
        ).map((u) => [u.id, { username: u.username, displayName: u.displayName }]),
  );
  const entries: QueueEntry[] = [];
  for (const row of rows) {
    const subject = await loadSubject(db, row.targetType, row.targetId);
    entries.push({
      id: row.id,
      targetType: row.targetType,
      targetId: row.targetId,
      clubId: row.clubId,
      snapshot: row.snapshot,
      current: subject?.text ?? null,
      state: stateOf(subject),
      removalReason: subject?.removalReason ?? null,
      href: subject?.href ?? null,
      subject: row.targetType === "club" || row.subjectId === null ? null : (subjects.get(row.subjectId)?.username ?? null),
      // Who wrote the post or comment (ux-3 U23): the queue names them, as Discourse's review queue does.
      author:
        (row.targetType === "post" || row.targetType === "comment") && row.subjectId !== null
          ? (subjects.get(row.subjectId) ?? null)
          : null,
      reports: reportRows
        .filter((r) => r.caseId === row.id)
        .map((r) => ({ reason: r.reason, details: r.details, createdAt: r.createdAt.toISOString() })),
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      closedAt: row.closedAt?.toISOString() ?? null,
      decision: row.decision && row.decidedBy ? { action: row.decision, by: row.decidedBy } : null,
    });
  }
  return entries;
}

/**
 * The queue, newest case first, in pages (GET /api/moderation/reports): every case for site staff,
 * their clubs' cases for club staff; 401 signed out, 403 anyone else.
 */
export async function moderationQueue(
  actor: Actor,
  { status = "open", cursor, limit = QUEUE_PAGE_SIZE }: { status?: QueueStatus; cursor?: string | null; limit?: number } = {},
): Promise<QueuePage> {
  const scope = await requireModerationScope(actor);
  const after = decodeKeyset(cursor);
  const where: (SQL | undefined)[] = [
    eq(moderationCases.status, status),
    scope.site ? undefined : inArray(moderationCases.clubId, scope.clubIds),
    after
      ? or(
          lt(moderationCases.createdAt, new Date(after.at)),
          and(eq(moderationCases.createdAt, new Date(after.at)), lt(moderationCases.id, after.id)),
        )
      : undefined,
  ];
  const rows = await db
    .select()
    .from(moderationCases)
    .where(and(...where))
    .orderBy(desc(moderationCases.createdAt), desc(moderationCases.id))
    .limit(limit + 1);
  const { page, nextCursor } = keysetPage(rows, limit, (r) => [r.createdAt, r.id]);
  return {
    entries: await toEntries(page),
    nextCursor,
  };
}

/** One case as the queue shows it, for staff whose scope covers it (401 / 403 / 404 otherwise). */
export async function getCase(actor: Actor, caseId: number): Promise<QueueEntry> {
  const scope = await requireModerationScope(actor);
  const row = first(await db.select().from(moderationCases).where(eq(moderationCases.id, caseId)));
  if (!row) throw notFound(CASE_NOT_FOUND);
  if (!scopeCovers(scope, { clubId: row.clubId })) throw forbidden(NOT_STAFF);
  return (await toEntries([row]))[0]!;
}

/**
 * Decide a case (POST /api/moderation/reports/{id}): dismiss closes it and brings back content that
 * was hidden after reports; remove takes a post or comment down with a reason (a member or a club is
 * not removed from here: 400). 401 / 403 (not staff of the case's club) / 404 / 409 (decided already).
 */
export async function decideCase(actor: Actor, caseId: number, input: DecisionInput): Promise<{ status: QueueStatus }> {
  const parsed = decisionSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
  const { action, reason } = parsed.data;
  return writeTransaction(async (tx) => {
    const scope = await requireModerationScope(actor, tx);
    const row = first(await tx.select().from(moderationCases).where(eq(moderationCases.id, caseId)));
    if (!row) throw notFound(CASE_NOT_FOUND);
    if (!scopeCovers(scope, { clubId: row.clubId })) throw forbidden(NOT_STAFF);
    if (row.status !== "open") throw conflict(CASE_DECIDED);
    // Club staff never decide about one of their club's staff (themselves included): a case from
    // before cases went to the site queue for that, or about a member made staff since.
    if (!scope.site && row.clubId !== null && row.subjectId !== null && (await isClubStaff(row.subjectId, row.clubId, tx)))
      throw forbidden(OWN_CONTENT_DECISION);
    const target = moderated(row.targetType, row.targetId);

    if (action === "remove") {
      if (!target) throw badRequest(row.targetType === "user" ? REMOVE_MEMBER_INSTEAD : REMOVE_CLUB_INSTEAD);
      // Checks the reason (400) and the actor once more, hides it, logs it and closes this case.
      await removeContent(actor, target, reason ?? "", tx);
      return { status: "closed" };
    }

    const at = new Date();
    await tx
      .update(moderationCases)
      .set({ status: "closed", closedAt: at, decision: "dismiss", decidedBy: scope.moderator.username })
      .where(eq(moderationCases.id, caseId));
    if (target) await unhideDismissed(tx, target);
    const subject = await loadSubject(tx, row.targetType, row.targetId);
    await logDecision(tx, {
      actor: scope.moderator,
      action: "dismiss",
      targetType: row.targetType,
      targetId: row.targetId,
      targetLabel: subject?.label ?? row.snapshot.split("\n")[0]!.slice(0, COMMENT_LABEL_CHARS),
      clubId: row.clubId,
      reason: reason ?? null,
      at,
    });
    return { status: "closed" };
  });
}

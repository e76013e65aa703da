import { and, eq, sql } from "drizzle-orm";
import { forgetNotificationsAbout, notify } from "~/models/notifications/notification.server";
import { comments, moderationCases, posts, users, type ModerationAction, type Remover } from "#db/schema";
import { afterCommit, db, decrementCounter, first, writeTransaction } from "~/utils/db.server";
import { forbidden, invalid, notFound } from "~/utils/errors";
import type { HiddenNotice } from "~/schemas/shapes";
import type { Queryable } from "~/models/access.server";
import {
  isSiteStaff,
  NOT_STAFF,
  requireModerationScope,
  requireModeratorOf,
  scopeCovers,
  type Moderator,
} from "./moderation-access.server";
import { logDecision } from "./moderation-log.server";
import { forgetTrending } from "~/models/feeds/trending-cache.server";
import type { Actor } from "~/models/members/user.server";

/**
 * Removal and restore of posts and comments (CONTRACT.md §8 "Removal"). A hidden row (hiddenAt set)
 * is gone for everyone but its author (and the staff who may decide on it): removed by staff with a
 * reason (removalReason set), or hidden after reports until a moderator decides (removalReason
 * null). Each decision is one transaction with its log entry, the close of the target's open case
 * and the counters: users.posts_count and posts.comments_count count VISIBLE rows only, so hiding a
 * visible row takes one off and bringing it back adds one.
 */

export type ModeratedTarget = { type: "post" | "comment"; id: number };

export const REMOVAL_REASON_MAX = 500;
export const REMOVAL_REASON_REQUIRED = "Give a reason for the removal (the author will see it)";
export const REMOVAL_REASON_TOO_LONG = `Keep the reason under ${REMOVAL_REASON_MAX} characters`;
export const POST_GONE = "Post not found";
export const SITE_REMOVAL = "A site moderator removed this: only site moderators can change that";
export const OWN_CONTENT_DECISION = "Your own posts and comments are decided on by the site's moderators";
export const COMMENT_GONE = "Comment not found";

/** The length of a comment's text the log and the report queue name it by. */
export const COMMENT_LABEL_CHARS = 80;

export type TargetRow = {
  clubId: number | null;
  authorId: number;
  label: string;
  text: string;
  hiddenAt: Date | null;
  removalReason: string | null;
  removedBy: Remover | null;
  /** The post a comment is on (a post's own id for a post). */
  postId: number;
};

/** A post's or comment's place, author, words and removal, as it is now (report.server.ts reads it too). */
export async function loadTarget(q: Queryable, target: ModeratedTarget): Promise<TargetRow | null> {
  if (target.type === "post") {
    const row = first(
      await q
        .select({
          clubId: posts.clubId,
          authorId: posts.authorId,
          title: posts.title,
          content: posts.content,
          hiddenAt: posts.hiddenAt,
          removalReason: posts.removalReason,
          removedBy: posts.removedBy,
        })
        .from(posts)
        .where(eq(posts.id, target.id)),
    );
    if (!row) return null;
    return { ...row, label: row.title, text: row.content, postId: target.id };
  }
  const row = first(
    await q
      .select({
        clubId: posts.clubId,
        authorId: comments.authorId,
        content: comments.content,
        hiddenAt: comments.hiddenAt,
        removalReason: comments.removalReason,
        removedBy: comments.removedBy,
        postId: comments.postId,
      })
      .from(comments)
      .innerJoin(posts, eq(posts.id, comments.postId))
      .where(eq(comments.id, target.id)),
  );
  if (!row) return null;
  return { ...row, label: row.content.slice(0, COMMENT_LABEL_CHARS), text: row.content };
}

/** What a hidden row tells its author and the staff (HiddenNotice): the reason, and who removed it. */
export function hiddenNoticeOf(row: { removalReason: string | null; removedBy: Remover | null }): HiddenNotice {
  return row.removedBy ? { reason: row.removalReason, by: row.removedBy } : { reason: row.removalReason };
}

/** Where the target is, whose it is and what it says; null when it is not there. */
export async function targetPlace(
  target: ModeratedTarget,
  q: Queryable = db,
): Promise<{ clubId: number | null; authorId: number; label: string; text: string } | null> {
  const row = await loadTarget(q, target);
  return row ? { clubId: row.clubId, authorId: row.authorId, label: row.label, text: row.text } : null;
}

/** The reason, trimmed: 1..500 characters, else 400 with fieldErrors.reason. */
export function parseRemovalReason(reason: unknown): string {
  const text = typeof reason === "string" ? reason.trim() : "";
  if (!text) throw invalid({ reason: [REMOVAL_REASON_REQUIRED] }, REMOVAL_REASON_REQUIRED);
  if (text.length > REMOVAL_REASON_MAX) throw invalid({ reason: [REMOVAL_REASON_TOO_LONG] }, REMOVAL_REASON_TOO_LONG);
  return text;
}

const missing = (target: ModeratedTarget) => notFound(target.type === "post" ? POST_GONE : COMMENT_GONE);

/**
 * 401 signed out, 403 for a member who moderates nothing, 404 no such target, 403 when the target
 * is outside what the actor moderates. The staff ladder (CONTRACT.md §12, security-3 P3): club staff
 * never decide on their own content, nor change what site staff removed (403). Read inside the
 * decision's transaction.
 */
export async function requireDecider(tx: Queryable, actor: Actor, target: ModeratedTarget): Promise<{ me: Moderator; row: TargetRow }> {
  const scope = await requireModerationScope(actor, tx);
  const row = await loadTarget(tx, target);
  if (!row) throw missing(target);
  if (!scopeCovers(scope, { clubId: row.clubId })) throw forbidden(NOT_STAFF);
  // The one rule, once more (a role taken away meanwhile answers 403 here too).
  const me = await requireModeratorOf(actor, { clubId: row.clubId }, tx);
  if (!isSiteStaff(me.role)) {
    if (row.authorId === me.id) throw forbidden(OWN_CONTENT_DECISION);
    if (row.removedBy === "site") throw forbidden(SITE_REMOVAL);
  }
  return { me, row };
}

/** Sets the target's hidden state and moves the counter that counts it when its visibility changed. */
export async function setHidden(
  tx: Queryable,
  target: ModeratedTarget,
  row: TargetRow,
  next: { hiddenAt: Date | null; removalReason: string | null; removedBy: Remover | null },
): Promise<void> {
  if (target.type === "post") {
    await tx.update(posts).set(next).where(eq(posts.id, target.id));
  } else {
    await tx.update(comments).set(next).where(eq(comments.id, target.id));
  }
  const wasVisible = row.hiddenAt === null;
  const nowVisible = next.hiddenAt === null;
  if (wasVisible === nowVisible) return;
  if (target.type === "post") {
    await tx
      .update(users)
      .set({ postsCount: nowVisible ? sql`${users.postsCount} + 1` : decrementCounter(users.postsCount) })
      .where(eq(users.id, row.authorId));
  } else {
    await tx
      .update(posts)
      .set({ commentsCount: nowVisible ? sql`${posts.commentsCount} + 1` : decrementCounter(posts.commentsCount) })
      .where(eq(posts.id, row.postId));
  }
}

/** How a case was closed, as the queue's Closed tab tells it: the log's action and actor name. */
export type CaseDecision = { action: ModerationAction; by: string };

/** The target's open moderation case, if any, is decided. */
export async function closeCase(tx: Queryable, target: ModeratedTarget, at: Date, decision: CaseDecision): Promise<void> {
  await tx
    .update(moderationCases)
    .set({ status: "closed", closedAt: at, decision: decision.action, decidedBy: decision.by })
    .where(and(eq(moderationCases.targetType, target.type), eq(moderationCases.targetId, target.id), eq(moderationCases.status, "open")));
}

/**
 * Remove a post or comment with a reason its author will see: site moderators, or the club's staff
 * for club content. 401 / 403 / 404; 400 for a missing or too long reason. Removing it again
 * updates the reason (it stays hidden since it first was). Closes the target's open case. Runs in
 * `tx` when given (the queue's decision), else in its own transaction.
 */
export async function removeContent(actor: Actor, target: ModeratedTarget, reason: string, tx?: Queryable): Promise<void> {
  const run = async (q: Queryable) => {
    const { me, row } = await requireDecider(q, actor, target);
    const text = parseRemovalReason(reason);
    const at = new Date();
    await setHidden(q, target, row, {
      hiddenAt: row.hiddenAt ?? at,
      removalReason: text,
      removedBy: isSiteStaff(me.role) ? "site" : "club",
    });
    await logDecision(q, {
      actor: me,
      action: "remove",
      targetType: target.type,
      targetId: target.id,
      targetLabel: row.label,
      clubId: row.clubId,
      reason: text,
      at,
    });
    await closeCase(q, target, at, { action: "remove", by: me.username });
    await forgetNotificationsAbout(q, target);
    await tellAuthor(q, me, target, row, { detail: "removed", reason: text });
  };
  if (tx) await run(tx);
  else await writeTransaction(run);
  afterCommit(forgetTrending);
}

/**
 * Bring a removed or auto-hidden post or comment back for everyone (same permissions as removal).
 * Content that is not hidden stays as it is (200, nothing logged). Closes the target's open case.
 */
export async function restoreContent(actor: Actor, target: ModeratedTarget, tx?: Queryable): Promise<void> {
  const run = async (q: Queryable) => {
    const { me, row } = await requireDecider(q, actor, target);
    const at = new Date();
    if (row.hiddenAt !== null || row.removalReason !== null) {
      await setHidden(q, target, row, { hiddenAt: null, removalReason: null, removedBy: null });
      await logDecision(q, {
        actor: me,
        action: "restore",
        targetType: target.type,
        targetId: target.id,
        targetLabel: row.label,
        clubId: row.clubId,
        at,
      });
      await tellAuthor(q, me, target, row, { detail: "restored" });
    }
    await closeCase(q, target, at, { action: "restore", by: me.username });
  };
  if (tx) await run(tx);
  else await writeTransaction(run);
  afterCommit(forgetTrending);
}

/**
 * The author hears of a removal, with the reason, and of a restoration (CONTRACT.md §7 `moderation`);
 * not who decided, and not when they decided on their own content.
 */
async function tellAuthor(
  q: Queryable,
  me: Moderator,
  target: ModeratedTarget,
  row: TargetRow,
  what: { detail: "removed" | "restored"; reason?: string },
): Promise<void> {
  if (row.authorId === me.id) return;
  const about = target.type === "post" ? { postId: target.id } : { postId: row.postId, commentId: target.id };
  await notify([row.authorId], { kind: "moderation", actorId: null, ...about, ...what }, q);
}

/**
 * Hide a post or comment after AUTO_HIDE_REPORTS reports until a moderator decides (the site's own
 * decision: logged with no actor). Call inside the report's transaction. Already hidden: nothing.
 */
export async function hideForReports(tx: Queryable, target: ModeratedTarget): Promise<void> {
  const row = await loadTarget(tx, target);
  if (!row || row.hiddenAt !== null) return;
  const at = new Date();
  await setHidden(tx, target, row, { hiddenAt: at, removalReason: null, removedBy: null });
  await logDecision(tx, {
    actor: null,
    action: "hide",
    targetType: target.type,
    targetId: target.id,
    targetLabel: row.label,
    clubId: row.clubId,
    at,
  });
  afterCommit(forgetTrending);
}

/**
 * A dismissed case's auto-hidden content comes back (the dismissal itself is the caller's log
 * entry). Content a moderator removed stays removed. Call inside the dismissal's transaction.
 */
export async function unhideDismissed(tx: Queryable, target: ModeratedTarget): Promise<void> {
  const row = await loadTarget(tx, target);
  if (!row || row.hiddenAt === null || row.removalReason !== null) return;
  await setHidden(tx, target, row, { hiddenAt: null, removalReason: null, removedBy: null });
  afterCommit(forgetTrending);
}

import { and, eq, gte } from "drizzle-orm";
import { comments, moderationCases, posts, reports } from "#db/schema";
import { purgeSchema, type PurgeInput } from "~/schemas/moderation-staff";
import { afterCommit, writeTransaction } from "~/utils/db.server";
import { invalid } from "~/utils/errors";
import { zodFieldErrors } from "~/utils/validation";
import { forgetTrending } from "~/models/feeds/trending-cache.server";
import type { Actor } from "~/models/members/user.server";
import { forgetNotificationsAbout } from "~/models/notifications/notification.server";
import { requireSiteStaff } from "./moderation-access.server";
import { logDecision } from "./moderation-log.server";
import { closeCase, loadTarget, setHidden, unhideDismissed, type ModeratedTarget } from "./moderation-removal.server";
import { moderated } from "./report.server";
import { requireMemberRow, requireStaffOverMember } from "./suspension.server";

/**
 * Tools for a wave (CONTRACT.md §12 "Spam waves", issue 39 item 2): a spammer's last days taken down
 * in one decision, and a false brigade's reports cleared in one. Each is one transaction and one
 * entry in the moderation log, however many posts, comments or cases it touches; the queue offers
 * both on the member's staff page, beside suspension.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export type PurgeResult = { username: string; posts: number; comments: number };

/**
 * POST /api/moderation/users/{username}/purge {reason, days}: every post and comment the member
 * wrote in the last `days` days is removed by the site with `reason` (already removed ones take the
 * new reason), their open cases are closed and the notifications about them go; one log entry. The
 * member is not told once per item (a wave is hundreds): the reason shows on each removed item they
 * open, as any removal's does. The suspension's ladder: site staff only, moderators not on staff,
 * nobody on themselves (403); 404 no such member; 400 a bad reason or days.
 */
export function purgeMember(actor: Actor, username: string, input: PurgeInput | unknown, now = new Date()): Promise<PurgeResult> {
  return writeTransaction(async (tx) => {
    const { me, target } = await requireStaffOverMember(actor, username, tx);
    const parsed = purgeSchema.safeParse(input);
    if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
    const { reason, days } = parsed.data;
    const since = new Date(now.getTime() - days * DAY_MS);
    const postIds = await tx
      .select({ id: posts.id })
      .from(posts)
      .where(and(eq(posts.authorId, target.id), gte(posts.createdAt, since)));
    const commentIds = await tx
      .select({ id: comments.id })
      .from(comments)
      .where(and(eq(comments.authorId, target.id), gte(comments.createdAt, since)));
    const targets: ModeratedTarget[] = [
      ...postIds.map(({ id }) => ({ type: "post" as const, id })),
      ...commentIds.map(({ id }) => ({ type: "comment" as const, id })),
    ];
    for (const item of targets) {
      const row = await loadTarget(tx, item);
      if (!row) continue;
      await setHidden(tx, item, row, { hiddenAt: row.hiddenAt ?? now, removalReason: reason, removedBy: "site" });
      await closeCase(tx, item, now, { action: "purge", by: me.username });
      await forgetNotificationsAbout(tx, item);
    }
    const counted = `${postIds.length} post${postIds.length === 1 ? "" : "s"}, ${commentIds.length} comment${commentIds.length === 1 ? "" : "s"}`;
    await logDecision(tx, {
      actor: me,
      action: "purge",
      targetType: "user",
      targetId: target.id,
      targetLabel: target.username,
      reason: `${reason} (${counted} of the last ${days} day${days === 1 ? "" : "s"})`,
      at: now,
    });
    afterCommit(forgetTrending);
    return { username: target.username, posts: postIds.length, comments: commentIds.length };
  });
}

/**
 * "Dismiss every open report by this member" (the staff page, for a false brigade): each open case
 * the member reported is dismissed, as a moderator's Dismiss would (content hidden after reports
 * comes back; content a moderator removed stays removed), and the reports it already had do not hide
 * it again. Other members' open cases stay. Site staff only (401/403); 404 no such member; one log
 * entry naming how many cases.
 */
export function dismissReportsBy(actor: Actor, username: string, now = new Date()): Promise<{ username: string; cases: number }> {
  return writeTransaction(async (tx) => {
    const me = await requireSiteStaff(actor, tx);
    const reporter = await requireMemberRow(username, tx);
    const open = await tx
      .selectDistinct({ id: moderationCases.id, targetType: moderationCases.targetType, targetId: moderationCases.targetId })
      .from(reports)
      .innerJoin(moderationCases, eq(moderationCases.id, reports.caseId))
      .where(and(eq(reports.reporterId, reporter.id), eq(moderationCases.status, "open")));
    for (const entry of open) {
      await tx
        .update(moderationCases)
        .set({ status: "closed", closedAt: now, decision: "dismiss_reports", decidedBy: me.username })
        .where(eq(moderationCases.id, entry.id));
      const target = moderated(entry.targetType, entry.targetId);
      if (target) await unhideDismissed(tx, target);
    }
    await logDecision(tx, {
      actor: me,
      action: "dismiss_reports",
      targetType: "user",
      targetId: reporter.id,
      targetLabel: reporter.username,
      reason: `${open.length} open case${open.length === 1 ? "" : "s"} this member reported`,
      at: now,
    });
    return { username: reporter.username, cases: open.length };
  });
}

import { and, desc, eq, inArray, lt, or } from "drizzle-orm";
import { comments, moderationLog, posts, type ModerationAction, type ReportTarget } from "#db/schema";
import type { ModerationLogEntry, ModerationLogPage } from "~/schemas/shapes";
import { db, first } from "~/utils/db.server";
import { decodeKeyset, keysetPage } from "~/utils/keyset";
import type { Queryable } from "~/models/access.server";
import { requireModerationScope, type Moderator } from "./moderation-access.server";
import type { Actor } from "~/models/members/user.server";

/**
 * The moderation log (CONTRACT.md §8 "Log"): one row per decision, written in the same transaction
 * as the decision itself, so a decision without its entry (or an entry without its decision) cannot
 * be. Names are copied in: the log outlives the members and the content it names.
 */

/** Who the log names for a decision the site made by itself (auto-hide after reports). */
export const SITE_ACTOR = "Whitetail Pulse";

export type Decision = {
  /** The moderator, or null for the site itself. */
  actor: Pick<Moderator, "id" | "username"> | null;
  /** Who the log names when `actor` is null and the decision is not the site's own (the operator's `npm run role`). */
  actorName?: string;
  action: ModerationAction;
  targetType: ReportTarget;
  targetId: number;
  targetLabel: string;
  clubId?: number | null;
  reason?: string | null;
  at?: Date;
};

/** Whose the target is (a post's or comment's author, the member themself; null for a club or content gone): the member's history (ux-3 U23). */
async function subjectOf(tx: Queryable, type: ReportTarget, id: number): Promise<number | null> {
  if (type === "user") return id;
  if (type === "club") return null;
  const table = type === "post" ? posts : comments;
  const row = first(await tx.select({ authorId: table.authorId }).from(table).where(eq(table.id, id)));
  return row?.authorId ?? null;
}

/** Writes one entry; call it inside the decision's transaction. */
export async function logDecision(tx: Queryable, decision: Decision): Promise<void> {
  await tx.insert(moderationLog).values({
    subjectId: await subjectOf(tx, decision.targetType, decision.targetId),
    actorId: decision.actor?.id ?? null,
    actorName: decision.actor?.username ?? decision.actorName ?? SITE_ACTOR,
    action: decision.action,
    targetType: decision.targetType,
    targetId: decision.targetId,
    targetLabel: decision.targetLabel,
    clubId: decision.clubId ?? null,
    reason: decision.reason ?? null,
    createdAt: decision.at ?? new Date(),
  });
}

export const LOG_PAGE_SIZE = 50;

type LogRow = typeof moderationLog.$inferSelect;

export const toLogEntry = (row: LogRow): ModerationLogEntry => ({
  id: row.id,
  actor: row.actorName,
  action: row.action,
  targetType: row.targetType,
  targetId: row.targetId,
  targetLabel: row.targetLabel,
  clubId: row.clubId,
  reason: row.reason,
  createdAt: row.createdAt.toISOString(),
});

/**
 * The log, newest first, in pages: every entry for site staff, the entries of the clubs they staff
 * for club staff; 401 signed out, 403 for anyone else.
 */
export async function moderationLogPage(actor: Actor, cursor?: string | null, limit = LOG_PAGE_SIZE): Promise<ModerationLogPage> {
  const scope = await requireModerationScope(actor);
  const after = decodeKeyset(cursor);
  const where = [
    scope.site ? undefined : inArray(moderationLog.clubId, scope.clubIds),
    after
      ? or(
          lt(moderationLog.createdAt, new Date(after.at)),
          and(eq(moderationLog.createdAt, new Date(after.at)), lt(moderationLog.id, after.id)),
        )
      : undefined,
  ];
  const rows = await db
    .select()
    .from(moderationLog)
    .where(and(...where))
    .orderBy(desc(moderationLog.createdAt), desc(moderationLog.id))
    .limit(limit + 1);
  const { page, nextCursor } = keysetPage(rows, limit, (r) => [r.createdAt, r.id]);
  return {
    entries: page.map(toLogEntry),
    nextCursor,
  };
}

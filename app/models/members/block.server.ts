import { and, desc, eq, lt, notInArray, or, sql, type SQL } from "drizzle-orm";
import { blocks, follows, notifications, users } from "#db/schema";
import { db, decrementCounter, writeTransaction, type Tx } from "~/utils/db.server";
import { decodeKeyset, keysetPage } from "~/utils/keyset";
import { AppError, badRequest } from "~/utils/errors";
import { requireSignedIn } from "~/models/access.server";
import { requireUserRow, type Actor } from "./user.server";

/**
 * Blocks (CONTRACT.md §8 "Blocks"): a member blocks another; the blocker no longer sees the blocked
 * member's posts and comments anywhere, follows between the two end (both ways, counters with them,
 * in the block's transaction), and the blocked member cannot follow the blocker or comment on their
 * posts. Notifications across a block are skipped by notify() itself. Block and unblock are
 * idempotent; the answer is `{ blocked }`.
 */

export type BlockState = { blocked: boolean };

/** One row of a member's block list (Settings › Privacy, `GET /api/auth/blocks`). */
export type BlockEntry = { username: string; displayName: string; avatar: string | null; blockedAt: string };
export type BlockPage = { blocks: BlockEntry[]; nextCursor: string | null };

export const BLOCK_MESSAGES = {
  signIn: "Please sign in to block members",
  self: "You can't block yourself",
  /** The blocked member following the blocker. */
  followBlocker: "You can't follow this member",
  /** The blocker following the member they blocked. */
  followBlocked: "You blocked this member; unblock them to follow",
  comment: "You can't comment on this member's posts",
  /** The blocked member editing an earlier comment on the blocker's post. */
  editComment: "You can't edit comments on this member's posts",
  /** The blocked member asking to join a private club the blocker owns. */
  joinRequest: "You can't ask to join this club",
} as const;

async function requireBlockTarget(actor: Actor, username: string) {
  const me = requireSignedIn(actor, BLOCK_MESSAGES.signIn);
  const target = await requireUserRow(username);
  if (target.id === me.id) throw badRequest(BLOCK_MESSAGES.self);
  return { me, target };
}

/** End the follow `followerId` → `followeeId` if there is one, keeping both counters equal to the rows. */
async function endFollow(tx: Tx, followerId: number, followeeId: number): Promise<void> {
  const removed = await tx
    .delete(follows)
    .where(and(eq(follows.followerId, followerId), eq(follows.followeeId, followeeId)))
    .returning({ id: follows.followerId });
  if (removed.length === 0) return;
  await tx
    .update(users)
    .set({ followersCount: decrementCounter(users.followersCount) })
    .where(eq(users.id, followeeId));
  await tx
    .update(users)
    .set({ followingCount: decrementCounter(users.followingCount) })
    .where(eq(users.id, followerId));
}

/**
 * Block a member (idempotent): one transaction with the block row, the end of follows both ways,
 * and the pair's notifications gone both ways (what the blocked member did, in the blocker's list,
 * and the other way round; security-3 P10).
 */
export function blockMember(actor: Actor, username: string, now = new Date()): Promise<BlockState> {
  return writeTransaction(async (tx) => {
    const { me, target } = await requireBlockTarget(actor, username);
    await tx.insert(blocks).values({ blockerId: me.id, blockedId: target.id, createdAt: now }).onConflictDoNothing();
    await endFollow(tx, me.id, target.id);
    await endFollow(tx, target.id, me.id);
    await tx
      .delete(notifications)
      .where(
        or(
          and(eq(notifications.userId, me.id), eq(notifications.actorId, target.id)),
          and(eq(notifications.userId, target.id), eq(notifications.actorId, me.id)),
        ),
      );
    return { blocked: true };
  });
}

/** Unblock a member (idempotent). Follows that the block ended stay ended. */
export function unblockMember(actor: Actor, username: string): Promise<BlockState> {
  return writeTransaction(async (tx) => {
    const { me, target } = await requireBlockTarget(actor, username);
    await tx.delete(blocks).where(and(eq(blocks.blockerId, me.id), eq(blocks.blockedId, target.id)));
    return { blocked: false };
  });
}

/** Whether `blockerId` blocked `blockedId` (one direction). */
export async function hasBlocked(blockerId: number, blockedId: number, q: Pick<typeof db, "select"> = db): Promise<boolean> {
  const rows = await q
    .select({ one: sql`1` })
    .from(blocks)
    .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)));
  return rows.length > 0;
}

/** Whether either member blocked the other. */
export async function isBlockedEitherWay(aId: number, bId: number, q: Pick<typeof db, "select"> = db): Promise<boolean> {
  const rows = await q
    .select({ one: sql`1` })
    .from(blocks)
    .where(or(and(eq(blocks.blockerId, aId), eq(blocks.blockedId, bId)), and(eq(blocks.blockerId, bId), eq(blocks.blockedId, aId))))
    .limit(1);
  return rows.length > 0;
}

/** 403 with `message` when `blockerId` blocked `actorId` (a blocked member reaching the blocker). */
export async function refuseIfBlockedBy(
  blockerId: number,
  actorId: number,
  message: string,
  q: Pick<typeof db, "select"> = db,
): Promise<void> {
  if (blockerId !== actorId && (await hasBlocked(blockerId, actorId, q))) throw new AppError(403, message, { code: "blocked" });
}

/**
 * Hand-written SQL: the row's author (`authorColumn`, e.g. "p.author_id") is not someone the viewer
 * (`viewer`, a named parameter such as "@viewer"; 0 is nobody, who has no blocks) blocked. A NOT IN
 * over the blocks primary key (blocker_id, blocked_id): a filter on the rows the list's own index
 * reads, so the list's plan stays as it was.
 */
export const notBlockedByViewerSql = (authorColumn: string, viewer = "@viewer"): string =>
  `${authorColumn} NOT IN (SELECT blocked_id FROM blocks WHERE blocker_id = ${viewer})`;

/** SQL: neither `member` nor `other` (columns or named parameters) blocked the other (notifications, CONTRACT.md §7). */
export const notBlockedEitherWaySql = (member: string, other: string): string =>
  `NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = ${member} AND b.blocked_id = ${other})
    OR (b.blocker_id = ${other} AND b.blocked_id = ${member}))`;

/** The same condition for the query builder (nothing for nobody). */
export function notBlockedByViewer(authorColumn: Parameters<typeof notInArray>[0], viewerId: number): SQL | undefined {
  if (!viewerId) return undefined;
  return notInArray(authorColumn, db.select({ id: blocks.blockedId }).from(blocks).where(eq(blocks.blockerId, viewerId)));
}

/** For the query builder: the member in `memberColumn` and the viewer (`viewerId`) blocked neither the other (mention suggestions). */
export function notBlockedEitherWay(memberColumn: Parameters<typeof eq>[0], viewerId: number): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = ${viewerId} AND b.blocked_id = ${memberColumn})
    OR (b.blocker_id = ${memberColumn} AND b.blocked_id = ${viewerId}))`;
}

export const BLOCK_PAGE_SIZE = 50;
const MAX_BLOCK_PAGE = 100;

/** The members `actor` blocked, most recent first, one keyset page (`<blockedAt ms>.<member id>`). */
export async function listBlocks(actor: Actor, options: { cursor?: string | null; limit?: number } = {}): Promise<BlockPage> {
  const me = requireSignedIn(actor, BLOCK_MESSAGES.signIn);
  const size = Math.min(MAX_BLOCK_PAGE, Math.max(1, Math.trunc(options.limit ?? BLOCK_PAGE_SIZE) || BLOCK_PAGE_SIZE));
  const after = decodeKeyset(options.cursor);
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      displayName: users.displayName,
      avatar: users.avatar,
      blockedAt: blocks.createdAt,
    })
    .from(blocks)
    .innerJoin(users, eq(users.id, blocks.blockedId))
    .where(
      and(
        eq(blocks.blockerId, me.id),
        after
          ? or(lt(blocks.createdAt, new Date(after.at)), and(eq(blocks.createdAt, new Date(after.at)), lt(blocks.blockedId, after.id)))
          : undefined,
      ),
    )
    .orderBy(desc(blocks.createdAt), desc(blocks.blockedId))
    .limit(size + 1);
  const { page, nextCursor } = keysetPage(rows, size, (r) => [r.blockedAt, r.id]);
  return {
    blocks: page.map((r) => ({
      username: r.username,
      displayName: r.displayName,
      avatar: r.avatar,
      blockedAt: r.blockedAt.toISOString(),
    })),
    nextCursor,
  };
}

/** Whether the member blocked the viewer: pages then offer no Follow or comment box, and say why (ux-3 U3). */
export async function viewerBlockedBy(actor: Actor, memberId: number): Promise<boolean> {
  if (!actor || actor.id === memberId) return false;
  return hasBlocked(memberId, actor.id);
}

/** Whether the viewer blocked the member (the profile page's Block / Unblock button). */
export async function viewerBlocked(actor: Actor, memberId: number): Promise<boolean> {
  if (!actor || actor.id === memberId) return false;
  return hasBlocked(actor.id, memberId);
}

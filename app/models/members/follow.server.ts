import { and, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import { notify } from "~/models/notifications/notification.server";
import { follows, users } from "#db/schema";
import { db, decrementCounter, writeTransaction } from "~/utils/db.server";
import { decodeKeyset, keysetPage } from "~/utils/keyset";
import { badRequest } from "~/utils/errors";
import { requireSignedIn } from "~/models/access.server";
import { BLOCK_MESSAGES, refuseIfBlockedBy } from "./block.server";
import { requireUserRow, type Actor } from "./user.server";
import type { FollowPage } from "~/schemas/shapes";

/**
 * Following members (CONTRACT.md §2): idempotent follow and unfollow, with the followee's
 * followers_count and the follower's following_count changed in the same transaction as the row,
 * and only when the row actually changed, so the counters always equal the rows.
 */

export type FollowState = { following: boolean; followersCount: number };

async function requireFollowee(actor: Actor, username: string) {
  const me = requireSignedIn(actor, "Please sign in to follow members");
  const target = await requireUserRow(username);
  if (target.id === me.id) throw badRequest("You can't follow yourself");
  return { me, target };
}

async function followersCountOf(tx: Pick<typeof db, "select">, id: number): Promise<number> {
  const [row] = await tx.select({ n: users.followersCount }).from(users).where(eq(users.id, id));
  return row?.n ?? 0;
}

/** Follow a member (idempotent). `now` is when the follow happened (lists are newest first). */
export function followUser(actor: Actor, username: string, now = new Date()): Promise<FollowState> {
  return writeTransaction(async (tx) => {
    const { me, target } = await requireFollowee(actor, username);
    // Neither side of a block follows the other (CONTRACT.md §8 "Blocks").
    await refuseIfBlockedBy(target.id, me.id, BLOCK_MESSAGES.followBlocker, tx);
    await refuseIfBlockedBy(me.id, target.id, BLOCK_MESSAGES.followBlocked, tx);
    const followerId = me.id;
    const inserted = await tx
      .insert(follows)
      .values({ followerId, followeeId: target.id, createdAt: now })
      .onConflictDoNothing()
      .returning({ id: follows.followerId });
    if (inserted.length > 0) {
      await tx
        .update(users)
        .set({ followersCount: sql`${users.followersCount} + 1` })
        .where(eq(users.id, target.id));
      await tx
        .update(users)
        .set({ followingCount: sql`${users.followingCount} + 1` })
        .where(eq(users.id, followerId));
      await notify([target.id], { kind: "follow", actorId: followerId }, tx);
    }
    return { following: true, followersCount: await followersCountOf(tx, target.id) };
  });
}

export function unfollowUser(actor: Actor, username: string): Promise<FollowState> {
  return writeTransaction(async (tx) => {
    const { me, target } = await requireFollowee(actor, username);
    const followerId = me.id;
    const removed = await tx
      .delete(follows)
      .where(and(eq(follows.followerId, followerId), eq(follows.followeeId, target.id)))
      .returning({ id: follows.followerId });
    if (removed.length > 0) {
      await tx
        .update(users)
        .set({ followersCount: decrementCounter(users.followersCount) })
        .where(eq(users.id, target.id));
      await tx
        .update(users)
        .set({ followingCount: decrementCounter(users.followingCount) })
        .where(eq(users.id, followerId));
    }
    return { following: false, followersCount: await followersCountOf(tx, target.id) };
  });
}

export async function isFollowing(followerId: number, followeeId: number): Promise<boolean> {
  const rows = await db
    .select({ one: sql`1` })
    .from(follows)
    .where(and(eq(follows.followerId, followerId), eq(follows.followeeId, followeeId)));
  return rows.length > 0;
}

export const FOLLOW_PAGE_SIZE = 30;
const MAX_FOLLOW_PAGE = 100;

type ListOptions = { cursor?: string | null; limit?: number };

/**
 * Who follows `username`, most recent first. Served by the follows_followee index
 * (followee_id, created_at, follower_id); ties on the same millisecond are ordered by follower id.
 */
export async function listFollowers(actor: Actor, username: string, options: ListOptions = {}): Promise<FollowPage> {
  const target = await requireUserRow(username);
  return listPage(actor, "followers", target.id, options);
}

/** Whom `username` follows, most recent first. Served by the follows_follower index (follower_id, created_at, followee_id). */
export async function listFollowing(actor: Actor, username: string, options: ListOptions = {}): Promise<FollowPage> {
  const target = await requireUserRow(username);
  return listPage(actor, "following", target.id, options);
}

/** The statement of one page of followers or following (exported for the bench's EXPLAIN QUERY PLAN). */
export function followPageQuery(which: "followers" | "following", userId: number, cursor: string | null | undefined, size: number) {
  // Keyset cursor `<followedAt ms>.<member id>`; anything else starts from the top.
  const after = decodeKeyset(cursor);
  // followers: the other member is the follower; following: the followee.
  const anchor = which === "followers" ? follows.followeeId : follows.followerId;
  const other = which === "followers" ? follows.followerId : follows.followeeId;
  return db
    .select({
      id: users.id,
      username: users.username,
      displayName: users.displayName,
      avatar: users.avatar,
      bio: users.bio,
      followedAt: follows.createdAt,
    })
    .from(follows)
    .innerJoin(users, eq(users.id, other))
    .where(
      and(
        eq(anchor, userId),
        after
          ? or(lt(follows.createdAt, new Date(after.at)), and(eq(follows.createdAt, new Date(after.at)), lt(other, after.id)))
          : undefined,
      ),
    )
    .orderBy(desc(follows.createdAt), desc(other))
    .limit(size + 1);
}

async function listPage(
  actor: Actor,
  which: "followers" | "following",
  userId: number,
  { cursor, limit }: ListOptions,
): Promise<FollowPage> {
  const size = Math.min(MAX_FOLLOW_PAGE, Math.max(1, Math.trunc(limit ?? FOLLOW_PAGE_SIZE)));
  const rows = await followPageQuery(which, userId, cursor, size);

  const { page, nextCursor } = keysetPage(rows, size, (r) => [r.followedAt, r.id]);
  const followed = new Set<number>();
  if (actor && page.length) {
    for (const r of await db
      .select({ id: follows.followeeId })
      .from(follows)
      .where(
        and(
          eq(follows.followerId, actor.id),
          inArray(
            follows.followeeId,
            page.map((p) => p.id),
          ),
        ),
      )) {
      followed.add(r.id);
    }
  }
  return {
    users: page.map((r) => ({
      id: r.id,
      username: r.username,
      displayName: r.displayName,
      avatar: r.avatar,
      bio: r.bio,
      followedAt: r.followedAt.toISOString(),
      isFollowing: followed.has(r.id),
    })),
    nextCursor,
  };
}

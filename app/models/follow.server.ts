import { and, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import { follows, users } from "#db/schema";
import { db, decrementCounter, writeTransaction } from "~/utils/db.server";
import { badRequest } from "~/utils/errors";
import { requireSignedIn } from "./access.server";
import { requireUserRow, type Actor } from "./user.server";
import type { FollowPage } from "~/schemas/shapes";

/**
 * Following members (CONTRACT.md §2): idempotent follow and unfollow, with the followee's
 * followers_count and the follower's following_count changed in the same transaction as the row,
 * and only when the row actually changed, so the counters always equal the rows.
 */

export type FollowState = { following: boolean; followersCount: number };

function requireFollowee(actor: Actor, username: string) {
  const me = requireSignedIn(actor, "Please sign in to follow members");
  const target = requireUserRow(username);
  if (target.id === me.id) throw badRequest("You can't follow yourself");
  return { me, target };
}

function followersCountOf(tx: Pick<typeof db, "select">, id: number): number {
  return tx.select({ n: users.followersCount }).from(users).where(eq(users.id, id)).get()?.n ?? 0;
}

/** Follow a member (idempotent). `now` is when the follow happened (lists are newest first). */
export function followUser(actor: Actor, username: string, now = new Date()): FollowState {
  return writeTransaction((tx) => {
    const { me, target } = requireFollowee(actor, username);
    const followerId = me.id;
    const inserted = tx.insert(follows).values({ followerId, followeeId: target.id, createdAt: now }).onConflictDoNothing().run();
    if (inserted.changes > 0) {
      tx.update(users)
        .set({ followersCount: sql`${users.followersCount} + 1` })
        .where(eq(users.id, target.id))
        .run();
      tx.update(users)
        .set({ followingCount: sql`${users.followingCount} + 1` })
        .where(eq(users.id, followerId))
        .run();
    }
    return { following: true, followersCount: followersCountOf(tx, target.id) };
  });
}

export function unfollowUser(actor: Actor, username: string): FollowState {
  return writeTransaction((tx) => {
    const { me, target } = requireFollowee(actor, username);
    const followerId = me.id;
    const removed = tx
      .delete(follows)
      .where(and(eq(follows.followerId, followerId), eq(follows.followeeId, target.id)))
      .run();
    if (removed.changes > 0) {
      tx.update(users)
        .set({ followersCount: decrementCounter(users.followersCount) })
        .where(eq(users.id, target.id))
        .run();
      tx.update(users)
        .set({ followingCount: decrementCounter(users.followingCount) })
        .where(eq(users.id, followerId))
        .run();
    }
    return { following: false, followersCount: followersCountOf(tx, target.id) };
  });
}

export function isFollowing(followerId: number, followeeId: number): boolean {
  return Boolean(
    db
      .select({ one: sql`1` })
      .from(follows)
      .where(and(eq(follows.followerId, followerId), eq(follows.followeeId, followeeId)))
      .get(),
  );
}

export const FOLLOW_PAGE_SIZE = 30;
const MAX_FOLLOW_PAGE = 100;

/** Keyset cursor `<followedAt ms>.<member id>`; anything else starts from the top. */
function decodeCursor(cursor: string | null | undefined): { at: number; id: number } | null {
  const m = /^(\d{1,15})\.(\d{1,15})$/.exec(cursor ?? "");
  return m ? { at: Number(m[1]), id: Number(m[2]) } : null;
}

type ListOptions = { cursor?: string | null; limit?: number };

/**
 * Who follows `username`, most recent first. Served by the follows_followee index
 * (followee_id, created_at, follower_id); ties on the same millisecond are ordered by follower id.
 */
export function listFollowers(actor: Actor, username: string, options: ListOptions = {}): FollowPage {
  const target = requireUserRow(username);
  return listPage(actor, "followers", target.id, options);
}

/** Whom `username` follows, most recent first. Served by the follows_follower index (follower_id, created_at, followee_id). */
export function listFollowing(actor: Actor, username: string, options: ListOptions = {}): FollowPage {
  const target = requireUserRow(username);
  return listPage(actor, "following", target.id, options);
}

/** The statement of one page of followers or following (exported for the bench's EXPLAIN QUERY PLAN). */
export function followPageQuery(which: "followers" | "following", userId: number, cursor: string | null | undefined, size: number) {
  const after = decodeCursor(cursor);
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

function listPage(actor: Actor, which: "followers" | "following", userId: number, { cursor, limit }: ListOptions): FollowPage {
  const size = Math.min(MAX_FOLLOW_PAGE, Math.max(1, Math.trunc(limit ?? FOLLOW_PAGE_SIZE)));
  const rows = followPageQuery(which, userId, cursor, size).all();

  const page = rows.slice(0, size);
  const followed = new Set<number>();
  if (actor && page.length) {
    for (const r of db
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
      )
      .all()) {
      followed.add(r.id);
    }
  }
  const last = page[page.length - 1];
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
    nextCursor: rows.length > size && last ? `${last.followedAt.getTime()}.${last.id}` : null,
  };
}

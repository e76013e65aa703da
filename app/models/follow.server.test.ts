import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { follows, users } from "#db/schema";
import { createMember } from "#tests/fixtures/members";
import { db } from "~/utils/db.server";
import { AppError } from "~/utils/errors";
import { followUser, isFollowing, listFollowers, listFollowing, unfollowUser } from "./follow.server";

const counts = (id: number) =>
  db.select({ followers: users.followersCount, following: users.followingCount }).from(users).where(eq(users.id, id)).get()!;

const rowCount = () => db.select().from(follows).all().length;

function statusOf(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error.status;
    throw error;
  }
  return undefined;
}

describe("follow / unfollow", () => {
  it("follows once, counts once, and unfollows idempotently", async () => {
    const a = await createMember();
    const b = await createMember();
    const before = rowCount();

    expect(followUser({ id: a.id }, b.username)).toEqual({ following: true, followersCount: 1 });
    expect(followUser({ id: a.id }, b.username)).toEqual({ following: true, followersCount: 1 });
    expect(rowCount()).toBe(before + 1);
    expect(counts(b.id)).toEqual({ followers: 1, following: 0 });
    expect(counts(a.id)).toEqual({ followers: 0, following: 1 });
    expect(isFollowing(a.id, b.id)).toBe(true);
    expect(isFollowing(b.id, a.id)).toBe(false);

    expect(unfollowUser({ id: a.id }, b.username)).toEqual({ following: false, followersCount: 0 });
    expect(unfollowUser({ id: a.id }, b.username)).toEqual({ following: false, followersCount: 0 });
    expect(rowCount()).toBe(before);
    expect(counts(b.id)).toEqual({ followers: 0, following: 0 });
    expect(counts(a.id)).toEqual({ followers: 0, following: 0 });
  });

  it("matches usernames regardless of case", async () => {
    const a = await createMember();
    const b = await createMember();
    expect(followUser({ id: a.id }, b.username.toUpperCase()).following).toBe(true);
    expect(isFollowing(a.id, b.id)).toBe(true);
  });

  it("refuses anonymous (401), oneself (400) and unknown members (404), changing nothing", async () => {
    const a = await createMember();
    const before = rowCount();
    expect(statusOf(() => followUser(null, a.username))).toBe(401);
    expect(statusOf(() => unfollowUser(null, a.username))).toBe(401);
    expect(statusOf(() => followUser({ id: a.id }, a.username))).toBe(400);
    expect(statusOf(() => followUser({ id: a.id }, "nobody_here_at_all"))).toBe(404);
    expect(rowCount()).toBe(before);
    expect(counts(a.id)).toEqual({ followers: 0, following: 0 });
  });
});

describe("followers and following lists", () => {
  it("pages newest first with a keyset cursor and says whom the viewer follows", async () => {
    const star = await createMember();
    const fans = [];
    const start = Date.now();
    for (let i = 0; i < 5; i++) {
      const fan = await createMember();
      // Each follow a few milliseconds after the last, on a clock the test sets.
      followUser({ id: fan.id }, star.username, new Date(start + i * 3));
      fans.push(fan);
    }
    const viewer = fans[0]!;
    followUser({ id: viewer.id }, fans[4]!.username);

    const first = listFollowers({ id: viewer.id }, star.username, { limit: 2 });
    expect(first.users.map((u) => u.id)).toEqual([fans[4]!.id, fans[3]!.id]);
    expect(first.users[0]!.isFollowing).toBe(true);
    expect(first.users[1]!.isFollowing).toBe(false);
    expect(first.nextCursor).toBeTruthy();

    const second = listFollowers(null, star.username, { limit: 2, cursor: first.nextCursor });
    expect(second.users.map((u) => u.id)).toEqual([fans[2]!.id, fans[1]!.id]);
    const third = listFollowers(null, star.username, { limit: 2, cursor: second.nextCursor });
    expect(third.users.map((u) => u.id)).toEqual([fans[0]!.id]);
    expect(third.nextCursor).toBeNull();
    // Nothing private leaks into a list entry.
    expect(Object.keys(third.users[0]!).sort()).toEqual(
      ["avatar", "bio", "displayName", "followedAt", "id", "isFollowing", "username"].sort(),
    );

    // Junk cursors start from the top rather than failing.
    expect(listFollowers(null, star.username, { limit: 2, cursor: "garbage" }).users).toHaveLength(2);

    expect(listFollowing(null, viewer.username).users.map((u) => u.id)).toEqual([fans[4]!.id, star.id]);
    expect(listFollowing(null, star.username).users).toEqual([]);
  });

  it("keeps members who followed in the same millisecond apart", async () => {
    const star = await createMember();
    const fans = [await createMember(), await createMember(), await createMember()];
    const at = new Date(1_700_000_000_000);
    for (const fan of fans) {
      db.insert(follows).values({ followerId: fan.id, followeeId: star.id, createdAt: at }).run();
    }
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page = listFollowers(null, star.username, { limit: 1, cursor });
      seen.push(...page.users.map((u) => u.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(fans.map((f) => f.id).sort((x, y) => y - x));
  });

  it("is 404 for an unknown member", () => {
    expect(statusOf(() => listFollowers(null, "nobody_here_at_all"))).toBe(404);
    expect(statusOf(() => listFollowing(null, "nobody_here_at_all"))).toBe(404);
  });
});

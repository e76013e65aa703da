import { eq } from "drizzle-orm";
import { statusOf } from "#tests/fixtures/errors";
import { describe, expect, it } from "vitest";
import { follows, users } from "#db/schema";
import { createMember } from "#tests/fixtures/members";
import { db, first } from "~/utils/db.server";
import { followUser, isFollowing, listFollowers, listFollowing, unfollowUser } from "./follow.server";

const counts = async (id: number) =>
  first(await db.select({ followers: users.followersCount, following: users.followingCount }).from(users).where(eq(users.id, id)))!;

const rowCount = async () => (await db.select().from(follows)).length;

describe("follow / unfollow", () => {
  it("follows once, counts once, and unfollows idempotently", async () => {
    const a = await createMember();
    const b = await createMember();
    const before = await rowCount();

    expect(await followUser({ id: a.id }, b.username)).toEqual({ following: true, followersCount: 1 });
    expect(await followUser({ id: a.id }, b.username)).toEqual({ following: true, followersCount: 1 });
    expect(await rowCount()).toBe(before + 1);
    expect(await counts(b.id)).toEqual({ followers: 1, following: 0 });
    expect(await counts(a.id)).toEqual({ followers: 0, following: 1 });
    expect(await isFollowing(a.id, b.id)).toBe(true);
    expect(await isFollowing(b.id, a.id)).toBe(false);

    expect(await unfollowUser({ id: a.id }, b.username)).toEqual({ following: false, followersCount: 0 });
    expect(await unfollowUser({ id: a.id }, b.username)).toEqual({ following: false, followersCount: 0 });
    expect(await rowCount()).toBe(before);
    expect(await counts(b.id)).toEqual({ followers: 0, following: 0 });
    expect(await counts(a.id)).toEqual({ followers: 0, following: 0 });
  });

  it("matches usernames regardless of case", async () => {
    const a = await createMember();
    const b = await createMember();
    expect((await followUser({ id: a.id }, b.username.toUpperCase())).following).toBe(true);
    expect(await isFollowing(a.id, b.id)).toBe(true);
  });

  it("refuses anonymous (401), oneself (400) and unknown members (404), changing nothing", async () => {
    const a = await createMember();
    const before = await rowCount();
    expect(await statusOf(() => followUser(null, a.username))).toBe(401);
    expect(await statusOf(() => unfollowUser(null, a.username))).toBe(401);
    expect(await statusOf(() => followUser({ id: a.id }, a.username))).toBe(400);
    expect(await statusOf(() => followUser({ id: a.id }, "nobody_here_at_all"))).toBe(404);
    expect(await rowCount()).toBe(before);
    expect(await counts(a.id)).toEqual({ followers: 0, following: 0 });
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
      await followUser({ id: fan.id }, star.username, new Date(start + i * 3));
      fans.push(fan);
    }
    const viewer = fans[0]!;
    await followUser({ id: viewer.id }, fans[4]!.username);

    const first = await listFollowers({ id: viewer.id }, star.username, { limit: 2 });
    expect(first.users.map((u) => u.id)).toEqual([fans[4]!.id, fans[3]!.id]);
    expect(first.users[0]!.isFollowing).toBe(true);
    expect(first.users[1]!.isFollowing).toBe(false);
    expect(first.nextCursor).toBeTruthy();

    const second = await listFollowers(null, star.username, { limit: 2, cursor: first.nextCursor });
    expect(second.users.map((u) => u.id)).toEqual([fans[2]!.id, fans[1]!.id]);
    const third = await listFollowers(null, star.username, { limit: 2, cursor: second.nextCursor });
    expect(third.users.map((u) => u.id)).toEqual([fans[0]!.id]);
    expect(third.nextCursor).toBeNull();
    // Nothing private leaks into a list entry.
    expect(Object.keys(third.users[0]!).sort()).toEqual(
      ["avatar", "bio", "displayName", "followedAt", "id", "isFollowing", "username"].sort(),
    );

    // Junk cursors start from the top rather than failing.
    expect((await listFollowers(null, star.username, { limit: 2, cursor: "garbage" })).users).toHaveLength(2);

    expect((await listFollowing(null, viewer.username)).users.map((u) => u.id)).toEqual([fans[4]!.id, star.id]);
    expect((await listFollowing(null, star.username)).users).toEqual([]);
  });

  it("keeps members who followed in the same millisecond apart", async () => {
    const star = await createMember();
    const fans = [await createMember(), await createMember(), await createMember()];
    const at = new Date(1_700_000_000_000);
    for (const fan of fans) {
      await db.insert(follows).values({ followerId: fan.id, followeeId: star.id, createdAt: at });
    }
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await listFollowers(null, star.username, { limit: 1, cursor });
      seen.push(...page.users.map((u) => u.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(fans.map((f) => f.id).sort((x, y) => y - x));
  });

  it("is 404 for an unknown member", async () => {
    expect(await statusOf(() => listFollowers(null, "nobody_here_at_all"))).toBe(404);
    expect(await statusOf(() => listFollowing(null, "nobody_here_at_all"))).toBe(404);
  });
});

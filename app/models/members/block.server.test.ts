import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { blocks, comments, follows, joinRequests, notifications, users } from "#db/schema";
import { createMember } from "#tests/fixtures/members";
import { failure, makeClub, addMember, postInput } from "#tests/fixtures/posts";
import { db, first } from "~/utils/db.server";
import { BLOCK_MESSAGES, blockMember, isBlockedEitherWay, listBlocks, unblockMember, viewerBlocked } from "./block.server";
import { joinClub } from "~/models/clubs/club-membership.server";
import { addComment, listCommentPage, listComments, updateComment } from "~/models/posts/comment.server";
import { listFeed } from "~/models/feeds/feed.server";
import { followUser, isFollowing } from "./follow.server";
import { createPost } from "~/models/posts/post.server";

const counts = async (id: number) =>
  first(await db.select({ followers: users.followersCount, following: users.followingCount }).from(users).where(eq(users.id, id)))!;
const blockRows = async () => (await db.select().from(blocks)).length;
const followRows = async () => (await db.select().from(follows)).length;

describe("block / unblock", () => {
  it("blocks once, unblocks idempotently and lists newest first with a cursor", async () => {
    const me = await createMember();
    const a = await createMember();
    const b = await createMember();
    const before = await blockRows();
    const start = Date.now();

    expect(await blockMember({ id: me.id }, a.username, new Date(start))).toEqual({ blocked: true });
    expect(await blockMember({ id: me.id }, a.username, new Date(start + 5))).toEqual({ blocked: true });
    expect(await blockMember({ id: me.id }, b.username.toUpperCase(), new Date(start + 10))).toEqual({ blocked: true });
    expect(await blockRows()).toBe(before + 2);
    expect(await isBlockedEitherWay(me.id, a.id)).toBe(true);
    expect(await isBlockedEitherWay(a.id, me.id)).toBe(true);
    expect(await isBlockedEitherWay(a.id, b.id)).toBe(false);
    expect(await viewerBlocked({ id: me.id }, a.id)).toBe(true);
    expect(await viewerBlocked({ id: a.id }, me.id)).toBe(false);
    expect(await viewerBlocked(null, a.id)).toBe(false);

    const page1 = await listBlocks({ id: me.id }, { limit: 1 });
    expect(page1.blocks.map((x) => x.username)).toEqual([b.username]);
    expect(page1.blocks[0]).toMatchObject({ displayName: b.displayName, avatar: null, blockedAt: new Date(start + 10).toISOString() });
    expect(page1.nextCursor).not.toBeNull();
    const page2 = await listBlocks({ id: me.id }, { limit: 1, cursor: page1.nextCursor });
    expect(page2.blocks.map((x) => x.username)).toEqual([a.username]);
    expect(page2.nextCursor).toBeNull();
    // Another member's list is their own.
    expect((await listBlocks({ id: a.id })).blocks).toEqual([]);

    expect(await unblockMember({ id: me.id }, a.username)).toEqual({ blocked: false });
    expect(await unblockMember({ id: me.id }, a.username)).toEqual({ blocked: false });
    expect(await isBlockedEitherWay(me.id, a.id)).toBe(false);
    expect((await listBlocks({ id: me.id })).blocks.map((x) => x.username)).toEqual([b.username]);
  });

  it("refuses anonymous (401), oneself (400) and unknown members (404), changing nothing", async () => {
    const a = await createMember();
    const before = await blockRows();
    expect((await failure(() => blockMember(null, a.username))).status).toBe(401);
    expect((await failure(() => unblockMember(null, a.username))).status).toBe(401);
    expect((await failure(() => listBlocks(null))).status).toBe(401);
    const self = await failure(() => blockMember({ id: a.id }, a.username));
    expect(self.status).toBe(400);
    expect(self.message).toBe(BLOCK_MESSAGES.self);
    expect((await failure(() => blockMember({ id: a.id }, "nobody_here_at_all"))).status).toBe(404);
    expect((await failure(() => unblockMember({ id: a.id }, "nobody_here_at_all"))).status).toBe(404);
    expect(await blockRows()).toBe(before);
  });

  it("ends follows both ways in the same step, counters equal to the rows", async () => {
    const me = await createMember();
    const other = await createMember();
    const bystander = await createMember();
    await followUser({ id: me.id }, other.username);
    await followUser({ id: other.id }, me.username);
    await followUser({ id: bystander.id }, other.username);
    const before = await followRows();

    await blockMember({ id: me.id }, other.username);
    expect(await isFollowing(me.id, other.id)).toBe(false);
    expect(await isFollowing(other.id, me.id)).toBe(false);
    expect(await isFollowing(bystander.id, other.id)).toBe(true);
    expect(await followRows()).toBe(before - 2);
    expect(await counts(me.id)).toEqual({ followers: 0, following: 0 });
    expect(await counts(other.id)).toEqual({ followers: 1, following: 0 });
    // Blocking again changes no counter.
    await blockMember({ id: me.id }, other.username);
    expect(await counts(other.id)).toEqual({ followers: 1, following: 0 });
  });
});

describe("what a block does (CONTRACT.md §8)", () => {
  it("the blocked member cannot follow the blocker (403), nor the blocker them until unblocking", async () => {
    const blocker = await createMember();
    const blocked = await createMember();
    await blockMember({ id: blocker.id }, blocked.username);

    const refused = await failure(() => followUser({ id: blocked.id }, blocker.username));
    expect(refused.status).toBe(403);
    expect(refused.message).toBe(BLOCK_MESSAGES.followBlocker);
    const own = await failure(() => followUser({ id: blocker.id }, blocked.username));
    expect(own.status).toBe(403);
    expect(own.message).toBe(BLOCK_MESSAGES.followBlocked);
    expect(await counts(blocker.id)).toEqual({ followers: 0, following: 0 });
    expect(await counts(blocked.id)).toEqual({ followers: 0, following: 0 });

    await unblockMember({ id: blocker.id }, blocked.username);
    expect((await followUser({ id: blocked.id }, blocker.username)).following).toBe(true);
  });

  it("the blocked member cannot comment on the blocker's posts (403); others still can", async () => {
    const blocker = await createMember();
    const blocked = await createMember();
    const other = await createMember();
    const post = await createPost({ id: blocker.id }, postInput());
    await blockMember({ id: blocker.id }, blocked.username);

    const refused = await failure(() => addComment({ id: blocked.id }, post.id, { content: "Let me in" }));
    expect(refused.status).toBe(403);
    expect(refused.message).toBe(BLOCK_MESSAGES.comment);
    expect(await listComments({ id: blocker.id }, post.id)).toEqual([]);
    await addComment({ id: other.id }, post.id, { content: "Nice rubs" });
    // The blocker may still comment on the blocked member's posts (nothing in §8 stops that).
    const theirs = await createPost({ id: blocked.id }, postInput());
    await addComment({ id: blocker.id }, theirs.id, { content: "Noted" });
  });

  it("ends the pair's notifications both ways, the blocked member's comment edits on the blocker's posts and join requests to their private clubs (security-3 P10)", async () => {
    const blocker = await createMember();
    const blocked = await createMember();
    const other = await createMember();
    const post = await createPost({ id: blocker.id }, postInput());
    const theirs = await createPost({ id: blocked.id }, postInput());
    await followUser({ id: blocked.id }, blocker.username);
    await followUser({ id: blocker.id }, blocked.username);
    await followUser({ id: other.id }, blocker.username);
    const comment = await addComment({ id: blocked.id }, post.id, { content: "Big rack" });
    await addComment({ id: blocker.id }, theirs.id, { content: "Thanks" });
    const club = await makeClub(blocker.id, { isPrivate: true });
    const pairNotes = async () =>
      (await db.select().from(notifications)).filter(
        (n) => (n.userId === blocker.id && n.actorId === blocked.id) || (n.userId === blocked.id && n.actorId === blocker.id),
      ).length;
    expect(await pairNotes()).toBeGreaterThanOrEqual(3);

    await blockMember({ id: blocker.id }, blocked.username);
    expect(await pairNotes()).toBe(0);
    // Others' notifications stay.
    expect((await db.select().from(notifications).where(eq(notifications.actorId, other.id))).length).toBe(1);

    const edit = await failure(() => updateComment({ id: blocked.id }, comment.id, { content: "Big rack @" + blocker.username }));
    expect(edit).toMatchObject({ status: 403, message: BLOCK_MESSAGES.editComment });
    expect(first(await db.select({ content: comments.content }).from(comments).where(eq(comments.id, comment.id)))?.content).toBe(
      "Big rack",
    );

    const asked = await failure(() => joinClub({ id: blocked.id }, club));
    expect(asked).toMatchObject({ status: 403, message: BLOCK_MESSAGES.joinRequest });
    expect(await db.select().from(joinRequests).where(eq(joinRequests.clubId, club))).toEqual([]);
    // Another member still asks.
    expect(await joinClub({ id: other.id }, club)).toEqual({ status: "pending" });
  });

  it("the blocker no longer sees the blocked member's posts in the home, following, search, hashtag, profile and club lists", async () => {
    const blocker = await createMember();
    const blocked = await createMember();
    const tag = `blocktag${Date.now().toString(36)}`;
    const club = await makeClub(blocked.id);
    await addMember(club, blocker.id);
    const home = await createPost({ id: blocked.id }, postInput({ title: `Blocked words ${tag}`, tags: [tag] }));
    const inClub = await createPost({ id: blocked.id }, postInput({ title: `Club words ${tag}`, clubId: club }));
    await followUser({ id: blocker.id }, blocked.username);

    const ids = async (actor: { id: number } | null, query: Parameters<typeof listFeed>[1]) =>
      (await listFeed(actor, { limit: 50, ...query })).posts.map((p) => p.id);
    const lists = async (actor: { id: number } | null) => ({
      home: (await ids(actor, {})).includes(home.id),
      search: (await ids(actor, { search: tag })).includes(home.id),
      hashtag: (await ids(actor, { search: `#${tag}` })).includes(home.id),
      profile: (await ids(actor, { authorId: blocked.id })).includes(home.id),
      club: (await ids(actor, { clubId: club })).includes(inClub.id),
    });
    const all = { home: true, search: true, hashtag: true, profile: true, club: true };
    expect(await lists({ id: blocker.id })).toEqual(all);
    expect(await ids({ id: blocker.id }, { following: true })).toContain(home.id);

    await blockMember({ id: blocker.id }, blocked.username);
    expect(await lists({ id: blocker.id })).toEqual({ home: false, search: false, hashtag: false, profile: false, club: false });
    // Everyone else, and the blocked member, still see them.
    expect(await lists(null)).toEqual(all);
    expect(await lists({ id: blocked.id })).toEqual(all);

    await unblockMember({ id: blocker.id }, blocked.username);
    expect(await lists({ id: blocker.id })).toEqual(all);
  });

  it("the blocker no longer sees the blocked member's comments on any post", async () => {
    const blocker = await createMember();
    const blocked = await createMember();
    const author = await createMember();
    const post = await createPost({ id: author.id }, postInput());
    const theirs = await addComment({ id: blocked.id }, post.id, { content: "From the blocked member" });
    const mine = await addComment({ id: author.id }, post.id, { content: "From the author" });
    await blockMember({ id: blocker.id }, blocked.username);

    expect((await listComments({ id: blocker.id }, post.id)).map((c) => c.id)).toEqual([mine.id]);
    expect((await listCommentPage({ id: blocker.id }, post.id)).comments.map((c) => c.id)).toEqual([mine.id]);
    expect((await listComments({ id: author.id }, post.id)).map((c) => c.id)).toEqual([theirs.id, mine.id]);
    expect((await listComments(null, post.id)).map((c) => c.id)).toEqual([theirs.id, mine.id]);
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { blocks, notificationActs, notificationFanouts, notifications } from "#db/schema";
import { inviteSchema } from "~/schemas/club";
import { db } from "~/utils/db.server";
import { createMember } from "#tests/fixtures/members";
import { addMember, makeClub, postInput } from "#tests/fixtures/posts";
import { createStaff, setClubRole } from "#tests/fixtures/moderation";
import { addComment } from "~/models/posts/comment.server";
import { decideJoinRequest, joinClub, leaveClub, listJoinRequests, removeClubMember } from "~/models/clubs/club-membership.server";
import { followUser, unfollowUser } from "~/models/members/follow.server";
import { acceptInvite, createInvite } from "~/models/clubs/invite.server";
import { removeContent, restoreContent } from "~/models/moderation/moderation-removal.server";
import { drainFanouts, FANOUT_BATCH, fanoutQueue, pendingFanouts, runFanoutBatch } from "./notification-fanout.server";
import { backoffMs, MAX_ATTEMPTS } from "~/utils/jobs.server";
import { notificationSettingsOf, updateNotificationSettings } from "./notification-settings.server";
import {
  ACT_MEMORY_MS,
  listNotifications,
  markRead,
  notificationItems,
  notify,
  pruneNotificationActs,
  UNREAD_CAP,
  unreadCount,
  unreadForDigest,
} from "./notification.server";
import { createPost, likePost, unlikePost, updatePost } from "~/models/posts/post.server";

/** CONTRACT.md §7's table: each event as the recipient, the actor and a bystander. */

const texts = async (member: { id: number }) => (await listNotifications(member)).items.map((i) => i.text);
const kinds = async (member: { id: number }) => (await listNotifications(member)).items.map((i) => i.kind);

async function trio() {
  return { author: await createMember(), actor: await createMember(), bystander: await createMember() };
}

describe("who hears of what", () => {
  it("a comment tells the post's author, with a link to the comment; not the commenter, not a bystander", async () => {
    const { author, actor, bystander } = await trio();
    const post = await createPost(author, postInput({ title: "Rut report" }));
    const comment = await addComment(actor, post.id, { content: "Nice buck" });
    const [item] = (await listNotifications(author)).items;
    expect(item).toMatchObject({
      kind: "comment",
      read: false,
      text: `${actor.displayName} commented on “Rut report”`,
      commentId: comment.id,
    });
    expect(item!.href).toBe(`/post/${post.id}#comment-${comment.id}`);
    expect(item!.actors).toEqual([{ username: actor.username, displayName: actor.displayName, avatar: null }]);
    expect(await kinds(actor)).toEqual([]);
    expect(await kinds(bystander)).toEqual([]);
    // The author commenting on their own post hears nothing.
    await addComment(author, post.id, { content: "Thanks" });
    expect(await unreadCount(author.id)).toBe(1);
  });

  it("likes group per post while unread, and start a new row once read", async () => {
    const { author, actor, bystander } = await trio();
    const other = await createMember({ displayName: "Second Liker" });
    const post = await createPost(author, postInput({ title: "Big eight" }));
    await likePost(actor, post.id);
    await likePost(actor, post.id); // idempotent: no second notification
    await likePost(other, post.id);
    await likePost(author, post.id); // their own like: nothing
    const items = (await listNotifications(author)).items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: "like", actorCount: 2, text: "Second Liker and 1 other liked “Big eight”" });
    expect(await kinds(actor)).toEqual([]);
    expect(await kinds(bystander)).toEqual([]);
    await markRead(author);
    await likePost(bystander, post.id);
    expect((await listNotifications(author)).items.map((i) => [i.kind, i.actorCount, i.read])).toEqual([
      ["like", 1, false],
      ["like", 2, true],
    ]);
  });

  it("a follow tells the member followed", async () => {
    const { author, actor, bystander } = await trio();
    await followUser(actor, author.username);
    await followUser(actor, author.username);
    expect(await texts(author)).toEqual([`${actor.displayName} started following you`]);
    expect((await listNotifications(author)).items[0]!.href).toBe(`/profile/${actor.username}`);
    expect(await kinds(actor)).toEqual([]);
    expect(await kinds(bystander)).toEqual([]);
  });

  it("a join request tells the owner and admins; the answer tells the requester", async () => {
    const { author: owner, actor: requester, bystander } = await trio();
    const admin = await createMember();
    const clubId = await makeClub(owner.id, { isPrivate: true, name: "Ridge Club" });
    await addMember(clubId, admin.id);
    await addMember(clubId, bystander.id);
    await setClubRole(clubId, admin.id, "admin");
    await joinClub(requester, clubId);
    expect(await texts(owner)).toEqual([`${requester.displayName} asked to join Ridge Club`]);
    expect(await texts(admin)).toEqual([`${requester.displayName} asked to join Ridge Club`]);
    expect(await kinds(bystander)).toEqual([]);
    expect(await kinds(requester)).toEqual([]);
    const [request] = await listJoinRequests(owner, clubId);
    await decideJoinRequest(admin, clubId, request!.id, "approve");
    expect(await texts(requester)).toEqual(["Your request to join Ridge Club was approved"]);
    expect(await kinds(admin)).toEqual(["join_request"]);
  });

  it("a rejection tells the requester", async () => {
    const { author: owner, actor: requester } = await trio();
    const clubId = await makeClub(owner.id, { isPrivate: true, name: "Closed Camp" });
    await joinClub(requester, clubId);
    const [request] = await listJoinRequests(owner, clubId);
    await decideJoinRequest(owner, clubId, request!.id, "reject");
    expect(await texts(requester)).toEqual(["Your request to join Closed Camp was declined"]);
  });

  it("someone joining through an invite tells the invite's maker", async () => {
    const { author: owner, actor: joiner, bystander } = await trio();
    const clubId = await makeClub(owner.id, { isPrivate: true, name: "Invite Camp" });
    await addMember(clubId, bystander.id);
    const invite = await createInvite(owner, clubId, inviteSchema.parse({}));
    await acceptInvite(joiner, invite.inviteCode);
    expect(await texts(owner)).toEqual([`${joiner.displayName} joined Invite Camp through your invite`]);
    expect(await kinds(bystander)).toEqual([]);
    expect(await kinds(joiner)).toEqual([]);
  });

  it("a removal tells the author the reason without naming the moderator, and takes the post's other notifications along", async () => {
    const { author, actor } = await trio();
    const moderator = await createStaff("moderator");
    const post = await createPost(author, postInput({ title: "Spammy" }));
    await likePost(actor, post.id);
    await removeContent(moderator, { type: "post", id: post.id }, "Selling gear is not allowed");
    const items = (await listNotifications(author)).items;
    expect(items.map((i) => i.text)).toEqual(["Your post “Spammy” was removed: Selling gear is not allowed"]);
    expect(items[0]).toMatchObject({ kind: "moderation", actors: [], detail: "removed", reason: "Selling gear is not allowed" });
    expect(await kinds(moderator)).toEqual([]);
    await restoreContent(moderator, { type: "post", id: post.id });
    expect(await texts(author)).toEqual(["Your post “Spammy” was restored", "Your post “Spammy” was removed: Selling gear is not allowed"]);
  });

  it("a comment removed under a post already removed still tells the comment's author (CONTRACT §8: the author is notified)", async () => {
    const { author, actor: commenter } = await trio();
    const moderator = await createStaff("moderator");
    const post = await createPost(author, postInput({ title: "Gone Post" }));
    const comment = await addComment(commenter, post.id, { content: "Cheap scopes, DM me" });
    await removeContent(moderator, { type: "post", id: post.id }, "Off topic");
    await removeContent(moderator, { type: "comment", id: comment.id }, "Selling gear is not allowed");
    // The same notice made before the post was removed is listed (READABLE_POST); so is this one.
    expect(await texts(commenter)).toEqual(["Your comment on “Gone Post” was removed: Selling gear is not allowed"]);
  });
});

describe("never", () => {
  it("across a block, either way", async () => {
    const { author, actor } = await trio();
    const post = await createPost(author, postInput());
    await db.insert(blocks).values({ blockerId: author.id, blockedId: actor.id });
    expect(await notify([author.id], { kind: "like", actorId: actor.id, postId: post.id })).toBe(0);
    await db.delete(blocks).where(eq(blocks.blockerId, author.id));
    await db.insert(blocks).values({ blockerId: actor.id, blockedId: author.id });
    expect(await notify([author.id], { kind: "follow", actorId: actor.id })).toBe(0);
    expect(await kinds(author)).toEqual([]);
  });

  it("about a private club's post to someone outside it", async () => {
    const { author: owner, actor, bystander: outsider } = await trio();
    const clubId = await makeClub(owner.id, { isPrivate: true });
    await addMember(clubId, actor.id);
    const post = await createPost(actor, postInput({ clubId }));
    expect(await notify([outsider.id, owner.id], { kind: "mention", actorId: actor.id, postId: post.id })).toBe(1);
    expect(await kinds(outsider)).toEqual([]);
    expect(await kinds(owner)).toEqual(["mention"]);
  });

  it("of a kind the member turned off, or to the actor", async () => {
    const { author, actor } = await trio();
    await updateNotificationSettings(author, { inApp: { follow: false }, email: "off", push: false, clubPosts: [] });
    await followUser(actor, author.username);
    expect(await kinds(author)).toEqual([]);
    expect(await notify([actor.id], { kind: "follow", actorId: actor.id })).toBe(0);
  });
});

describe("one notification per member per event, the mention first (ux-3 U5)", () => {
  it("a comment that mentions the post's author tells them once, as a mention; a mention they turned off leaves the comment's", async () => {
    const { author, actor, bystander } = await trio();
    const post = await createPost(author, postInput({ title: "Scrape line" }));
    const comment = await addComment(actor, post.id, { content: `@${author.username} what did the camera show? @${bystander.username}` });
    expect((await listNotifications(author)).items).toMatchObject([{ kind: "mention", commentId: comment.id }]);
    expect(await kinds(bystander)).toEqual(["mention"]);

    await updateNotificationSettings(author, { inApp: { mention: false }, email: "daily", push: false, clubPosts: [] });
    await addComment(actor, post.id, { content: `@${author.username} and the second card?` });
    expect(await kinds(author)).toEqual(["comment", "mention"]);
  });

  it("a club post that mentions a member who hears of the club's posts tells them once, as a mention", async () => {
    const { author: owner, actor: poster, bystander: listener } = await trio();
    const clubId = await makeClub(owner.id, { name: "Oak Flats" });
    const other = await createMember();
    for (const member of [poster, listener, other]) await addMember(clubId, member.id);
    for (const member of [listener, other]) {
      await updateNotificationSettings(member, { inApp: {}, email: "daily", push: false, clubPosts: [clubId] });
    }
    await createPost(poster, postInput({ clubId, title: "Stand 4", content: `@${listener.username} your stand is free this weekend.` }));
    await drainFanouts();
    expect(await kinds(listener)).toEqual(["mention"]);
    expect(await kinds(other)).toEqual(["club_post"]);
  });
});

describe("club posts", () => {
  it("reach the members who turned them on for that club, off the request, once, through batches", async () => {
    const { author: owner, actor: poster } = await trio();
    const clubId = await makeClub(owner.id, { name: "Swamp Bucks" });
    await addMember(clubId, poster.id);
    const listeners = [];
    for (let i = 0; i < 3; i++) {
      const member = await createMember();
      await addMember(clubId, member.id);
      await updateNotificationSettings(member, { inApp: {}, email: "daily", push: false, clubPosts: [clubId] });
      listeners.push(member);
    }
    const quiet = await createMember();
    await addMember(clubId, quiet.id);
    await updateNotificationSettings(poster, { inApp: {}, email: "daily", push: false, clubPosts: [clubId] });
    expect((await notificationSettingsOf(listeners[0]!.id)).inApp.club_post).toBe(true);
    expect((await notificationSettingsOf(quiet.id)).inApp.club_post).toBe(false);

    const post = await createPost(poster, postInput({ clubId, title: "Opening day" }));
    await drainFanouts();
    for (const member of listeners) expect(await texts(member)).toEqual([`${poster.displayName} posted “Opening day” in Swamp Bucks`]);
    expect(await kinds(quiet)).toEqual([]);
    expect(await kinds(poster)).toEqual([]);
    expect(await kinds(owner)).toEqual([]);
    expect(await pendingFanouts()).toBe(0);
    // A second drain (a restart's) tells nobody twice.
    await drainFanouts();
    expect(await db.select().from(notifications).where(eq(notifications.postId, post.id))).toHaveLength(3);
  });

  it("go on from the last whole batch: a batch's rows and the cursor commit together", async () => {
    const { author: owner, actor: poster } = await trio();
    const clubId = await makeClub(owner.id);
    const members = [];
    for (let i = 0; i < 5; i++) {
      const member = await createMember();
      await addMember(clubId, member.id);
      await updateNotificationSettings(member, { inApp: {}, email: "off", push: false, clubPosts: [clubId] });
      members.push(member);
    }
    await addMember(clubId, poster.id);
    await createPost(poster, postInput({ clubId }));
    // The nudge may already have run; either way, batches of 2 end with each member told once.
    while (await runFanoutBatch(2));
    for (const member of members) expect(await kinds(member)).toEqual(["club_post"]);
    expect(FANOUT_BATCH).toBeGreaterThan(2);
  });
});

describe("a club post's fan-out that fails (ADR 0069)", () => {
  it("is tried again after its backoff while the fan-outs behind it go on, and given up after its attempts", async () => {
    const { author: owner, actor: poster } = await trio();
    const clubId = await makeClub(owner.id, { name: "Creek Bottom" });
    await addMember(clubId, poster.id);
    const first = await createPost(poster, postInput({ clubId, title: "First sit" }));
    const second = await createPost(poster, postInput({ clubId, title: "Second sit" }));
    const third = await createPost(poster, postInput({ clubId, title: "Third sit" }));
    await drainFanouts();
    const listener = await createMember();
    await addMember(clubId, listener.id);
    await updateNotificationSettings(listener, { inApp: {}, email: "off", push: false, clubPosts: [clubId] });
    const [a, b] = await db
      .insert(notificationFanouts)
      .values([first, second].map((post) => ({ postId: post.id, clubId, actorId: poster.id })))
      .returning();
    const failing = async () => {
      throw new Error("the database refused");
    };
    const row = async (id: number) => (await db.select().from(notificationFanouts).where(eq(notificationFanouts.id, id)))[0]!;
    const now = Date.now();

    // The first fails: counted, and not due for a minute; the one behind it goes on.
    expect(await runFanoutBatch(FANOUT_BATCH, { now: new Date(now), tell: failing })).toBe(true);
    expect(await row(a!.id)).toMatchObject({ attempts: 1, doneAt: null, failedAt: null });
    expect(await runFanoutBatch(FANOUT_BATCH, { now: new Date(now) })).toBe(true);
    expect(await texts(listener)).toEqual([`${poster.displayName} posted “Second sit” in Creek Bottom`]);
    expect((await row(b!.id)).doneAt).not.toBeNull();
    expect(await runFanoutBatch(FANOUT_BATCH, { now: new Date(now) })).toBe(false);
    expect((await fanoutQueue(new Date(now))).retrying).toBeGreaterThanOrEqual(1);
    // Once due again it goes through.
    expect(await runFanoutBatch(FANOUT_BATCH, { now: new Date(now + backoffMs(1) + 1000) })).toBe(true);
    expect((await texts(listener)).sort()).toEqual(
      [`${poster.displayName} posted “First sit” in Creek Bottom`, `${poster.displayName} posted “Second sit” in Creek Bottom`].sort(),
    );

    // One that keeps failing is given up after MAX_ATTEMPTS, counted, and never tried again.
    const failedBefore = (await fanoutQueue()).failed;
    const [c] = await db.insert(notificationFanouts).values({ postId: third.id, clubId, actorId: poster.id }).returning();
    let at = now;
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await runFanoutBatch(FANOUT_BATCH, { now: new Date(at), tell: failing });
      at += backoffMs(i + 1) + 1000;
    }
    expect(await row(c!.id)).toMatchObject({ attempts: MAX_ATTEMPTS });
    expect((await row(c!.id)).failedAt).not.toBeNull();
    expect((await fanoutQueue()).failed).toBe(failedBefore + 1);
    expect(await runFanoutBatch(FANOUT_BATCH, { now: new Date(at + 24 * 3600_000) })).toBe(false);
    expect(await texts(listener)).toHaveLength(2);
  });
});

describe("the list and the count", () => {
  it("pages newest first, counts up to the cap, and marks read only the member's own", async () => {
    const { author, actor, bystander } = await trio();
    // Each a new act (a join request is never folded: a request after a refusal is a new one).
    const clubId = await makeClub(actor.id);
    for (let i = 0; i < 35; i++) await notify([author.id], { kind: "join_request", actorId: actor.id, clubId });
    const first = await listNotifications(author);
    expect(first.items).toHaveLength(30);
    expect(first.unread).toBe(35);
    const second = await listNotifications(author, { cursor: first.nextCursor });
    expect(second.items).toHaveLength(5);
    expect(second.nextCursor).toBeNull();
    expect(first.items[0]!.id).toBeGreaterThan(second.items[0]!.id);

    await markRead(bystander, [first.items[0]!.id]);
    expect(await unreadCount(author.id)).toBe(35);
    await markRead(author, [first.items[0]!.id, first.items[1]!.id]);
    expect(await unreadCount(author.id)).toBe(33);
    await markRead(author);
    expect(await unreadCount(author.id)).toBe(0);

    for (let i = 0; i < UNREAD_CAP + 5; i++) await notify([bystander.id], { kind: "join_request", actorId: actor.id, clubId });
    expect(await unreadCount(bystander.id)).toBe(UNREAD_CAP);
  });
});

const edit = (title: string, content: string) => ({ title, content, mediaUrl: null, tags: null });

describe("no floods (CONTRACT.md §11, security-3 P5, P8)", () => {
  it("follow, unfollow, follow again within a day tells the member once", async () => {
    const { author, actor } = await trio();
    for (let i = 0; i < 10; i++) {
      await followUser(actor, author.username);
      await unfollowUser(actor, author.username);
    }
    await followUser(actor, author.username);
    expect(await kinds(author)).toEqual(["follow"]);
    expect(await unreadCount(author.id)).toBe(1);
  });

  it("like, unlike, like again counts the liker once and tells nobody again, read or not", async () => {
    const { author, actor } = await trio();
    const second = await createMember({ displayName: "Other Hunter" });
    const post = await createPost(author, postInput({ title: "Toggled" }));
    for (let i = 0; i < 25; i++) {
      await likePost(actor, post.id);
      await unlikePost(actor, post.id);
    }
    await likePost(second, post.id);
    await likePost(actor, post.id);
    const items = (await listNotifications(author)).items;
    expect(items.map((i) => [i.kind, i.actorCount])).toEqual([["like", 2]]);
    expect(items[0]!.text).toBe("Other Hunter and 1 other liked “Toggled”");
    // Read, then the same liker toggles again: no new row (a new row would be mailed and pushed).
    await markRead(author);
    await unlikePost(actor, post.id);
    await likePost(actor, post.id);
    expect(await unreadCount(author.id)).toBe(0);
  });

  it("a mention removed and added again by edits tells the member once", async () => {
    const { author, actor: named } = await trio();
    const post = await createPost(
      author,
      postInput({ title: "Opening morning", content: `Opening morning with @${named.username} on the ridge.` }),
    );
    for (let i = 0; i < 6; i++) {
      await updatePost(author, post.id, edit("Opening morning", "Opening morning on the ridge, alone this year."));
      await updatePost(author, post.id, edit("Opening morning", `Opening morning with @${named.username} on the ridge.`));
    }
    expect(await kinds(named)).toEqual(["mention"]);
  });

  it("after a day the act may be told again, and the memory of it is pruned", async () => {
    const { author, actor } = await trio();
    await followUser(actor, author.username);
    await unfollowUser(actor, author.username);
    // A day and a minute on: the same act is news again.
    const dayAgo = new Date(Date.now() - ACT_MEMORY_MS - 60_000);
    await db.update(notificationActs).set({ toldAt: dayAgo }).where(eq(notificationActs.userId, author.id));
    await followUser(actor, author.username);
    expect(await kinds(author)).toEqual(["follow", "follow"]);
    await db.update(notificationActs).set({ toldAt: dayAgo }).where(eq(notificationActs.userId, author.id));
    expect(await pruneNotificationActs()).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(notificationActs).where(eq(notificationActs.userId, author.id))).toEqual([]);
  });
});

describe("only what the recipient may still read (CONTRACT.md §11, security-3 P4)", () => {
  it("a member who left or was removed from a private club sees none of its titles: list, count, digest, mail and push", async () => {
    const owner = await createMember();
    const leaver = await createMember();
    const removed = await createMember();
    const clubId = await makeClub(owner.id, { isPrivate: true });
    await addMember(clubId, leaver.id);
    await addMember(clubId, removed.id);
    const post = await createPost(
      owner,
      postInput({ clubId, title: "Stand map", content: `Stands for @${leaver.username} and @${removed.username}.` }),
    );
    for (const member of [leaver, removed]) expect(await kinds(member)).toEqual(["mention"]);
    const ids = (await db.select({ id: notifications.id }).from(notifications).where(eq(notifications.postId, post.id))).map((r) => r.id);

    await leaveClub(leaver, clubId);
    await removeClubMember(owner, clubId, removed.username);
    await updatePost(owner, post.id, edit("SECRET: gate code 4471", `Stands for @${leaver.username} and @${removed.username}.`));
    for (const member of [leaver, removed]) {
      expect((await listNotifications(member)).items).toEqual([]);
      expect(await unreadCount(member.id)).toBe(0);
      expect(await unreadForDigest(member.id, null)).toEqual([]);
    }
    expect(await notificationItems(ids)).toEqual([]);

    // Back in the club, they read it again, as it is now.
    await addMember(clubId, leaver.id);
    expect(await texts(leaver)).toEqual([`${owner.displayName} mentioned you in “SECRET: gate code 4471”`]);
    expect(await unreadCount(leaver.id)).toBe(1);
  });
});

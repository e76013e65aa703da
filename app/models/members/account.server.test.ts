import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { clubMembers, clubs, comments, idempotencyKeys, invites, media, passwordResets, posts, pushSubscriptions, users } from "#db/schema";
import { errorOf } from "#tests/fixtures/errors";
import { newClub as makeClub } from "#tests/fixtures/clubs";
import { createMember } from "#tests/fixtures/members";
import { count, postInput } from "#tests/fixtures/posts";
import { databaseEngine, db, first, preparedOnce, queryColumn, sqlite } from "~/utils/db.server";
import { setStorage, type MediaStorage } from "~/utils/media/storage.server";
import { clubsOnAccountDeletion, deleteAccount, exportAccount, WRONG_PASSWORD } from "./account.server";
import { getClub } from "~/models/clubs/club.server";
import { joinClub } from "~/models/clubs/club-membership.server";
import { addComment } from "~/models/posts/comment.server";
import { followUser } from "./follow.server";
import { updateNotificationSettings } from "~/models/notifications/notification-settings.server";
import { TEXT_MATCH_IDS } from "~/utils/db/sql-dialect.server";
import { ftsQuery } from "~/models/feeds/feed-search.server";
import { createPost, getPost, likePost, sharePost } from "~/models/posts/post.server";
import { getProfile } from "./profile.server";
import { limitsOff, limitsOn } from "#tests/fixtures/limits-clock";

type Member = Awaited<ReturnType<typeof createMember>>;

const userRow = async (id: number) => first(await db.select().from(users).where(eq(users.id, id)));
const postRow = async (id: number) => first(await db.select().from(posts).where(eq(posts.id, id)));
const clubRow = async (id: number) => first(await db.select().from(clubs).where(eq(clubs.id, id)));
const newClub = (owner: Member, name: string, isPrivate = false) => makeClub(owner, { name, isPrivate });

async function addUpload(ownerId: number, key: string, postId: number | null = null) {
  await db.insert(media).values({
    ownerId,
    postId,
    kind: "image",
    storageKey: key,
    url: `/media/${key}`,
    name: "pic.jpg",
    mimeType: "image/jpeg",
    size: 10,
    variants: [{ width: 320, height: 240, url: `/media/${key}-320`, key: `${key}-320` }],
  });
}

/** The member's row as committed: read on the engine's own handle, outside any open transaction (a prepared query). */
const committedUserQuery = preparedOnce(() =>
  db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .prepare(),
);

/** A storage that records each deleted key, and whether the deleting transaction had committed by then. */
function recordingStorage(memberId: number) {
  const deleted: string[] = [];
  const beforeCommit: string[] = [];
  setStorage({
    kind: "local",
    delete: async (key: string) => {
      // SQLite: one connection, so outside the transaction it sees the uncommitted delete; ask it whether one is open.
      // PostgreSQL: the pool's other connections see only what is committed.
      const inTransaction = databaseEngine() === "sqlite" && sqlite.inTransaction;
      if (inTransaction || (await committedUserQuery().execute({ id: memberId })).length > 0) beforeCommit.push(key);
      deleted.push(key);
    },
  } as unknown as MediaStorage);
  return { deleted, beforeCommit };
}

afterEach(() => setStorage(null));

/** A member with a bit of everything, and the other members around them. */
async function busyMember() {
  const me = await createMember({ displayName: "Deleted Dan", password: "danpass1" });
  const ann = await createMember({ displayName: "Ann Other" });
  const bob = await createMember({ displayName: "Bob Other" });
  const myPost = await createPost(me, postInput({ title: "My stand", content: "Secret creek bottom notes" }));
  const annPost = await createPost(ann, postInput({ title: "Ann's post", content: "Ann's private thoughts on rubs" }));
  await addComment(me, annPost.id, { content: "Dan was here" });
  await addComment(me, annPost.id, { content: "Dan again" });
  await addComment(bob, annPost.id, { content: "Bob's remark" });
  await addComment(ann, myPost.id, { content: "Ann on Dan's post" });
  await likePost(me, annPost.id);
  await likePost(bob, annPost.id);
  await likePost(ann, myPost.id);
  await sharePost(me, annPost.id);
  await followUser(me, ann.username);
  await followUser(bob, me.username);
  const annClub = await newClub(ann, "Ann's Club");
  await joinClub(me, annClub.id);
  const privateClub = await newClub(bob, "Bob's Hideout", true);
  await joinClub(me, privateClub.id);
  await addUpload(me.id, `dan${me.id}/post.jpg`, myPost.id);
  await addUpload(me.id, `dan${me.id}/avatar.jpg`);
  await addUpload(ann.id, `ann${ann.id}/own.jpg`, annPost.id);
  return { me, ann, bob, myPost, annPost, annClub, privateClub };
}

describe("exportAccount", () => {
  it("holds the member's own data and nothing of anyone else beyond names", async () => {
    const { me, ann, bob, myPost, annPost, annClub, privateClub } = await busyMember();
    const mine = await newClub(me, "Dan's Club");
    const data = await exportAccount(me);

    expect(data.profile).toMatchObject({ username: me.username, email: me.email, displayName: "Deleted Dan" });
    expect(data.posts.map((p) => [p.id, p.title, p.content])).toEqual([[myPost.id, "My stand", "Secret creek bottom notes"]]);
    expect(data.comments.map((c) => [c.postId, c.content])).toEqual([
      [annPost.id, "Dan was here"],
      [annPost.id, "Dan again"],
    ]);
    expect(data.likes.map((l) => l.postId)).toEqual([annPost.id]);
    expect(data.shares.map((s) => s.postId)).toEqual([annPost.id]);
    expect(data.following).toEqual([{ username: ann.username, displayName: "Ann Other", since: expect.any(Date) }]);
    expect(data.followers).toEqual([{ username: bob.username, displayName: "Bob Other", since: expect.any(Date) }]);
    expect(data.clubs.map((c) => c.name)).toEqual(["Dan's Club"]);
    expect(data.memberships.map((m) => [m.club.id, m.role])).toEqual([
      [annClub.id, "member"],
      [mine.id, "owner"],
    ]);
    expect(data.memberships.map((m) => m.club.id)).not.toContain(privateClub.id);
    expect(data.joinRequests.map((r) => [r.club.name, r.status])).toEqual([["Bob's Hideout", "pending"]]);
    expect(data.media.map((m) => m.url).sort()).toEqual([`/media/dan${me.id}/avatar.jpg`, `/media/dan${me.id}/post.jpg`]);
    expect(data.media.find((m) => m.postId === myPost.id)).toMatchObject({ variants: [`/media/dan${me.id}/post.jpg-320`] });

    expect(data.notificationSettings).toMatchObject({
      email: "daily",
      push: false,
      clubPosts: [],
      inApp: { comment: true, club_post: false },
    });

    const text = JSON.stringify(data);
    for (const foreign of [
      ann.email,
      bob.email,
      "Ann's private thoughts",
      "Bob's remark",
      "Ann on Dan's post",
      `ann${ann.id}/`,
      "Ann's post",
    ]) {
      expect(text).not.toContain(foreign);
    }
    expect(text).not.toMatch(/password|token/i);
  });

  it("is for a signed-in member only", async () => {
    expect((await errorOf(() => exportAccount(null))).status).toBe(401);
  });
});

describe("clubsOnAccountDeletion", () => {
  it("names each owned club's heir: the longest-standing admin, else member, else none", async () => {
    const me = await createMember();
    const early = await createMember({ displayName: "Early Member" });
    const late = await createMember({ displayName: "Late Admin" });
    const admins = await newClub(me, "B Admins");
    const members = await newClub(me, "C Members");
    const lonely = await newClub(me, "A Lonely");
    for (const club of [admins, members]) {
      await joinClub(early, club.id);
      await joinClub(late, club.id);
      await db
        .update(clubMembers)
        .set({ joinedAt: new Date(Date.now() - 60_000) })
        .where(eq(clubMembers.userId, early.id));
    }
    await db
      .update(clubMembers)
      .set({ role: "admin" })
      .where(sql`${clubMembers.clubId} = ${admins.id} AND ${clubMembers.userId} = ${late.id}`);

    expect(await clubsOnAccountDeletion(me)).toEqual([
      { id: lonely.id, name: "A Lonely", heir: null },
      { id: admins.id, name: "B Admins", heir: { username: late.username, displayName: "Late Admin", role: "admin" } },
      { id: members.id, name: "C Members", heir: { username: early.username, displayName: "Early Member", role: "member" } },
    ]);
    expect(await clubsOnAccountDeletion(early)).toEqual([]);
    expect((await errorOf(() => clubsOnAccountDeletion(null))).status).toBe(401);

    const { deleted } = recordingStorage(me.id);
    await deleteAccount(me, { password: me.password });
    expect(await getClub(late, admins.id)).toMatchObject({ userRole: "owner", memberCount: 2 });
    expect(await getClub(late, members.id)).toMatchObject({ userRole: "member", memberCount: 2 });
    expect(await getClub(early, members.id)).toMatchObject({ userRole: "owner" });
    expect(await getClub(early, admins.id)).toMatchObject({ userRole: "member" });
    expect(await clubRow(lonely.id)).toBeUndefined();
    expect(deleted).toEqual([]);
  });
});

describe("deleteAccount", () => {
  it("removes the member and everything of theirs, keeps counters right, then removes their files", async () => {
    const { me, ann, bob, myPost, annPost, annClub, privateClub } = await busyMember();
    const lonely = await newClub(me, "Dan's Lonely Club");
    const lonelyPost = await createPost(me, postInput({ title: "Lonely club post", clubId: lonely.id }));
    await addUpload(me.id, `dan${me.id}/lonely.jpg`, lonelyPost.id);
    await db.insert(invites).values({ code: "dan-invite-code-1", clubId: annClub.id, createdById: me.id });
    await db.insert(passwordResets).values({ tokenHash: "x".repeat(64), userId: me.id, expiresAt: new Date(Date.now() + 60_000) });
    await db.insert(idempotencyKeys).values({ userId: me.id, key: "k1", fingerprint: "POST /api/posts" });
    await updateNotificationSettings(me, { inApp: {}, email: "weekly", push: true, clubPosts: [] });
    await db.insert(pushSubscriptions).values({ userId: me.id, endpoint: `https://push.example/dan${me.id}`, p256dh: "k", auth: "a" });
    // Ann's comment and like told Dan; Dan's comment told Ann: both go with his account.
    expect(await count("SELECT count(*) AS n FROM notifications WHERE user_id = ?", me.id)).toBeGreaterThan(0);
    expect(await count("SELECT count(*) AS n FROM notifications WHERE actor_id = ?", me.id)).toBeGreaterThan(0);
    expect(await postRow(annPost.id)).toMatchObject({ likesCount: 2, commentsCount: 3, sharesCount: 1 });
    const { deleted, beforeCommit } = recordingStorage(me.id);

    await deleteAccount(me, { password: "danpass1" });

    expect(await userRow(me.id)).toBeUndefined();
    for (const where of [
      "posts WHERE author_id = ?",
      "comments WHERE author_id = ?",
      "likes WHERE user_id = ?",
      "shares WHERE user_id = ?",
      "follows WHERE follower_id = ?",
      "follows WHERE followee_id = ?",
      "club_members WHERE user_id = ?",
      "join_requests WHERE user_id = ?",
      "invites WHERE created_by_id = ?",
      "sessions WHERE user_id = ?",
      "password_resets WHERE user_id = ?",
      "idempotency_keys WHERE user_id = ?",
      "media WHERE owner_id = ?",
      "clubs WHERE creator_id = ?",
      "notifications WHERE user_id = ?",
      "notifications WHERE actor_id = ?",
      "notification_settings WHERE user_id = ?",
      "push_subscriptions WHERE user_id = ?",
    ]) {
      expect(await count(`SELECT count(*) AS n FROM ${where}`, me.id), where).toBe(0);
    }
    // Their post, with others' comments and likes on it, is gone; others' posts keep the right counts.
    expect(await postRow(myPost.id)).toBeUndefined();
    expect(await count("SELECT count(*) AS n FROM comments WHERE post_id = ?", myPost.id)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM likes WHERE post_id = ?", myPost.id)).toBe(0);
    expect((await errorOf(() => getPost(ann, myPost.id))).status).toBe(404);
    expect((await errorOf(() => getProfile(ann, me.username))).status).toBe(404);
    // The search index (SQLite's FTS table, PostgreSQL's column) no longer finds it.
    expect(await queryColumn<number>(TEXT_MATCH_IDS, { fts: ftsQuery("secret") })).not.toContain(myPost.id);
    expect(await postRow(annPost.id)).toMatchObject({ likesCount: 1, commentsCount: 1, sharesCount: 1 });
    const left = await db.select({ content: comments.content }).from(comments).where(eq(comments.postId, annPost.id));
    expect(left.map((c) => c.content)).toEqual(["Bob's remark"]);
    expect(await userRow(ann.id)).toMatchObject({ followersCount: 0, followingCount: 0 });
    expect(await userRow(bob.id)).toMatchObject({ followersCount: 0, followingCount: 0 });
    expect((await clubRow(annClub.id))?.memberCount).toBe(1);
    expect((await clubRow(privateClub.id))?.memberCount).toBe(1);
    expect(await clubRow(lonely.id)).toBeUndefined();
    // Files: theirs (post, avatar, the lonely club's post) after the commit; Ann's stay.
    const files = ["avatar.jpg", "lonely.jpg", "post.jpg"].flatMap((name) => [`dan${me.id}/${name}`, `dan${me.id}/${name}-320`]);
    expect(deleted.sort()).toEqual(files.sort());
    expect(beforeCommit).toEqual([]);
    expect(await count("SELECT count(*) AS n FROM media WHERE owner_id = ?", ann.id)).toBe(1);
  });

  it("changes nothing on a wrong password (400 on the password field) and counts it as a sign-in failure", async () => {
    const { me, annPost } = await busyMember();
    const { deleted } = recordingStorage(me.id);
    const error = await errorOf(() => deleteAccount(me, { password: "wrong" }));
    expect([error.status, error.fieldErrors]).toEqual([400, { password: [WRONG_PASSWORD] }]);
    expect(await userRow(me.id)).toBeDefined();
    expect(await postRow(annPost.id)).toMatchObject({ likesCount: 2, commentsCount: 3 });
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", me.id)).toBe(1);
    expect(deleted).toEqual([]);

    limitsOn();
    try {
      for (let i = 0; i < 10; i++) await errorOf(() => deleteAccount(me, { password: `guess${i}` }));
      expect((await errorOf(() => deleteAccount(me, { password: "danpass1" }))).status).toBe(429);
    } finally {
      limitsOff();
    }
    expect(await userRow(me.id)).toBeDefined();
  });

  it("acts on the signed-in member only: anonymous is 401, and no one can name another member", async () => {
    const { me, ann } = await busyMember();
    expect((await errorOf(() => deleteAccount(null, { password: me.password }))).status).toBe(401);
    // Another member with the target's password still only reaches their own account, and is refused.
    expect((await errorOf(() => deleteAccount(ann, { password: "danpass1" }))).status).toBe(400);
    expect(await userRow(me.id)).toBeDefined();
    expect(await userRow(ann.id)).toBeDefined();
  });
});

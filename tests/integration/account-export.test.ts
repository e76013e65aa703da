import { createEvent, rsvpEvent } from "~/models/clubs/club-event.server";
import { desc, eq, is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { fieldReports, media, moderationCases, reports, sessions } from "#db/schema";
import * as sqliteSchema from "#db/schema-sqlite";
import { newClub } from "#tests/fixtures/clubs";
import { createStaff } from "#tests/fixtures/moderation";
import { browserKeys } from "#tests/fixtures/push-service";
import { count, postInput } from "#tests/fixtures/posts";
import { EXCLUDED_MEMBER_COLUMNS, EXPORTED_MEMBER_COLUMNS, exportAccount } from "~/models/members/account.server";
import { blockMember } from "~/models/members/block.server";
import { joinClub } from "~/models/clubs/club-membership.server";
import { addComment } from "~/models/posts/comment.server";
import { followUser } from "~/models/members/follow.server";
import { createInvite } from "~/models/clubs/invite.server";
import { updateNotificationSettings } from "~/models/notifications/notification-settings.server";
import { createPost, likePost, sharePost } from "~/models/posts/post.server";
import { subscribe } from "~/models/notifications/push.server";
import { decideCase, reportTarget } from "~/models/moderation/report.server";
import { loader as exportApi } from "~/routes/api.auth.export";
import { db, first } from "~/utils/db.server";
import { call, createMember, makeRequest } from "../fixtures/members";

/**
 * The account export's guard and its newer lists (issue 41 item 4, architecture-3 L2, CONTRACT.md §6
 * "A member's own data"). Every column of db/schema-sqlite.ts that points at users.id must be in
 * EXPORTED_MEMBER_COLUMNS (and really reach the export) or in EXCLUDED_MEMBER_COLUMNS with a reason,
 * both beside exportAccount in app/models/members/account.server.ts. Then what the export says of the
 * member's blocks, reports and push subscriptions, and that it says nothing of anyone else's.
 */

type Member = Awaited<ReturnType<typeof createMember>>;

/** `table.column` for every foreign key to users.id in the SQLite schema (db/schema-pg.ts is built from it, docs/database.md). */
function memberColumns(): string[] {
  const usersName = getTableConfig(sqliteSchema.users).name;
  const found = new Set<string>();
  for (const value of Object.values(sqliteSchema)) {
    if (!is(value, SQLiteTable)) continue;
    const config = getTableConfig(value);
    for (const key of config.foreignKeys) {
      const reference = key.reference();
      if (getTableConfig(reference.foreignTable).name !== usersName) continue;
      expect(reference.foreignColumns.map((c) => c.name)).toEqual(["id"]);
      for (const column of reference.columns) found.add(`${config.name}.${column.name}`);
    }
  }
  return [...found].sort();
}

const exported: Record<string, string> = EXPORTED_MEMBER_COLUMNS;

/** Seconds in the past, so the rows' times sort in the order they were made. */
const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);

let endpoints = 0;
/** A push endpoint on a public address (the guard needs no DNS for it): the path is the browser's own. */
const endpointOn = (host: string) => `https://${host}/fcm/send/browser-secret-${Date.now()}-${++endpoints}`;

const sessionIdOf = async (member: Member) =>
  first(await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, member.id)).orderBy(desc(sessions.id)))!.id;

describe("the export guard: every member column is exported or excluded with a reason", () => {
  it("finds the member columns of the schema (the guard reads real foreign keys)", () => {
    const columns = memberColumns();
    expect(columns).toEqual(expect.arrayContaining(["posts.author_id", "blocks.blocker_id", "blocks.blocked_id", "sessions.user_id"]));
    expect(columns.length).toBeGreaterThan(20);
  });

  it("has no member column that is neither exported nor excluded", () => {
    const undecided = memberColumns().filter((column) => !(column in exported) && !(column in EXCLUDED_MEMBER_COLUMNS));
    expect(
      undecided,
      "each of these points at users.id: export it in exportAccount (EXPORTED_MEMBER_COLUMNS) or add it to EXCLUDED_MEMBER_COLUMNS with the reason",
    ).toEqual([]);
  });

  it("decides each column once, gives every exclusion a reason, and names no column the schema does not have", () => {
    const columns = memberColumns();
    expect(Object.keys(exported).filter((column) => column in EXCLUDED_MEMBER_COLUMNS)).toEqual([]);
    for (const [column, reason] of Object.entries(EXCLUDED_MEMBER_COLUMNS)) expect(reason.trim().length, column).toBeGreaterThan(20);
    expect([...Object.keys(exported), ...Object.keys(EXCLUDED_MEMBER_COLUMNS)].filter((column) => !columns.includes(column))).toEqual([]);
  });

  it("brings each exported column's rows back under its key, for a member with a row in every one", async () => {
    const me = await createMember({ displayName: "Every Table" });
    const ann = await createMember();
    const bob = await createMember();
    const myPost = await createPost(me, postInput({ title: "Mine" }));
    await db
      .insert(fieldReports)
      .values({ postId: myPost.id, authorId: me.id, kind: "harvest", county: "18089", observedOn: "2026-11-20" });
    const annPost = await createPost(ann, postInput({ title: "Ann's" }));
    await addComment(me, annPost.id, { content: "A comment" });
    await likePost(me, annPost.id);
    await sharePost(me, annPost.id);
    await followUser(me, ann.username);
    await followUser(ann, me.username);
    const club = await newClub(me, { name: "Every Table's Club" });
    await createInvite(me, club.id, {});
    const hunt = await createEvent(me, club.id, {
      title: "Opening morning",
      startsAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    });
    await rsvpEvent(me, club.id, hunt.id, { status: "going" });
    await joinClub(me, (await newClub(ann, { name: "Ann's Hideout", isPrivate: true })).id, { message: "Let me in" });
    await db.insert(media).values({
      ownerId: me.id,
      postId: myPost.id,
      kind: "image",
      storageKey: `every${me.id}.jpg`,
      url: `/media/every${me.id}.jpg`,
      name: "pic.jpg",
      mimeType: "image/jpeg",
      size: 10,
    });
    await updateNotificationSettings(me, { inApp: {}, email: "weekly", push: true, clubPosts: [] });
    await blockMember(me, bob.username);
    await reportTarget(me, { targetType: "post", targetId: annPost.id, reason: "spam" });
    await subscribe(me, { endpoint: endpointOn("142.250.74.10"), keys: browserKeys().keys }, await sessionIdOf(me));

    const data: Record<string, unknown> = await exportAccount(me);
    for (const [column, key] of Object.entries(exported)) {
      const [table, name] = column.split(".");
      expect(
        await count(`SELECT count(*) AS n FROM ${table} WHERE ${name} = ?`, me.id),
        `this test gives the member a row of ${column}`,
      ).toBeGreaterThan(0);
      const value = data[key];
      expect(value, `${column} is exported under "${key}"`).toBeDefined();
      if (Array.isArray(value)) expect(value.length, `${column}'s rows under "${key}"`).toBeGreaterThan(0);
    }
  });
});

describe("exportAccount: the member's blocks, reports and push subscriptions", () => {
  it("lists the members the owner blocked, by name, and not who blocked the owner", async () => {
    const me = await createMember();
    const ann = await createMember({ displayName: "Ann Blocked" });
    const bob = await createMember({ displayName: "Bob Blocked" });
    const carl = await createMember({ displayName: "Carl Blocks Me" });
    const [earlier, later] = [ago(20), ago(10)];
    await blockMember(me, bob.username, earlier);
    await blockMember(me, ann.username, later);
    await blockMember(carl, me.username);
    await blockMember(carl, ann.username);

    const data = await exportAccount(me);
    expect(data.blocks).toEqual([
      { username: bob.username, displayName: "Bob Blocked", since: earlier },
      { username: ann.username, displayName: "Ann Blocked", since: later },
    ]);
    const text = JSON.stringify(data);
    expect(text).not.toContain(carl.username);
    expect(text).not.toContain("Carl Blocks Me");
    // Carl's own export has his blocks, and no word of anyone blocking him.
    expect((await exportAccount(carl)).blocks.map((b) => b.username).sort()).toEqual([ann.username, me.username].sort());
    expect((await exportAccount(ann)).blocks).toEqual([]);
  });

  it("lists the reports the owner filed in their own words with the case's status, and nothing of others' reports or the moderators'", async () => {
    const me = await createMember();
    const ann = await createMember({ displayName: "Ann Reported" });
    const bob = await createMember();
    const moderator = await createStaff("moderator");
    const annPost = await createPost(ann, postInput({ title: "Ann's title", content: "Ann's reported words" }));
    const annComment = await addComment(ann, annPost.id, { content: "Ann's reported comment" });

    const onPost = await reportTarget(me, { targetType: "post", targetId: annPost.id, reason: "spam", details: "My own words on it" });
    await reportTarget(me, { targetType: "user", targetId: ann.id, reason: "harassment" });
    await reportTarget(bob, { targetType: "post", targetId: annPost.id, reason: "illegal", details: "Bob's words on it" });
    await reportTarget(bob, { targetType: "comment", targetId: annComment.id, reason: "off_topic", details: "Bob alone" });
    // Ann reports the owner: the reported member never learns who reported (CONTRACT.md §8).
    await reportTarget(ann, { targetType: "user", targetId: me.id, reason: "other", details: "Ann about me" });

    const caseId = first(await db.select({ id: reports.caseId }).from(reports).where(eq(reports.id, onPost.id)))!.id;
    await decideCase(moderator, caseId, { action: "dismiss", reason: "Moderator's private note" });
    expect(
      first(await db.select({ status: moderationCases.status }).from(moderationCases).where(eq(moderationCases.id, caseId)))?.status,
    ).toBe("closed");

    const data = await exportAccount(me);
    expect(data.reports).toEqual([
      {
        target: { type: "post", id: annPost.id },
        reason: "spam",
        details: "My own words on it",
        createdAt: expect.any(Date),
        status: "closed",
      },
      { target: { type: "user", id: ann.id }, reason: "harassment", details: null, createdAt: expect.any(Date), status: "open" },
    ]);
    const text = JSON.stringify(data);
    for (const foreign of [
      "Bob's words on it",
      "Bob alone",
      "Ann about me",
      "Moderator's private note",
      // The report's snapshot is the reported member's text, not the reporter's.
      "Ann's reported words",
      "Ann's title",
      moderator.username,
    ]) {
      expect(text).not.toContain(foreign);
    }
    expect((await exportAccount(ann)).reports.map((r) => r.details)).toEqual(["Ann about me"]);
  });

  it("lists the owner's push subscriptions by push service, device and time: never the endpoint's path or the browser's keys", async () => {
    const me = await createMember();
    const other = await createMember();
    const [firstKeys, secondKeys, otherKeys] = [browserKeys().keys, browserKeys().keys, browserKeys().keys];
    const [earlier, later] = [ago(20), ago(10)];
    const myEndpoint = endpointOn("142.250.74.10");
    await subscribe(me, { endpoint: myEndpoint, keys: firstKeys }, await sessionIdOf(me), earlier);
    await subscribe(me, { endpoint: endpointOn("17.253.144.10:8443"), keys: secondKeys }, null, later);
    const otherEndpoint = endpointOn("142.250.74.11");
    await subscribe(other, { endpoint: otherEndpoint, keys: otherKeys }, await sessionIdOf(other));

    const data = await exportAccount(me);
    const device = first(await db.select({ device: sessions.device }).from(sessions).where(eq(sessions.userId, me.id)))!.device;
    expect(data.pushSubscriptions).toEqual([
      { service: "142.250.74.10", device, createdAt: earlier },
      { service: "17.253.144.10:8443", device: null, createdAt: later },
    ]);
    const text = JSON.stringify(data);
    for (const secret of [
      myEndpoint,
      new URL(myEndpoint).pathname,
      firstKeys.p256dh,
      firstKeys.auth,
      secondKeys.p256dh,
      secondKeys.auth,
      otherEndpoint,
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toContain("142.250.74.11");
    expect((await exportAccount(other)).pushSubscriptions.map((s) => s.service)).toEqual(["142.250.74.11"]);
  });

  it("GET /api/auth/export carries the three lists beside the existing ones, times as ISO strings", async () => {
    const me = await createMember();
    const ann = await createMember();
    const annPost = await createPost(ann, postInput({ title: "Reported over HTTP" }));
    await blockMember(me, ann.username);
    await reportTarget(me, { targetType: "post", targetId: annPost.id, reason: "other", details: "Over HTTP" });
    await subscribe(me, { endpoint: endpointOn("142.250.74.10"), keys: browserKeys().keys }, await sessionIdOf(me));

    const res = await call(exportApi, makeRequest("/api/auth/export", { cookie: me.cookie }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    for (const key of ["profile", "posts", "comments", "likes", "shares", "following", "followers", "clubs", "memberships"]) {
      expect(body, key).toHaveProperty(key);
    }
    const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(body.blocks).toEqual([{ username: ann.username, displayName: ann.displayName, since: iso }]);
    expect(body.reports).toEqual([
      { target: { type: "post", id: annPost.id }, reason: "other", details: "Over HTTP", createdAt: iso, status: "open" },
    ]);
    expect(body.pushSubscriptions).toEqual([{ service: "142.250.74.10", device: expect.any(String), createdAt: iso }]);
  });
});

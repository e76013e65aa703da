import { and, eq, gte, inArray } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { comments, posts, users } from "#db/schema";
import { call, createMember, makeRequest, routeArgs } from "#tests/fixtures/members";
import { count, failure, makeClub, postInput } from "#tests/fixtures/posts";
import { action as commentsApi } from "~/routes/api.posts.$id.comments";
import { action as postsApi } from "~/routes/api.posts";
import { action as postPageAction } from "~/routes/post.$id/post-actions.server";
import { parseEnv } from "~/utils/env.server";
import { databaseEngine, db, queryRows, writeTransaction, type Params } from "~/utils/db.server";
import { setRateLimitsEnabled } from "~/utils/rate-limit.server";
import { linksIn, mentionsIn } from "~/utils/text-links";
import { addComment, updateComment } from "~/models/posts/comment.server";
import { enforceNewAccountLimits, NEW_ACCOUNT_LIMITS, whenItLifts } from "~/models/moderation/new-account-limits.server";
import { createPost, getPost, updatePost } from "~/models/posts/post.server";
import { requestNotes } from "~/utils/logger.server";
import { clockOnDay } from "~/utils/time-zone";

/**
 * CONTRACT.md §8 first-day caps, on both engines. The clock is held (Date.now) at a moment after
 * sign-up, so ages and the lift time are exact; rows get the database's own time, which is real now.
 */

type Member = Awaited<ReturnType<typeof createMember>>;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let clock: ReturnType<typeof vi.spyOn> | undefined;
/** Holds Date.now at `at`. */
const holdClock = (at: number) => {
  clock?.mockRestore();
  clock = vi.spyOn(Date, "now").mockReturnValue(at);
};

/** The members the texts below mention: the cap counts only names that are members (ux-3 U6). */
const MENTIONABLE = ["buckhunter", "doe_watcher", "one_a", "two_b", "three_c", "aaa_1", "bbb_2", "ccc_3"];
beforeEach(async () => {
  setRateLimitsEnabled(true);
  const have = new Set(
    (await db.select({ name: users.username }).from(users).where(inArray(users.username, MENTIONABLE))).map((r) => r.name),
  );
  for (const username of MENTIONABLE) if (!have.has(username)) await createMember({ username });
});
afterEach(() => {
  clock?.mockRestore();
  clock = undefined;
  setRateLimitsEnabled(false);
});

const signedUpAt = async (member: { id: number }) =>
  (await db.select({ at: users.createdAt }).from(users).where(eq(users.id, member.id)))[0]!.at.getTime();

/** A member whose account is `hoursOld` hours old by the held clock. */
async function memberAged(hoursOld: number): Promise<Member & { since: number }> {
  const member = await createMember();
  const since = await signedUpAt(member);
  holdClock(since + hoursOld * HOUR);
  return { ...member, since };
}

const postsOf = (id: number) => count(`SELECT count(*) AS n FROM posts WHERE author_id = ?`, id);
const commentsOf = (id: number) => count(`SELECT count(*) AS n FROM comments WHERE author_id = ?`, id);
const postsCountOf = (id: number) => count(`SELECT posts_count AS n FROM users WHERE id = ?`, id);
const commentsCountOn = (id: number) => count(`SELECT comments_count AS n FROM posts WHERE id = ?`, id);
const hitsOf = (key: string) => count(`SELECT coalesce(sum(count), 0) AS n FROM rate_limits WHERE key = ?`, key);

/** "14:05 UTC on 28 Nov" for `ms`, as the message writes it. */
const clockText = (ms: number) => whenItLifts(ms, ms - 1000, "UTC").replace(/^in \d+ seconds?, at /, "");

async function aPostBy(member: { id: number }) {
  // An older member's post to comment on (their own cap does not apply).
  return createPost(member, postInput({ title: "A post to comment on" }));
}

describe("text-links: links and mentions as the caps count them", () => {
  it("counts http(s) URLs and bare domains once each; not emails, decimals or abbreviations", () => {
    expect(linksIn("See https://deer.example.com/rut?x=1 and www.deer.example.com/rut?x=1.").size).toBe(1);
    expect(linksIn("example.com, http://example.com/ and https://www.example.com").size).toBe(1);
    expect(linksIn("mail bob@example.com, 3.5 inches, e.g. this, i.e. that, great hunt.Thanks").size).toBe(0);
    expect(linksIn("one.org two.net three.co.uk/path four.io").size).toBe(4);
    expect(linksIn("title", "text with a.com", "https://b.org/x").size).toBe(2);
  });

  it("counts distinct @usernames, not email addresses", () => {
    expect([...mentionsIn("@Alice and @bob, @alice again; mail carol@example.com")]).toEqual(["alice", "bob"]);
    expect(mentionsIn("@ab is too short, @abc_1 is fine").size).toBe(1);
  });
});

describe("NEW_ACCOUNT_HOURS in the environment", () => {
  it("defaults to 24, takes 0 (off) and refuses a bad value", () => {
    expect(parseEnv({}).NEW_ACCOUNT_HOURS).toBe(24);
    expect(parseEnv({ NEW_ACCOUNT_HOURS: "0" }).NEW_ACCOUNT_HOURS).toBe(0);
    expect(parseEnv({ NEW_ACCOUNT_HOURS: "72" }).NEW_ACCOUNT_HOURS).toBe(72);
    expect(() => parseEnv({ NEW_ACCOUNT_HOURS: "-1" })).toThrow(/NEW_ACCOUNT_HOURS/);
    expect(() => parseEnv({ NEW_ACCOUNT_HOURS: "soon" })).toThrow(/NEW_ACCOUNT_HOURS/);
    expect(parseEnv({}).AUTO_HIDE_REPORTS).toBe(3);
  });
});

describe("a new account's posts", () => {
  it("allows 3 posts (club posts count), then 429 with Retry-After and when it lifts; the refusal writes nothing", async () => {
    const member = await memberAged(10);
    const club = await makeClub(member.id, { isPrivate: false });
    await createPost(member, postInput({ title: "First" }));
    await createPost(member, postInput({ title: "In my club", clubId: club }));
    await createPost(member, postInput({ title: "Third" }));
    const postsCount = await postsCountOf(member.id);
    const hits = await hitsOf(`postsPerUser:${member.id}`);

    const refused = await failure(() => createPost(member, postInput({ title: "Fourth" })));
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe(14 * 3600);
    expect(refused.message).toBe(
      `New accounts can make 3 posts in their first day. You can post again in 14 hours, at ${clockText(member.since + DAY)}.`,
    );
    expect(await postsOf(member.id)).toBe(3);
    expect(await postsCountOf(member.id)).toBe(postsCount);
    expect(await hitsOf(`postsPerUser:${member.id}`)).toBe(hits);

    // A request that names the member's zone (its tz cookie) is told the moment in it (ux-3 U15).
    const local = await requestNotes.run({ timeZone: "America/Chicago" }, () =>
      failure(() => createPost(member, postInput({ title: "Fourth" }))),
    );
    expect(local.message).toBe(
      `New accounts can make 3 posts in their first day. You can post again in 14 hours, at ${clockOnDay(member.since + DAY, "America/Chicago")}.`,
    );
    expect(local.message).toMatch(/at \d\d:\d\d C[SD]T on \d{1,2} [A-Z][a-z]{2}\.$/);
  });

  it("POST /api/posts answers 429 JSON with Retry-After and the message", async () => {
    const member = await memberAged(23.5);
    for (let i = 0; i < NEW_ACCOUNT_LIMITS.posts; i++) await createPost(member, postInput({ title: `Post ${i}` }));
    const res = await postsApi({
      ...routeArgs(makeRequest("/api/posts", { json: postInput({ title: "Over" }), cookie: member.cookie })),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe(String(30 * 60));
    expect((await res.json()).error).toMatch(
      /^New accounts can make 3 posts in their first day\. You can post again in 30 minutes, at \d\d:\d\d UTC on /,
    );
    expect(await postsOf(member.id)).toBe(3);
  });

  it("lifts after NEW_ACCOUNT_HOURS: the same member posts a fourth and more", async () => {
    const member = await memberAged(1);
    for (let i = 0; i < 3; i++) await createPost(member, postInput({ title: `Post ${i}` }));
    expect((await failure(() => createPost(member, postInput()))).status).toBe(429);
    holdClock(member.since + DAY);
    await createPost(member, postInput({ title: "Next day" }));
    await createPost(member, postInput({ title: "Links https://a.example.org b.example.org c.example.org" }));
    expect(await postsOf(member.id)).toBe(5);
  });

  it("follows NEW_ACCOUNT_HOURS (48 hours: 'first 48 hours'; 0: off)", async () => {
    const member = await memberAged(30);
    for (let i = 0; i < 3; i++) await createPost(member, postInput({ title: `Post ${i}` }));
    await enforceNewAccountLimits(member.id, { kind: "post", texts: [] }, Date.now(), 24);
    const error = await failure(() => enforceNewAccountLimits(member.id, { kind: "post", texts: [] }, Date.now(), 48));
    expect(error.retryAfter).toBe(18 * 3600);
    expect(error.message).toMatch(/^New accounts can make 3 posts in their first 48 hours\. You can post again in 18 hours, at /);
    await enforceNewAccountLimits(member.id, { kind: "post", texts: [] }, Date.now(), 0);
  });

  it("allows 2 links and 2 mentions across title, text and the URL field; a third is 429 with the message", async () => {
    const member = await memberAged(2);
    await createPost(
      member,
      postInput({
        title: "Two links @buckhunter",
        content: "See deer.example.org and @doe_watcher",
        mediaUrl: "https://video.example.com/v/1",
      }),
    );
    const links = await failure(() =>
      createPost(member, postInput({ title: "Three: a.example.org", content: "b.example.org", mediaUrl: "https://c.example.org/" })),
    );
    expect(links.status).toBe(429);
    expect(links.retryAfter).toBe(22 * 3600);
    expect(links.message).toBe(
      `New accounts can put at most 2 links in a post in their first day (this one has 3). Remove some, or send it in 22 hours, at ${clockText(member.since + DAY)}.`,
    );
    const mentions = await failure(() => createPost(member, postInput({ title: "Hi @one_a", content: "@two_b and @three_c" })));
    expect(mentions.status).toBe(429);
    expect(mentions.message).toMatch(/^New accounts can mention at most 2 people in a post in their first day \(this one mentions 3\)\./);
    expect(await postsOf(member.id)).toBe(1);
  });

  it("counts the names that are members, not every @ (ux-3 U6): an unknown name or an email address is plain text", async () => {
    const post = await aPostBy(await memberAged(24 * 30));
    const member = await memberAged(2); // after the elder: this holds the clock 2 hours into the new account
    const text = "Great read @one_a. @two_b have you seen this? Also @nobody_here_zz and email me@example.com";
    await createPost(member, postInput({ title: "Camera cards", content: text }));
    expect((await addComment(member, post.id, { content: text })).content).toBe(text);
    const third = await failure(() => addComment(member, post.id, { content: `${text} @three_c` }));
    expect(third.message).toMatch(/^New accounts can mention at most 2 people in a comment in their first day \(this one mentions 3\)\./);
  });

  it("RATE_LIMITS=off lifts every cap", async () => {
    const member = await memberAged(1);
    setRateLimitsEnabled(false);
    for (let i = 0; i < 5; i++)
      await createPost(member, postInput({ title: `Post ${i} a.example.org b.example.org c.example.org @aaa @bbb @ccc` }));
    expect(await postsOf(member.id)).toBe(5);
  });

  it("does not touch an older account", async () => {
    const member = await memberAged(24 * 30);
    for (let i = 0; i < 5; i++)
      await createPost(member, postInput({ title: `Post ${i} a.example.org b.example.org c.example.org @aaa @bbb @ccc` }));
    expect(await postsOf(member.id)).toBe(5);
  });
});

describe("a new account's comments", () => {
  it("allows 20 comments, then 429 with when it lifts; the refusal writes nothing", async () => {
    const elder = await memberAged(24 * 30);
    const post = await aPostBy(elder);
    const member = await memberAged(4);
    for (let i = 0; i < NEW_ACCOUNT_LIMITS.comments; i++) await addComment(member, post.id, { content: `comment ${i}` });
    const counted = await commentsCountOn(post.id);
    const hits = await hitsOf(`commentsPerUser:${member.id}`);
    const refused = await failure(() => addComment(member, post.id, { content: "one more" }));
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe(20 * 3600);
    expect(refused.message).toBe(
      `New accounts can make 20 comments in their first day. You can comment again in 20 hours, at ${clockText(member.since + DAY)}.`,
    );
    expect(await commentsOf(member.id)).toBe(20);
    expect(await commentsCountOn(post.id)).toBe(counted);
    expect(await hitsOf(`commentsPerUser:${member.id}`)).toBe(hits);

    holdClock(member.since + DAY + 1000);
    await addComment(member, post.id, { content: "the next day" });
    expect(await commentsOf(member.id)).toBe(21);
  });

  it("POST /api/posts/{id}/comments: 3 links or 3 mentions are 429 with Retry-After; 2 are fine", async () => {
    const elder = await memberAged(24 * 30);
    const post = await aPostBy(elder);
    const member = await memberAged(12);
    const send = (content: string) =>
      commentsApi({
        ...routeArgs(makeRequest(`/api/posts/${post.id}/comments`, { json: { content }, cookie: member.cookie }), { id: String(post.id) }),
      });
    expect((await send("@aaa_1 @bbb_2 see https://x.example.org and y.example.org")).status).toBe(201);
    const links = await send("https://x.example.org y.example.org z.example.org");
    expect(links.status).toBe(429);
    expect(links.headers.get("Retry-After")).toBe(String(12 * 3600));
    expect((await links.json()).error).toMatch(
      /^New accounts can put at most 2 links in a comment in their first day \(this one has 3\)\. Remove some, or send it in 12 hours, at /,
    );
    const mentions = await send("@aaa_1 @bbb_2 @ccc_3");
    expect(mentions.status).toBe(429);
    expect((await mentions.json()).error).toMatch(/^New accounts can mention at most 2 people in a comment/);
    expect(await commentsOf(member.id)).toBe(1);

    setRateLimitsEnabled(false);
    expect((await send("@aaa_1 @bbb_2 @ccc_3 x.example.org y.example.org z.example.org")).status).toBe(201);
  });

  it("the post page's comment form (no JavaScript) answers 429 with the message and the text typed", async () => {
    const elder = await memberAged(24 * 30);
    const post = await aPostBy(elder);
    const member = await memberAged(3);
    const content = "Look at x.example.org, y.example.org and z.example.org";
    const res = await call(
      postPageAction,
      makeRequest(`/post/${post.id}`, {
        form: { intent: "comment", content, redirectTo: `/post/${post.id}#comments` },
        cookie: member.cookie,
      }),
      { id: String(post.id) },
    );
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe(String(21 * 3600));
    expect(await res.json()).toMatchObject({
      intent: "comment",
      ok: false,
      status: 429,
      content,
      error: expect.stringMatching(
        /^New accounts can put at most 2 links in a comment in their first day \(this one has 3\)\. Remove some, or send it in 21 hours, at /,
      ),
    });
    expect(await commentsOf(member.id)).toBe(0);
  });

  it("does not touch an older account", async () => {
    const elder = await memberAged(25);
    const post = await aPostBy(elder);
    await addComment(elder, post.id, { content: "@aaa_1 @bbb_2 @ccc_3 x.example.org y.example.org z.example.org" });
    expect(await commentsOf(elder.id)).toBe(1);
  });
});

describe("edits", () => {
  it("a new account's edited post or comment is held to 2 links and 2 mentions (not counted again); the refusal changes nothing", async () => {
    const elder = await memberAged(24 * 30);
    const theirs = await aPostBy(elder);
    const member = await memberAged(5);
    const mine = await createPost(member, postInput({ title: "Clean first post", content: "Nothing to follow here at all." }));
    const comment = await addComment(member, theirs.id, { content: "A clean comment" });
    await createPost(member, postInput({ title: "Second" }));
    await createPost(member, postInput({ title: "Third" }));

    // At the post cap, an edit is still fine: it makes nothing new.
    const edit = (fields: { title: string; content: string; mediaUrl?: string }) => ({ mediaUrl: null, tags: null, ...fields });
    await updatePost(member, mine.id, edit({ title: "Clean first post, edited", content: "See a.example.org and @aaa_1" }));
    const links = await failure(() =>
      updatePost(member, mine.id, edit({ title: "Spam", content: "a.example.org b.example.org", mediaUrl: "https://c.example.org" })),
    );
    expect(links.status).toBe(429);
    expect(links.retryAfter).toBe(19 * 3600);
    expect(links.message).toMatch(/^New accounts can put at most 2 links in a post in their first day \(this one has 3\)\./);
    expect((await getPost(member, mine.id)).title).toBe("Clean first post, edited");

    const mentions = await failure(() => updateComment(member, comment.id, { content: "@aaa_1 @bbb_2 @ccc_3" }));
    expect(mentions.status).toBe(429);
    expect(mentions.message).toMatch(/^New accounts can mention at most 2 people in a comment/);

    // The post page's edit box (no JavaScript) keeps the text with the message.
    const content = "x.example.org y.example.org z.example.org";
    const res = await call(
      postPageAction,
      makeRequest(`/post/${theirs.id}`, {
        form: { intent: "update-comment", commentId: String(comment.id), content },
        cookie: member.cookie,
      }),
      { id: String(theirs.id) },
    );
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ intent: "update-comment", ok: false, status: 429, content, commentId: comment.id });
    expect(await count(`SELECT count(*) AS n FROM comments WHERE id = ? AND content = 'A clean comment'`, comment.id)).toBe(1);

    holdClock(member.since + DAY);
    await updateComment(member, comment.id, { content: "@aaa_1 @bbb_2 @ccc_3" });
  });
});

describe("the count's reads", () => {
  it("go through the author's index on both engines (no scan of posts or comments)", async () => {
    const filler = await memberAged(24 * 30);
    const post = await aPostBy(filler);
    setRateLimitsEnabled(false);
    for (let i = 0; i < 30; i++) await createPost(filler, postInput({ title: `filler ${i}` }));
    for (let i = 0; i < 30; i++) await addComment(filler, post.id, { content: `filler ${i}` });
    const member = await memberAged(1);
    const since = new Date(member.since);
    const reads = [
      {
        index: "posts_author_recent",
        query: db
          .select({ id: posts.id })
          .from(posts)
          .where(and(eq(posts.authorId, member.id), gte(posts.createdAt, since)))
          .limit(3)
          .toSQL(),
      },
      {
        index: "comments_author",
        query: db
          .select({ id: comments.id })
          .from(comments)
          .where(and(eq(comments.authorId, member.id), gte(comments.createdAt, since)))
          .limit(20)
          .toSQL(),
      },
    ];
    for (const { index, query } of reads) {
      if (databaseEngine() === "sqlite") {
        const plan = await queryRows<{ detail: string }>(`EXPLAIN QUERY PLAN ${query.sql}`, query.params as Params);
        const text = plan.map((r) => r.detail).join("\n");
        expect(text).toMatch(new RegExp(`^SEARCH (posts|comments) USING (COVERING )?INDEX ${index} \\(author_id=\\?`, "m"));
        expect(text).not.toMatch(/SCAN (posts|comments)\b/);
      } else {
        // Tables this small are read whole by choice; with sequential scans priced out, the plan
        // shows whether an index serves the read at all.
        const text = await writeTransaction(async () => {
          await queryRows(`ANALYZE posts`);
          await queryRows(`ANALYZE comments`);
          await queryRows(`SET LOCAL enable_seqscan = off`);
          const plan = await queryRows<{ "QUERY PLAN": string }>(`EXPLAIN ${query.sql.replace(/\$\d+/g, "?")}`, query.params as Params);
          return plan.map((r) => r["QUERY PLAN"]).join("\n");
        });
        expect(text).toContain(index);
        expect(text).not.toMatch(/Seq Scan/);
      }
    }
  });
});

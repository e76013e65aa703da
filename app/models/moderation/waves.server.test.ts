import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { comments, moderationCases, moderationLog, posts } from "#db/schema";
import { expectError } from "#tests/fixtures/clubs";
import { createMember } from "#tests/fixtures/members";
import { createStaff } from "#tests/fixtures/moderation";
import { ageAccount } from "#tests/fixtures/new-accounts";
import { counterMismatches, postInput } from "#tests/fixtures/posts";
import { env } from "~/utils/env.server";
import { db, first } from "~/utils/db.server";
import { addComment } from "~/models/posts/comment.server";
import { createPost } from "~/models/posts/post.server";
import { memberForStaff } from "./suspension.server";
import { reportTarget, setAutoHideReports } from "./report.server";
import { dismissReportsBy, purgeMember } from "./waves.server";

/** CONTRACT.md §12 "Spam waves" (issue 39 item 2): a purge and a brigade's reports, each one decision. */

const noPreview = { preview: async () => null };
const DAY = 86_400_000;

afterEach(() => setAutoHideReports(env.AUTO_HIDE_REPORTS));

const postRow = async (id: number) => first(await db.select().from(posts).where(eq(posts.id, id)));
const commentRow = async (id: number) => first(await db.select().from(comments).where(eq(comments.id, id)));
const logOf = async (userId: number) =>
  (
    await db
      .select()
      .from(moderationLog)
      .where(and(eq(moderationLog.targetType, "user"), eq(moderationLog.targetId, userId)))
  ).map((r) => [r.action, r.reason]);

/** A spammer with two posts and a comment from today, and a post and a comment from ten days ago. */
async function spammer() {
  const spam = await createMember();
  const other = await createMember();
  const host = await createPost(other, postInput({ title: "Opening day" }), noPreview);
  const recent = [
    await createPost(spam, postInput({ title: "Cheap scopes 1" }), noPreview),
    await createPost(spam, postInput({ title: "Cheap scopes 2" }), noPreview),
  ];
  const recentComment = await addComment(spam, host.id, { content: "buy scopes here" });
  const old = await createPost(spam, postInput({ title: "Last season's buck" }), noPreview);
  const oldComment = await addComment(spam, host.id, { content: "Nice one" });
  const tenDaysAgo = new Date(Date.now() - 10 * DAY);
  await db.update(posts).set({ createdAt: tenDaysAgo }).where(eq(posts.id, old.id));
  await db.update(comments).set({ createdAt: tenDaysAgo }).where(eq(comments.id, oldComment.id));
  return { spam, other, host, recent, recentComment, old, oldComment };
}

describe("purge: a member's last days removed in one decision", () => {
  it("removes every post and comment of the window with the reason, closes their cases, keeps the older ones, one log entry", async () => {
    const s = await spammer();
    const moderator = await createStaff("moderator");
    const reporter = await createMember();
    await reportTarget(reporter, { targetType: "post", targetId: s.recent[0]!.id, reason: "spam" });

    const result = await purgeMember(moderator, s.spam.username, { reason: "Scope spam", days: 2 });
    expect(result).toEqual({ username: s.spam.username, posts: 2, comments: 1 });
    for (const post of s.recent)
      expect(await postRow(post.id)).toMatchObject({ removalReason: "Scope spam", removedBy: "site", hiddenAt: expect.any(Date) });
    expect(await commentRow(s.recentComment.id)).toMatchObject({ removalReason: "Scope spam", removedBy: "site" });
    expect(await postRow(s.old.id)).toMatchObject({ hiddenAt: null, removalReason: null });
    expect(await commentRow(s.oldComment.id)).toMatchObject({ hiddenAt: null });
    const cases = await db.select().from(moderationCases).where(eq(moderationCases.targetId, s.recent[0]!.id));
    expect(cases.map((c) => [c.status, c.decision, c.decidedBy])).toEqual([["closed", "purge", moderator.username]]);
    expect(await logOf(s.spam.id)).toEqual([["purge", "Scope spam (2 posts, 1 comment of the last 2 days)"]]);
    expect(await counterMismatches()).toBe(0);
  });

  it("refuses a visitor 401, a member 403, a moderator on staff 403, oneself 403, a missing member 404 and a bad reason or days 400, changing nothing", async () => {
    const s = await spammer();
    const moderator = await createStaff("moderator");
    const otherModerator = await createStaff("moderator");
    const member = await createMember();
    const input = { reason: "Scope spam", days: 2 };
    await expectError(() => purgeMember(null, s.spam.username, input), 401);
    await expectError(() => purgeMember(member, s.spam.username, input), 403);
    await expectError(() => purgeMember(moderator, otherModerator.username, input), 403);
    await expectError(() => purgeMember(moderator, moderator.username, input), 403);
    await expectError(() => purgeMember(moderator, "nobody_here", input), 404);
    await expectError(() => purgeMember(moderator, s.spam.username, { reason: " ", days: 2 }), 400);
    await expectError(() => purgeMember(moderator, s.spam.username, { reason: "Scope spam", days: 0 }), 400);
    await expectError(() => purgeMember(moderator, s.spam.username, { reason: "Scope spam" }), 400);
    for (const post of s.recent) expect(await postRow(post.id)).toMatchObject({ hiddenAt: null });
    expect(await logOf(s.spam.id)).toEqual([]);
    // An admin may purge a moderator.
    const admin = await createStaff("admin");
    expect(await purgeMember(admin, otherModerator.username, input)).toEqual({ username: otherModerator.username, posts: 0, comments: 0 });
  });
});

describe("dismiss every open report by a member: a false brigade cleared in one decision", () => {
  it("dismisses each open case the member reported, brings back what reports hid, leaves other cases and removals, one log entry", async () => {
    setAutoHideReports(2);
    const author = await createMember();
    const [brigadeA, brigadeB, honest] = [await createMember(), await createMember(), await createMember()];
    for (const m of [brigadeA, brigadeB, honest]) await ageAccount(m.id);
    const targeted = await createPost(author, postInput({ title: "Public land tips" }), noPreview);
    const alsoTargeted = await createPost(author, postInput({ title: "Scouting in August" }), noPreview);
    const realSpam = await createPost(author, postInput({ title: "Buy followers" }), noPreview);
    for (const post of [targeted, alsoTargeted]) {
      for (const m of [brigadeA, brigadeB]) await reportTarget(m, { targetType: "post", targetId: post.id, reason: "spam" });
    }
    await reportTarget(honest, { targetType: "post", targetId: realSpam.id, reason: "spam" });
    expect(await postRow(targeted.id)).toMatchObject({ hiddenAt: expect.any(Date), removalReason: null });
    const moderator = await createStaff("moderator");
    expect((await memberForStaff(moderator, brigadeA.username)).openReports).toBe(2);

    expect(await dismissReportsBy(moderator, brigadeA.username)).toEqual({ username: brigadeA.username, cases: 2 });
    for (const post of [targeted, alsoTargeted]) expect(await postRow(post.id)).toMatchObject({ hiddenAt: null });
    const open = await db
      .select()
      .from(moderationCases)
      .where(and(eq(moderationCases.status, "open"), eq(moderationCases.targetType, "post")));
    expect(open.map((c) => c.targetId)).toContain(realSpam.id);
    expect(open.map((c) => c.targetId)).not.toContain(targeted.id);
    expect(open.map((c) => c.targetId)).not.toContain(alsoTargeted.id);
    const dismissed = await db.select().from(moderationCases).where(eq(moderationCases.targetId, targeted.id));
    expect(dismissed.map((c) => [c.status, c.decision, c.decidedBy])).toEqual([["closed", "dismiss_reports", moderator.username]]);
    expect(await logOf(brigadeA.id)).toEqual([["dismiss_reports", "2 open cases this member reported"]]);
    expect((await memberForStaff(moderator, brigadeA.username)).openReports).toBe(0);
    expect((await memberForStaff(moderator, brigadeB.username)).openReports).toBe(0);
    expect(await counterMismatches()).toBe(0);
  });

  it("refuses a visitor 401, a member 403 and a missing member 404, changing nothing", async () => {
    const reporter = await createMember();
    const post = await createPost(await createMember(), postInput(), noPreview);
    await reportTarget(reporter, { targetType: "post", targetId: post.id, reason: "spam" });
    await expectError(() => dismissReportsBy(null, reporter.username), 401);
    const member = await createMember();
    const moderator = await createStaff("moderator");
    await expectError(() => dismissReportsBy(member, reporter.username), 403);
    await expectError(() => dismissReportsBy(moderator, "nobody_here"), 404);
    const cases = await db.select().from(moderationCases).where(eq(moderationCases.targetId, post.id));
    expect(cases.filter((c) => c.targetType === "post").map((c) => c.status)).toEqual(["open"]);
  });
});

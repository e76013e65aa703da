import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { moderationCases, posts } from "#db/schema";
import * as purgeApi from "~/routes/api.moderation.users.$username.purge";
import * as queuePage from "~/routes/moderation/route";
import * as staffPage from "~/routes/moderation_.members.$username/route";
import { reportTarget } from "~/models/moderation/report.server";
import { createPost } from "~/models/posts/post.server";
import { db, first } from "~/utils/db.server";
import { call, createMember, makeRequest } from "../fixtures/members";
import { createStaff } from "../fixtures/moderation";
import { postInput } from "../fixtures/posts";

/**
 * CONTRACT.md §12 "Spam waves" over HTTP: POST /api/moderation/users/{username}/purge, and the staff
 * page's plain forms (JavaScript off: a form post, a redirect with a toast, or the form back with what
 * was typed) for the purge and "Dismiss every open report by".
 */

const noPreview = { preview: async () => null };
const purge = (cookie: string | null, username: string, body: unknown) =>
  call(purgeApi.action, makeRequest(`/api/moderation/users/${username}/purge`, { json: body, cookie }), { username });
const page = (cookie: string | null, username: string, form: Record<string, string>) =>
  call(staffPage.action, makeRequest(`/moderation/members/${username}`, { form, cookie }), { username });
const open = (cookie: string | null, username: string) =>
  call(staffPage.loader, makeRequest(`/moderation/members/${username}`, { cookie }), { username });
const hidden = async (id: number) =>
  first(await db.select({ hiddenAt: posts.hiddenAt }).from(posts).where(eq(posts.id, id)))?.hiddenAt ?? null;

describe("POST /api/moderation/users/{username}/purge", () => {
  it("visitor 401, member 403, bad input 400, each changing nothing; a moderator gets 200 with the counts", async () => {
    const spam = await createMember();
    const post = await createPost(spam, postInput({ title: "Cheap scopes" }), noPreview);
    const member = await createMember();
    const moderator = await createStaff("moderator");
    expect((await purge(null, spam.username, { reason: "Spam", days: 1 })).status).toBe(401);
    expect((await purge(member.cookie, spam.username, { reason: "Spam", days: 1 })).status).toBe(403);
    const bad = await purge(moderator.cookie, spam.username, { reason: "Spam", days: 1000 });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ fieldErrors: { days: ["Days can be at most 365"] } });
    expect(await hidden(post.id)).toBeNull();
    const ok = await purge(moderator.cookie, spam.username, { reason: "Spam", days: 1 });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ username: spam.username, posts: 1, comments: 0 });
    expect(await hidden(post.id)).not.toBeNull();
  });
});

describe("the staff page's forms", () => {
  it("a purge with a bad number of days comes back with the reason typed; a good one redirects with a toast", async () => {
    const spam = await createMember();
    const post = await createPost(spam, postInput(), noPreview);
    const moderator = await createStaff("moderator");
    const bad = await page(moderator.cookie, spam.username, { intent: "purge", reason: "Scope spam", days: "" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      intent: "purge",
      values: { reason: "Scope spam", days: "" },
      fieldErrors: { days: expect.any(Array) },
    });
    expect(await hidden(post.id)).toBeNull();
    const ok = await page(moderator.cookie, spam.username, { intent: "purge", reason: "Scope spam", days: "3" });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe(`/moderation/members/${spam.username}`);
    expect(await hidden(post.id)).not.toBeNull();
    const seen = await (await open(moderator.cookie, spam.username)).json();
    expect(seen.log).toEqual([expect.objectContaining({ action: "purge", reason: "Scope spam (1 post, 0 comments of the last 3 days)" })]);
  });

  it("shows how many open cases a member reported and dismisses them in one form post; a member may not", async () => {
    const reporter = await createMember();
    const author = await createMember();
    const target = await createPost(author, postInput(), noPreview);
    await reportTarget(reporter, { targetType: "post", targetId: target.id, reason: "spam" });
    const moderator = await createStaff("moderator");
    expect(await (await open(moderator.cookie, reporter.username)).json()).toMatchObject({ openReports: 1 });
    expect((await page(author.cookie, reporter.username, { intent: "dismiss-reports" })).status).toBe(403);
    const ok = await page(moderator.cookie, reporter.username, { intent: "dismiss-reports" });
    expect(ok.status).toBe(302);
    const cases = await db.select().from(moderationCases).where(eq(moderationCases.targetId, target.id));
    expect(cases.filter((c) => c.targetType === "post").map((c) => c.status)).toEqual(["closed"]);
    expect(await (await open(moderator.cookie, reporter.username)).json()).toMatchObject({ openReports: 0 });
  });
});

describe("the queue offers the member's page beside each case", () => {
  it("names the member a case is about, and site staff get the link to suspend or purge them", async () => {
    const author = await createMember();
    const post = await createPost(author, postInput({ title: "Link farm" }), noPreview);
    await reportTarget(await createMember(), { targetType: "post", targetId: post.id, reason: "spam" });
    const moderator = await createStaff("moderator");
    const queue = await (await call(queuePage.loader, makeRequest("/moderation", { cookie: moderator.cookie }))).json();
    expect(queue.siteStaff).toBe(true);
    expect(queue.cases.entries.find((e: { targetId: number }) => e.targetId === post.id)).toMatchObject({ subject: author.username });
  });
});

import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  moderationCases,
  moderationLog,
  posts,
  reports,
  users,
  REPORT_REASONS as DB_REASONS,
  REPORT_TARGETS as DB_TARGETS,
} from "#db/schema";
import { expectError, newClub } from "#tests/fixtures/clubs";
import { createMember } from "#tests/fixtures/members";
import { ageAccount } from "#tests/fixtures/new-accounts";
import { createStaff, setClubRole } from "#tests/fixtures/moderation";
import { postInput } from "#tests/fixtures/posts";
import { REPORT_REASONS, REPORT_TARGETS } from "~/schemas/report";
import { db, first } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { addComment, updateComment } from "~/models/posts/comment.server";
import { createPost, updatePost } from "~/models/posts/post.server";
import { decideCase, getCase, moderationQueue, reportTarget, setAutoHideReports } from "./report.server";
import { limitsOff, limitsOn } from "#tests/fixtures/limits-clock";

type M = Awaited<ReturnType<typeof createMember>>;

const newPost = (author: M, over: Parameters<typeof postInput>[0] = {}) => createPost(author, postInput(over));

/** Everything the moderation tables hold, to check that a refusal changed nothing. */
async function tables() {
  return {
    cases: await db.select().from(moderationCases).orderBy(moderationCases.id),
    reports: await db.select().from(reports).orderBy(reports.id),
    log: await db.select().from(moderationLog).orderBy(moderationLog.id),
    posts: await db.select({ id: posts.id, hiddenAt: posts.hiddenAt, removalReason: posts.removalReason }).from(posts).orderBy(posts.id),
  };
}

async function expectRefused(fn: () => unknown, status: number) {
  const before = await tables();
  await expectError(fn, status);
  expect(await tables()).toEqual(before);
}

const postRow = async (id: number) => first(await db.select().from(posts).where(eq(posts.id, id)))!;
const openCase = async (type: "post" | "comment" | "user" | "club", id: number) =>
  first(
    await db
      .select()
      .from(moderationCases)
      .where(and(eq(moderationCases.targetType, type), eq(moderationCases.targetId, id), eq(moderationCases.status, "open"))),
  );

describe("report lists", () => {
  it("the form's lists are the database's", () => {
    expect(REPORT_REASONS).toEqual(DB_REASONS);
    expect(REPORT_TARGETS).toEqual(DB_TARGETS);
    expect(env.AUTO_HIDE_REPORTS).toBe(3);
  });
});

describe("reportTarget (CONTRACT.md §8 Reports)", () => {
  it("stores a report with the text as it was, and keeps it after the author edits", async () => {
    const author = await createMember();
    const reporter = await createMember();
    const post = await newPost(author, { title: "Baiting over the line", content: "Corn pile at the stand." });
    const { id } = await reportTarget(reporter, {
      targetType: "post",
      targetId: post.id,
      reason: "illegal",
      details: "  Baiting is illegal here  ",
    });
    await updatePost(author, post.id, { title: "Edited", content: "Nothing to see", mediaUrl: null, tags: null });

    const row = first(await db.select().from(reports).where(eq(reports.id, id)))!;
    expect(row).toMatchObject({ reporterId: reporter.id, reason: "illegal", details: "Baiting is illegal here" });
    expect(row.snapshot).toBe("Baiting over the line\n\nCorn pile at the stand.");
    const moderator = await createStaff("moderator");
    const [entry] = (await moderationQueue(moderator)).entries;
    expect(entry).toMatchObject({
      targetType: "post",
      targetId: post.id,
      snapshot: "Baiting over the line\n\nCorn pile at the stand.",
      current: "Edited\n\nNothing to see",
      state: "visible",
      status: "open",
      reports: [{ reason: "illegal", details: "Baiting is illegal here" }],
    });
  });

  it("snapshots comments, members and clubs; the case names the author, the member, the club's owner", async () => {
    const owner = await createMember({ displayName: "Club Owner" });
    const club = await newClub(owner, { name: "Creek Bottom Lease", description: "Bowhunters", isPrivate: false });
    const author = await createMember({ displayName: "Cam Tracker" });
    const reporter = await createMember();
    await setClubRole(club.id, author.id, "member");
    const post = await newPost(author, { clubId: club.id });
    const comment = await addComment(author, post.id, { content: "A rude reply" });

    await reportTarget(reporter, { targetType: "comment", targetId: comment.id, reason: "harassment" });
    await reportTarget(reporter, { targetType: "user", targetId: author.id, reason: "spam" });
    await reportTarget(reporter, { targetType: "club", targetId: club.id, reason: "other", details: "Sells tags" });
    await updateComment(author, comment.id, { content: "Edited reply" });

    expect(await openCase("comment", comment.id)).toMatchObject({ clubId: club.id, subjectId: author.id, snapshot: "A rude reply" });
    expect((await openCase("user", author.id))!.snapshot).toBe(`Cam Tracker (@${author.username})`);
    expect(await openCase("user", author.id)).toMatchObject({ clubId: null, subjectId: author.id });
    // A club's own staff never see (nor dismiss) reports about their club: site staff do.
    expect(await openCase("club", club.id)).toMatchObject({
      clubId: null,
      subjectId: owner.id,
      snapshot: "Creek Bottom Lease\n\nBowhunters",
    });
    const moderator = await createStaff("moderator");
    expect((await moderationQueue(moderator)).entries.some((e) => e.targetType === "club" && e.targetId === club.id)).toBe(true);
    expect((await moderationQueue(owner)).entries.some((e) => e.targetType === "club")).toBe(false);
    const comments = (await moderationQueue(moderator)).entries.filter((e) => e.targetType === "comment");
    expect(comments[0]).toMatchObject({
      snapshot: "A rude reply",
      current: "Edited reply",
      href: `/post/${post.id}#comment-${comment.id}`,
    });
  });

  it("refuses: 401 signed out, 400 bad input or own content, 404 nothing there or unreadable, 409 twice; a refusal changes nothing", async () => {
    const author = await createMember();
    const reporter = await createMember();
    const post = await newPost(author);
    const owner = await createMember();
    const privateClub = await newClub(owner, { name: "Private Lease", isPrivate: true });
    const secret = await newPost(owner, { clubId: privateClub.id });

    await expectRefused(() => reportTarget(null, { targetType: "post", targetId: post.id, reason: "spam" }), 401);
    await expectRefused(() => reportTarget(reporter, { targetType: "post", targetId: post.id, reason: "rude" }), 400);
    await expectRefused(() => reportTarget(reporter, { targetType: "thing", targetId: post.id, reason: "spam" }), 400);
    await expectRefused(
      () => reportTarget(reporter, { targetType: "post", targetId: post.id, reason: "spam", details: "x".repeat(1001) }),
      400,
    );
    await expectRefused(() => reportTarget(author, { targetType: "post", targetId: post.id, reason: "spam" }), 400);
    await expectRefused(() => reportTarget(author, { targetType: "user", targetId: author.id, reason: "spam" }), 400);
    await expectRefused(() => reportTarget(owner, { targetType: "club", targetId: privateClub.id, reason: "spam" }), 400);
    await expectRefused(() => reportTarget(reporter, { targetType: "post", targetId: 999_999, reason: "spam" }), 404);
    await expectRefused(() => reportTarget(reporter, { targetType: "comment", targetId: 999_999, reason: "spam" }), 404);
    await expectRefused(() => reportTarget(reporter, { targetType: "user", targetId: 999_999, reason: "spam" }), 404);
    await expectRefused(() => reportTarget(reporter, { targetType: "post", targetId: secret.id, reason: "spam" }), 404);

    await reportTarget(reporter, { targetType: "post", targetId: post.id, reason: "spam", details: "x".repeat(1000) });
    await expectRefused(() => reportTarget(reporter, { targetType: "post", targetId: post.id, reason: "other" }), 409);
    // A member of the private club may report its post.
    await setClubRole(privateClub.id, reporter.id, "member");
    await reportTarget(reporter, { targetType: "post", targetId: secret.id, reason: "spam" });
  });

  it("reports of one target share its open case; two first reports at once end in one case", async () => {
    const author = await createMember();
    const post = await newPost(author);
    const [a, b, c] = [await createMember(), await createMember(), await createMember()];
    setAutoHideReports(10);
    try {
      await Promise.all([a, b].map((m) => reportTarget(m, { targetType: "post", targetId: post.id, reason: "spam" })));
      await reportTarget(c, { targetType: "post", targetId: post.id, reason: "off_topic" });
    } finally {
      setAutoHideReports(env.AUTO_HIDE_REPORTS);
    }
    const cases = await db
      .select()
      .from(moderationCases)
      .where(and(eq(moderationCases.targetType, "post"), eq(moderationCases.targetId, post.id)));
    expect(cases).toHaveLength(1);
    const rows = await db
      .select()
      .from(reports)
      .where(and(eq(reports.targetType, "post"), eq(reports.targetId, post.id)));
    expect(rows.map((r) => r.caseId)).toEqual([cases[0]!.id, cases[0]!.id, cases[0]!.id]);
    const moderator = await createStaff("moderator");
    const entry = await getCase(moderator, cases[0]!.id);
    expect(entry.reports.map((r) => r.reason).sort()).toEqual(["off_topic", "spam", "spam"]);
  });

  it("hides a post at AUTO_HIDE_REPORTS reports from different established members, and not before", async () => {
    const author = await createMember();
    const post = await newPost(author);
    const postsCount = async () => first(await db.select({ n: users.postsCount }).from(users).where(eq(users.id, author.id)))!.n;
    const before = await postsCount();
    const [a, b, c] = [await established(), await established(), await established()];
    await reportTarget(a, { targetType: "post", targetId: post.id, reason: "spam" });
    // The same member again is refused and does not count.
    await expectError(() => reportTarget(a, { targetType: "post", targetId: post.id, reason: "spam" }), 409);
    await reportTarget(b, { targetType: "post", targetId: post.id, reason: "spam" });
    expect((await postRow(post.id)).hiddenAt).toBeNull();
    await reportTarget(c, { targetType: "post", targetId: post.id, reason: "harassment" });
    const row = await postRow(post.id);
    expect(row.hiddenAt).not.toBeNull();
    expect(row.removalReason).toBeNull();
    expect(await postsCount()).toBe(before - 1);
    const log = await db
      .select()
      .from(moderationLog)
      .where(and(eq(moderationLog.targetType, "post"), eq(moderationLog.targetId, post.id)));
    expect(log).toMatchObject([{ action: "hide", actorId: null, targetType: "post" }]);
    // Hidden now: nobody else can report it.
    const late = await createMember();
    await expectError(() => reportTarget(late, { targetType: "post", targetId: post.id, reason: "spam" }), 404);
  });

  it("a case about club staff's own post goes to the site's queue: the owner cannot dismiss it (security-3 P3)", async () => {
    const owner = await createMember();
    const club = await newClub(owner, { isPrivate: false });
    const post = await newPost(owner, { clubId: club.id });
    for (let i = 0; i < env.AUTO_HIDE_REPORTS; i++)
      await reportTarget(await established(), { targetType: "post", targetId: post.id, reason: "spam" });
    expect((await postRow(post.id)).hiddenAt).not.toBeNull();
    const open = (await openCase("post", post.id))!;
    expect(open.clubId).toBeNull();
    expect((await moderationQueue(owner)).entries.some((e) => e.id === open.id)).toBe(false);
    await expectRefused(() => decideCase(owner, open.id, { action: "dismiss" }), 403);
    // A case from before (in the club's queue) about its staff: still not theirs to decide.
    const member = await createMember();
    await setClubRole(club.id, member.id, "member");
    const memberPost = await newPost(member, { clubId: club.id });
    await reportTarget(await established(), { targetType: "post", targetId: memberPost.id, reason: "spam" });
    const later = (await openCase("post", memberPost.id))!;
    expect(later.clubId).toBe(club.id);
    await setClubRole(club.id, member.id, "admin");
    await expectRefused(() => decideCase(owner, later.id, { action: "dismiss" }), 403);
    // Site staff decide both.
    const moderator = await createStaff("moderator");
    await decideCase(moderator, open.id, { action: "dismiss" });
    expect((await postRow(post.id)).hiddenAt).toBeNull();
    await decideCase(moderator, later.id, { action: "dismiss" });
  });

  it("a brigade of new accounts reaches the queue and hides nothing (security-3 P2)", async () => {
    const author = await createMember();
    const targets = [await newPost(author), await newPost(await createMember())];
    const brigade = [await createMember(), await createMember(), await createMember()];
    for (const post of targets) for (const m of brigade) await reportTarget(m, { targetType: "post", targetId: post.id, reason: "spam" });
    for (const post of targets) {
      expect((await postRow(post.id)).hiddenAt, "new accounts hide nothing").toBeNull();
      expect((await openCase("post", post.id))!.id).toBeGreaterThan(0);
    }
    // Two established members on top still fall short: the new accounts weigh nothing.
    const post = targets[0]!;
    for (let i = 0; i < 2; i++) await reportTarget(await established(), { targetType: "post", targetId: post.id, reason: "spam" });
    expect((await postRow(post.id)).hiddenAt).toBeNull();
    await reportTarget(await established(), { targetType: "post", targetId: post.id, reason: "spam" });
    expect((await postRow(post.id)).hiddenAt).not.toBeNull();
  });

  it("a suspended member's report does not count toward hiding, and staff content is never hidden by reports", async () => {
    const post = await newPost(await createMember());
    const [a, b, suspended] = [await established(), await established(), await established()];
    await db
      .update(users)
      .set({ suspendedAt: new Date(), suspendedUntil: null, suspensionReason: "Brigading" })
      .where(eq(users.id, suspended.id));
    for (const m of [a, b, suspended]) await reportTarget(m, { targetType: "post", targetId: post.id, reason: "spam" });
    expect((await postRow(post.id)).hiddenAt).toBeNull();

    const moderator = await createStaff("moderator");
    const staffPost = await newPost(moderator);
    for (let i = 0; i < 4; i++) await reportTarget(await established(), { targetType: "post", targetId: staffPost.id, reason: "spam" });
    expect((await postRow(staffPost.id)).hiddenAt).toBeNull();
    expect((await openCase("post", staffPost.id))!.id).toBeGreaterThan(0);
  });

  it("a member files at most 10 reports an hour (429), and the refused one changes nothing", async () => {
    const reporter = await createMember();
    const author = await createMember();
    const many: { id: number }[] = [];
    for (let i = 0; i < 11; i++) many.push(await newPost(author));
    limitsOn();
    try {
      for (const post of many.slice(0, 10)) await reportTarget(reporter, { targetType: "post", targetId: post.id, reason: "spam" });
      await expectRefused(() => reportTarget(reporter, { targetType: "post", targetId: many[10]!.id, reason: "spam" }), 429);
    } finally {
      limitsOff();
    }
    expect(await openCase("post", many[10]!.id)).toBeUndefined();
  });

  it("hides a comment at the threshold too", async () => {
    const author = await createMember();
    const post = await newPost(await createMember());
    const comment = await addComment(author, post.id, { content: "Buy cheap tags here" });
    for (let i = 0; i < 3; i++) await reportTarget(await established(), { targetType: "comment", targetId: comment.id, reason: "spam" });
    const moderator = await createStaff("moderator");
    const entry = (await moderationQueue(moderator)).entries.find((e) => e.targetType === "comment" && e.targetId === comment.id)!;
    expect(entry.state).toBe("hidden");
    expect(first(await db.select({ n: posts.commentsCount }).from(posts).where(eq(posts.id, post.id)))!.n).toBe(0);
  });
});

describe("the queue and decisions (CONTRACT.md §8 Queue)", () => {
  async function cast() {
    const owner = await createMember();
    const club = await newClub(owner, { name: "Creek Bottom Lease", isPrivate: false });
    const other = await newClub(await createMember(), { name: "Ridge Runners", isPrivate: false });
    const clubAdmin = await createMember();
    await setClubRole(club.id, clubAdmin.id, "admin");
    const clubMember = await createMember();
    await setClubRole(club.id, clubMember.id, "member");
    const author = await createMember();
    await setClubRole(club.id, author.id, "member");
    await setClubRole(other.id, author.id, "member");
    const reporter = await createMember({ displayName: "Secret Reporter" });
    const moderator = await createStaff("moderator");
    const admin = await createStaff("admin");
    const inClub = await newPost(author, { clubId: club.id, title: "In the club" });
    const inOther = await newPost(author, { clubId: other.id, title: "In the other club" });
    const outside = await newPost(author, { title: "Outside clubs" });
    for (const p of [inClub, inOther, outside]) await reportTarget(reporter, { targetType: "post", targetId: p.id, reason: "spam" });
    await reportTarget(reporter, { targetType: "user", targetId: author.id, reason: "harassment", details: "Threats" });
    return { owner, club, other, clubAdmin, clubMember, author, reporter, moderator, admin, inClub, inOther, outside };
  }

  it("site staff see every case, club staff their clubs', others get 403, visitors 401", async () => {
    const t = await cast();
    for (const staff of [t.moderator, t.admin]) {
      const ids = (await moderationQueue(staff)).entries.map((e) => e.targetId);
      expect(ids.slice(0, 4)).toEqual([t.author.id, t.outside.id, t.inOther.id, t.inClub.id]);
    }
    for (const staff of [t.owner, t.clubAdmin]) {
      const entries = (await moderationQueue(staff)).entries;
      expect(entries.map((e) => [e.targetType, e.targetId])).toEqual([["post", t.inClub.id]]);
    }
    for (const nobody of [t.clubMember, t.author, t.reporter]) await expectError(() => moderationQueue(nobody), 403);
    await expectError(() => moderationQueue(null), 401);
    expect((await moderationQueue(t.moderator, { status: "closed" })).entries.map((e) => e.targetId)).not.toContain(t.inClub.id);
  });

  it("pages newest first with a keyset cursor", async () => {
    const t = await cast();
    const first2 = await moderationQueue(t.moderator, { limit: 2 });
    expect(first2.entries.map((e) => e.targetId)).toEqual([t.author.id, t.outside.id]);
    const next = await moderationQueue(t.moderator, { limit: 2, cursor: first2.nextCursor });
    expect(next.entries.map((e) => e.targetId)).toEqual([t.inOther.id, t.inClub.id]);
  });

  it("never names the reporter in any queue output", async () => {
    const t = await cast();
    for (const viewer of [t.moderator, t.owner]) {
      const text = JSON.stringify(await moderationQueue(viewer));
      expect(text).not.toContain(t.reporter.username);
      expect(text).not.toContain("Secret Reporter");
      expect(text).not.toContain("reporter");
      for (const entry of (await moderationQueue(viewer)).entries) {
        for (const report of entry.reports) expect(Object.keys(report).sort()).toEqual(["createdAt", "details", "reason"]);
      }
    }
  });

  it("dismiss closes the case, brings auto-hidden content back and logs it; deciding again is 409", async () => {
    const author = await createMember();
    const post = await newPost(author);
    for (let i = 0; i < 3; i++) await reportTarget(await established(), { targetType: "post", targetId: post.id, reason: "spam" });
    expect((await postRow(post.id)).hiddenAt).not.toBeNull();
    const moderator = await createStaff("moderator");
    const caseRow = (await openCase("post", post.id))!;
    expect(await decideCase(moderator, caseRow.id, { action: "dismiss" })).toEqual({ status: "closed" });
    expect((await postRow(post.id)).hiddenAt).toBeNull();
    const closed = await moderationQueue(moderator, { status: "closed" });
    expect(closed.entries[0]).toMatchObject({ id: caseRow.id, status: "closed", state: "visible" });
    expect(closed.entries[0]!.closedAt).not.toBeNull();
    // The case says how it was decided, and by whom (ux-3 U13).
    expect(closed.entries[0]!.decision).toEqual({ action: "dismiss", by: moderator.username });
    const log = await db
      .select()
      .from(moderationLog)
      .where(and(eq(moderationLog.targetType, "post"), eq(moderationLog.targetId, post.id)))
      .orderBy(moderationLog.id);
    expect(log.map((l) => [l.action, l.actorName])).toEqual([
      ["hide", expect.any(String)],
      ["dismiss", moderator.username],
    ]);
    await expectRefused(() => decideCase(moderator, caseRow.id, { action: "dismiss" }), 409);
    // A new report opens a new case.
    await reportTarget(await createMember(), { targetType: "post", targetId: post.id, reason: "spam" });
    expect((await openCase("post", post.id))!.id).not.toBe(caseRow.id);
  });

  it("remove takes the content down with a reason and closes the case; members and clubs are not removed here", async () => {
    const t = await cast();
    const postCase = (await openCase("post", t.inClub.id))!;
    await expectRefused(() => decideCase(t.clubAdmin, postCase.id, { action: "remove" }), 400);
    await expectRefused(() => decideCase(t.clubAdmin, postCase.id, { action: "remove", reason: "  " }), 400);
    await decideCase(t.clubAdmin, postCase.id, { action: "remove", reason: "Selling tags" });
    const row = await postRow(t.inClub.id);
    expect(row.removalReason).toBe("Selling tags");
    expect(row.hiddenAt).not.toBeNull();
    expect((await getCase(t.owner, postCase.id)).status).toBe("closed");
    expect((await getCase(t.owner, postCase.id)).state).toBe("removed");
    expect((await getCase(t.owner, postCase.id)).decision).toEqual({ action: "remove", by: t.clubAdmin.username });

    const userCase = (await openCase("user", t.author.id))!;
    await expectRefused(() => decideCase(t.moderator, userCase.id, { action: "remove", reason: "Threats" }), 400);
    await decideCase(t.moderator, userCase.id, { action: "dismiss" });
    expect((await getCase(t.moderator, userCase.id)).status).toBe("closed");
  });

  it("only staff whose scope covers the case decide it; every refusal changes nothing", async () => {
    const t = await cast();
    const inOther = (await openCase("post", t.inOther.id))!;
    const outside = (await openCase("post", t.outside.id))!;
    const userCase = (await openCase("user", t.author.id))!;
    for (const staff of [t.owner, t.clubAdmin]) {
      await expectRefused(() => decideCase(staff, inOther.id, { action: "dismiss" }), 403);
      await expectRefused(() => decideCase(staff, outside.id, { action: "remove", reason: "Spam" }), 403);
      await expectRefused(() => decideCase(staff, userCase.id, { action: "dismiss" }), 403);
      await expectError(() => getCase(staff, outside.id), 403);
    }
    for (const nobody of [t.clubMember, t.author, t.reporter]) {
      await expectRefused(() => decideCase(nobody, inOther.id, { action: "dismiss" }), 403);
    }
    await expectRefused(() => decideCase(null, inOther.id, { action: "dismiss" }), 401);
    await expectRefused(() => decideCase(t.moderator, 999_999, { action: "dismiss" }), 404);
    await expectRefused(() => decideCase(t.moderator, inOther.id, { action: "ban" }), 400);
    await decideCase(t.admin, outside.id, { action: "remove", reason: "Spam" });
    expect((await postRow(t.outside.id)).removalReason).toBe("Spam");
  });

  it("a case whose content was deleted shows it as deleted and can be dismissed", async () => {
    const t = await cast();
    const c = (await openCase("post", t.outside.id))!;
    await db.delete(posts).where(eq(posts.id, t.outside.id));
    const entry = await getCase(t.moderator, c.id);
    expect(entry).toMatchObject({ current: null, state: "deleted", href: null, snapshot: expect.stringContaining("Outside clubs") });
    await decideCase(t.moderator, c.id, { action: "dismiss" });
    const log = first(
      await db
        .select()
        .from(moderationLog)
        .where(and(eq(moderationLog.targetId, t.outside.id), eq(moderationLog.action, "dismiss"))),
    );
    expect(log?.targetLabel).toBe("Outside clubs");
  });
});

/** A member past NEW_ACCOUNT_HOURS: only their reports count toward auto-hide (CONTRACT.md §12). */
async function established() {
  const member = await createMember();
  await ageAccount(member.id);
  return member;
}

import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { moderationCases, notifications, type ReportReason } from "#db/schema";
import { expectError, newClub } from "#tests/fixtures/clubs";
import { createMember } from "#tests/fixtures/members";
import { createStaff, setClubRole, setSiteRole } from "#tests/fixtures/moderation";
import { postInput } from "#tests/fixtures/posts";
import { db } from "~/utils/db.server";
import { addComment } from "~/models/posts/comment.server";
import { createPost } from "~/models/posts/post.server";
import { listNotifications, markRead, unreadCount } from "~/models/notifications/notification.server";
import { updateNotificationSettings } from "~/models/notifications/notification-settings.server";
import { removeContent, restoreContent } from "./moderation-removal.server";
import { decideCase, moderationQueue, reportTarget } from "./report.server";
import { moderationBadge } from "./report-notice.server";
import { memberForStaff, suspendMember } from "./suspension.server";

/**
 * Staff told of reports (ux-3 U23, docs/decisions/0086-staff-told-of-reports.md): who hears of a new
 * case and who never does, once per case; the top bar's count of open cases; the queue's author; a
 * member's history on their staff page.
 */

type M = Awaited<ReturnType<typeof createMember>>;

const reportNotices = async (member: { id: number }) => (await listNotifications(member)).items.filter((item) => item.kind === "report");
/** Every staff notice about this post's cases (each test's database is the file's: other tests' cases are there too). */
const reportRowsAbout = async (postId: number) =>
  db
    .select({ id: notifications.id })
    .from(notifications)
    .innerJoin(moderationCases, eq(moderationCases.id, notifications.caseId))
    .where(and(eq(notifications.kind, "report"), eq(moderationCases.targetType, "post"), eq(moderationCases.targetId, postId)));
const report = (reporter: M, targetType: "post" | "comment" | "user" | "club", targetId: number, reason: ReportReason = "spam") =>
  reportTarget(reporter, { targetType, targetId, reason });

describe("a report that opens a case tells the staff who may decide it", () => {
  it("site moderators and admins hear of a post outside clubs; never the reporter, the author or another member", async () => {
    const author = await createMember({ displayName: "Hank Author" });
    const reporter = await createMember({ displayName: "Quiet Reporter" });
    const bystander = await createMember();
    const moderator = await createStaff("moderator");
    const admin = await createStaff("admin");
    const reportingModerator = await createStaff("moderator");
    const clubOwner = await createMember();
    await newClub(clubOwner);
    const post = await createPost(author, postInput({ title: "Cheap scopes, DM me" }));

    await report(reporter, "post", post.id);

    for (const staff of [moderator, admin, reportingModerator]) {
      const items = await reportNotices(staff);
      expect(items, `staff ${staff.username}`).toHaveLength(1);
      expect(items[0]).toMatchObject({
        text: "New report: a post “Cheap scopes, DM me” (spam)",
        href: "/moderation",
        actors: [],
        actorCount: 1,
      });
      // Never who reported it.
      expect(JSON.stringify(items[0])).not.toContain(reporter.username);
      expect(JSON.stringify(items[0])).not.toContain("Quiet Reporter");
      expect(await unreadCount(staff.id)).toBe(1);
    }
    // A club's staff hear nothing of a post outside their club; the reporter, author and others nothing at all.
    for (const member of [author, reporter, bystander, clubOwner]) expect(await reportNotices(member), member.username).toEqual([]);

    // A moderator who reports tells the others, never themself.
    const second = await createPost(author, postInput({ title: "Another" }));
    await report(reportingModerator, "post", second.id, "off_topic");
    expect(await reportNotices(reportingModerator)).toHaveLength(1);
    expect((await reportNotices(moderator))[0]!.text).toBe("New report: a post “Another” (off topic)");
  });

  it("a club's content tells its owner and admins and site staff, not its plain members nor another club's staff", async () => {
    const owner = await createMember();
    const admin = await createMember();
    const plain = await createMember();
    const author = await createMember();
    const reporter = await createMember();
    const otherOwner = await createMember();
    const moderator = await createStaff("moderator");
    const club = await newClub(owner, { name: "Ridge Runners", isPrivate: true });
    await newClub(otherOwner, { name: "Other Club" });
    for (const [member, role] of [
      [admin, "admin"],
      [plain, "member"],
      [author, "member"],
      [reporter, "member"],
    ] as const)
      await setClubRole(club.id, member.id, role);
    const post = await createPost(author, postInput({ title: "Stand for sale", clubId: club.id }));
    const comment = await addComment(author, post.id, { content: "Buy my corn feeder, cheap" });

    await report(reporter, "comment", comment.id, "harassment");

    const text = "New report: a comment “Buy my corn feeder, cheap” in Ridge Runners (harassment)";
    for (const staff of [owner, admin, moderator]) {
      expect(
        (await reportNotices(staff)).map((i) => i.text),
        staff.username,
      ).toEqual([text]);
    }
    for (const member of [plain, author, reporter, otherOwner]) expect(await reportNotices(member), member.username).toEqual([]);

    // A club admin made a plain member no longer reads (or counts) the notice: it is staff's alone.
    await setClubRole(club.id, admin.id, "member");
    expect(await reportNotices(admin)).toEqual([]);
    expect(await unreadCount(admin.id)).toBe(0);
  });

  it("a second report on the open case tells nobody again; a staff member who turned the kind off hears nothing", async () => {
    const author = await createMember();
    const [first, second, third] = [await createMember(), await createMember(), await createMember()];
    const moderator = await createStaff("moderator");
    const quiet = await createStaff("moderator");
    await updateNotificationSettings(quiet, { inApp: { report: false } });
    const post = await createPost(author, postInput({ title: "Spam" }));

    await report(first, "post", post.id);
    const told = (await reportRowsAbout(post.id)).length;
    expect(told).toBeGreaterThanOrEqual(1);
    await report(second, "post", post.id, "illegal");
    await report(third, "post", post.id, "other");
    expect(await reportRowsAbout(post.id)).toHaveLength(told);
    expect(await reportNotices(moderator)).toHaveLength(1);
    expect(await reportNotices(quiet)).toEqual([]);
  });

  it("a case dismissed and reported again: a new notice once the first was read, none while it is unread", async () => {
    const author = await createMember();
    const moderator = await createStaff("moderator");
    const reader = await createStaff("moderator");
    const post = await createPost(author, postInput({ title: "Back again" }));
    await report(await createMember(), "post", post.id);
    const [firstCase] = (await moderationQueue(moderator)).entries;
    await markRead(reader);
    await decideCase(moderator, firstCase!.id, { action: "dismiss" });

    await report(await createMember(), "post", post.id);
    // The moderator still has the first notice unread: not told twice of one post. The reader is told anew.
    expect(await reportNotices(moderator)).toHaveLength(1);
    expect(await reportNotices(reader)).toHaveLength(2);
  });

  it("members and clubs reported are named, the member reported never told; the staff member reported is not told either", async () => {
    const target = await createMember({ displayName: "Trouble Maker" });
    const moderator = await createStaff("moderator");
    const reportedModerator = await createStaff("moderator");
    const clubOwner = await createMember();
    const club = await newClub(clubOwner, { name: "Buck Club" });

    await report(await createMember(), "user", target.id, "harassment");
    await report(await createMember(), "user", reportedModerator.id);
    await report(await createMember(), "club", club.id);

    expect((await reportNotices(moderator)).map((i) => i.text)).toEqual([
      "New report: a club “Buck Club” (spam)",
      expect.stringMatching(/^New report: a member “Member \d+ \(@.+\)” \(spam\)$/),
      `New report: a member “Trouble Maker (@${target.username})” (harassment)`,
    ]);
    expect(await reportNotices(target)).toEqual([]);
    // Told of the other two, not of the report about themself; a report about a club goes to site staff only.
    expect((await reportNotices(reportedModerator)).map((i) => i.text)).toHaveLength(2);
    expect(await reportNotices(clubOwner)).toEqual([]);
  });
});

describe("moderationBadge: the top bar's count of open cases", () => {
  it("site staff count every open case, club staff their club's, members get nothing; a decision lowers it", async () => {
    const owner = await createMember();
    const club = await newClub(owner);
    const author = await createMember();
    await setClubRole(club.id, author.id, "member");
    const moderator = await createStaff("moderator");
    const member = await createMember();
    await setClubRole(club.id, member.id, "member");
    const siteBefore = (await moderationBadge({ id: moderator.id, role: "moderator" }))!.openCases;
    await report(member, "post", (await createPost(author, postInput({ title: "Outside" }))).id);
    await report(member, "post", (await createPost(author, postInput({ title: "Inside", clubId: club.id }))).id);

    expect(await moderationBadge({ id: moderator.id, role: "moderator" })).toEqual({ openCases: siteBefore + 2 });
    expect(await moderationBadge({ id: owner.id, role: "member" })).toEqual({ openCases: 1 });
    expect(await moderationBadge({ id: member.id, role: "member" })).toBeNull();

    const [newest] = (await moderationQueue(owner)).entries;
    await decideCase(owner, newest!.id, { action: "dismiss" });
    expect(await moderationBadge({ id: owner.id, role: "member" })).toEqual({ openCases: 0 });
    expect(await moderationBadge({ id: moderator.id, role: "moderator" })).toEqual({ openCases: siteBefore + 1 });
  });
});

describe("the queue names a post's or comment's author", () => {
  it("author: username and display name for posts and comments, null for a member or a club", async () => {
    const author = await createMember({ displayName: "Wade Author" });
    const moderator = await createStaff("moderator");
    const post = await createPost(author, postInput({ title: "Named" }));
    const comment = await addComment(author, post.id, { content: "A comment" });
    await report(await createMember(), "post", post.id);
    await report(await createMember(), "comment", comment.id);
    await report(await createMember(), "user", author.id);

    // Newest first: this test's three cases (the file's database holds the other tests' too).
    const entries = (await moderationQueue(moderator)).entries.slice(0, 3);
    expect(entries.map((e) => [e.targetType, e.author])).toEqual([
      ["user", null],
      ["comment", { username: author.username, displayName: "Wade Author" }],
      ["post", { username: author.username, displayName: "Wade Author" }],
    ]);
  });
});

describe("a member's history on /moderation/members/{username}", () => {
  it("lists every decision about the member and their posts and comments, newest first, and the reports they drew", async () => {
    const author = await createMember();
    const other = await createMember();
    const moderator = await createStaff("moderator");
    const post = await createPost(author, postInput({ title: "Spammy" }));
    const comment = await addComment(author, post.id, { content: "Rude words" });
    const othersPost = await createPost(other, postInput({ title: "Not theirs" }));

    // Before: nothing about them.
    const before = await memberForStaff(moderator, author.username);
    expect(before.log).toEqual([]);
    expect(before.drawn).toEqual({ reports: 0, items: 0 });

    await report(await createMember(), "post", post.id);
    await report(await createMember(), "post", post.id);
    await report(await createMember(), "comment", comment.id, "harassment");
    const postCase = (await moderationQueue(moderator)).entries.find((e) => e.targetType === "post")!;
    await decideCase(moderator, postCase.id, { action: "dismiss", reason: "Not spam" });
    await removeContent(moderator, { type: "comment", id: comment.id }, "Be civil");
    await restoreContent(moderator, { type: "comment", id: comment.id });
    await removeContent(moderator, { type: "post", id: othersPost.id }, "Someone else's");
    await suspendMember(moderator, author.username, { reason: "Cool off", days: 1 });

    const page = await memberForStaff(moderator, author.username);
    expect(page.log.map((e) => [e.action, e.targetType, e.targetLabel])).toEqual([
      ["suspend", "user", author.username],
      ["restore", "comment", "Rude words"],
      ["remove", "comment", "Rude words"],
      ["dismiss", "post", "Spammy"],
    ]);
    expect(page.drawn).toEqual({ reports: 3, items: 2 });
    // The other member's page has only their own.
    expect((await memberForStaff(moderator, other.username)).log.map((e) => e.action)).toEqual(["remove"]);
  });

  it("site staff only: 401 signed out, 403 a member and a club's owner, 200 a moderator", async () => {
    const subject = await createMember();
    const member = await createMember();
    const owner = await createMember();
    await newClub(owner);
    const moderator = await createMember();
    await setSiteRole(moderator.id, "moderator");

    await expectError(() => memberForStaff(null, subject.username), 401);
    await expectError(() => memberForStaff(member, subject.username), 403);
    await expectError(() => memberForStaff(owner, subject.username), 403);
    const page = await memberForStaff(moderator, subject.username);
    expect(page.member.username).toBe(subject.username);
    expect(page.drawn).toEqual({ reports: 0, items: 0 });
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { comments, moderationCases, moderationLog, posts } from "#db/schema";
import { expectError, newClub } from "#tests/fixtures/clubs";
import { createMember } from "#tests/fixtures/members";
import { createStaff, setClubRole } from "#tests/fixtures/moderation";
import { count, counterMismatches, postInput } from "#tests/fixtures/posts";
import { db, first, writeTransaction } from "~/utils/db.server";
import { deleteAccount } from "~/models/members/account.server";
import { addComment, deleteComment } from "~/models/posts/comment.server";
import {
  hideForReports,
  removeContent,
  restoreContent,
  targetPlace,
  unhideDismissed,
  OWN_CONTENT_DECISION,
  REMOVAL_REASON_MAX,
  SITE_REMOVAL,
  type ModeratedTarget,
} from "./moderation-removal.server";
import { createPost, deletePost } from "~/models/posts/post.server";

const noPreview = { preview: async () => null };

const postRow = async (id: number) => first(await db.select().from(posts).where(eq(posts.id, id)));
const commentRow = async (id: number) => first(await db.select().from(comments).where(eq(comments.id, id)));
const logRows = async (target: ModeratedTarget) =>
  (await db.select().from(moderationLog).where(eq(moderationLog.targetId, target.id))).filter((r) => r.targetType === target.type);

async function openCase(target: ModeratedTarget, subjectId: number, clubId: number | null = null) {
  const [row] = await db
    .insert(moderationCases)
    .values({ targetType: target.type, targetId: target.id, clubId, subjectId, snapshot: "as reported" })
    .returning({ id: moderationCases.id });
  return row!.id;
}
const caseRow = async (id: number) => first(await db.select().from(moderationCases).where(eq(moderationCases.id, id)));

/** Everything a refusal must leave as it was. */
async function state(postId: number) {
  return {
    post: await postRow(postId),
    log: await count(`SELECT count(*) AS n FROM moderation_log`),
    cases: await count(`SELECT count(*) AS n FROM moderation_cases WHERE status = 'open'`),
  };
}

describe("removeContent / restoreContent (CONTRACT.md §8 Removal)", () => {
  it("a moderator removes a post with a reason, again with another, then restores it: counters, log and case follow", async () => {
    const author = await createMember();
    const moderator = await createStaff("moderator");
    const post = await createPost(author, postInput(), noPreview);
    const target: ModeratedTarget = { type: "post", id: post.id };
    const caseId = await openCase(target, author.id);

    await removeContent(moderator, target, "  Spam links  ");
    const removed = await postRow(post.id);
    expect(removed?.hiddenAt).toBeInstanceOf(Date);
    expect(removed?.removalReason).toBe("Spam links");
    expect(await count(`SELECT posts_count AS n FROM users WHERE id = ?`, author.id)).toBe(0);
    expect((await caseRow(caseId))?.status).toBe("closed");
    expect((await caseRow(caseId))?.closedAt).toBeInstanceOf(Date);
    expect(await logRows(target)).toMatchObject([
      {
        action: "remove",
        actorId: moderator.id,
        actorName: moderator.username,
        targetLabel: post.title,
        reason: "Spam links",
        clubId: null,
      },
    ]);

    // Again: the reason changes, the time it was hidden stays, the counter is not taken down twice.
    await removeContent(moderator, target, "Off topic");
    const again = await postRow(post.id);
    expect(again?.removalReason).toBe("Off topic");
    expect(again?.hiddenAt?.getTime()).toBe(removed?.hiddenAt?.getTime());
    expect(await count(`SELECT posts_count AS n FROM users WHERE id = ?`, author.id)).toBe(0);
    expect(await counterMismatches()).toBe(0);

    await restoreContent(moderator, target);
    const restored = await postRow(post.id);
    expect(restored).toMatchObject({ hiddenAt: null, removalReason: null });
    expect(await count(`SELECT posts_count AS n FROM users WHERE id = ?`, author.id)).toBe(1);
    expect((await logRows(target)).map((r) => r.action)).toEqual(["remove", "remove", "restore"]);
    expect(await counterMismatches()).toBe(0);

    // Restoring what is not hidden changes nothing and logs nothing.
    await restoreContent(moderator, target);
    expect(await count(`SELECT posts_count AS n FROM users WHERE id = ?`, author.id)).toBe(1);
    expect(await logRows(target)).toHaveLength(3);
  });

  it("a comment's removal takes it off its post's comments_count and restore puts it back; the log names its first 80 characters", async () => {
    const author = await createMember();
    const commenter = await createMember();
    const moderator = await createStaff("admin");
    const post = await createPost(author, postInput(), noPreview);
    const text = "A".repeat(50) + " " + "B".repeat(60);
    const comment = await addComment(commenter, post.id, { content: text });
    await addComment(author, post.id, { content: "Thanks" });
    const target: ModeratedTarget = { type: "comment", id: comment.id };

    await removeContent(moderator, target, "Harassment");
    expect(await commentRow(comment.id)).toMatchObject({ removalReason: "Harassment" });
    expect((await postRow(post.id))?.commentsCount).toBe(1);
    expect((await logRows(target))[0]).toMatchObject({ action: "remove", targetLabel: text.slice(0, 80) });
    expect(await counterMismatches()).toBe(0);

    await restoreContent(moderator, target);
    expect((await postRow(post.id))?.commentsCount).toBe(2);
    expect(await commentRow(comment.id)).toMatchObject({ hiddenAt: null, removalReason: null });
    expect(await counterMismatches()).toBe(0);
  });

  it("refuses a missing, blank or too long reason with 400 and changes nothing", async () => {
    const author = await createMember();
    const moderator = await createStaff("moderator");
    const post = await createPost(author, postInput(), noPreview);
    const target: ModeratedTarget = { type: "post", id: post.id };
    await openCase(target, author.id);
    const before = await state(post.id);
    for (const reason of ["", "   ", "x".repeat(REMOVAL_REASON_MAX + 1), undefined as unknown as string]) {
      await expectError(() => removeContent(moderator, target, reason), 400);
    }
    expect(await state(post.id)).toEqual(before);
    await removeContent(moderator, target, "x".repeat(REMOVAL_REASON_MAX));
    expect((await postRow(post.id))?.removalReason).toHaveLength(REMOVAL_REASON_MAX);
  });

  it("404 for a missing post or comment", async () => {
    const moderator = await createStaff("moderator");
    await expectError(() => removeContent(moderator, { type: "post", id: 9_999_999 }, "Spam"), 404);
    await expectError(() => removeContent(moderator, { type: "comment", id: 9_999_999 }, "Spam"), 404);
    await expectError(() => restoreContent(moderator, { type: "post", id: 9_999_999 }), 404);
    expect(await targetPlace({ type: "post", id: 9_999_999 })).toBeNull();
  });

  it("who may: site staff anywhere, club staff in their club; a visitor, a member, the author and another club's admin change nothing", async () => {
    const owner = await createMember();
    const club = await newClub(owner);
    const otherClub = await newClub(await createMember(), { name: "Ridge Runners" });
    const [author, clubAdmin, member, otherAdmin] = [
      await createMember(),
      await createMember(),
      await createMember(),
      await createMember(),
    ];
    await setClubRole(club.id, author.id, "member");
    await setClubRole(club.id, clubAdmin.id, "admin");
    await setClubRole(club.id, member.id, "member");
    await setClubRole(otherClub.id, otherAdmin.id, "admin");
    const clubPost = await createPost(author, postInput({ clubId: club.id }), noPreview);
    const sitePost = await createPost(author, postInput(), noPreview);
    const clubTarget: ModeratedTarget = { type: "post", id: clubPost.id };
    const siteTarget: ModeratedTarget = { type: "post", id: sitePost.id };
    const comment = await addComment(member, clubPost.id, { content: "Nice buck" });

    for (const [who, status] of [
      [null, 401],
      [member, 403],
      [author, 403],
      [otherAdmin, 403],
    ] as const) {
      const before = [await state(clubPost.id), await commentRow(comment.id)];
      await expectError(() => removeContent(who, clubTarget, "Spam"), status);
      await expectError(() => restoreContent(who, clubTarget), status);
      await expectError(() => removeContent(who, { type: "comment", id: comment.id }, "Spam"), status);
      expect([await state(clubPost.id), await commentRow(comment.id)]).toEqual(before);
    }
    // Club staff: only outside-club content is not theirs.
    for (const staff of [clubAdmin, owner]) {
      const before = await state(sitePost.id);
      await expectError(() => removeContent(staff, siteTarget, "Spam"), 403);
      expect(await state(sitePost.id)).toEqual(before);
      await removeContent(staff, clubTarget, "Not about hunting");
      expect((await logRows(clubTarget)).at(-1)).toMatchObject({ actorId: staff.id, clubId: club.id });
      await restoreContent(staff, clubTarget);
      await removeContent(staff, { type: "comment", id: comment.id }, "Rude");
      await restoreContent(staff, { type: "comment", id: comment.id });
    }
    for (const staff of [await createStaff("moderator"), await createStaff("admin")]) {
      await removeContent(staff, siteTarget, "Spam");
      await restoreContent(staff, siteTarget);
      await removeContent(staff, clubTarget, "Spam");
      await restoreContent(staff, clubTarget);
    }
    expect(await counterMismatches()).toBe(0);
    expect(await targetPlace(clubTarget)).toEqual({ clubId: club.id, authorId: author.id, label: clubPost.title, text: clubPost.content });
    expect(await targetPlace({ type: "comment", id: comment.id })).toMatchObject({
      clubId: club.id,
      authorId: member.id,
      text: "Nice buck",
    });
  });

  it("counters equal visible rows when an author deletes their removed post or comment, and when an account with a removed comment goes", async () => {
    const author = await createMember();
    const commenter = await createMember();
    const moderator = await createStaff("moderator");
    const kept = await createPost(author, postInput(), noPreview);
    const doomed = await createPost(author, postInput({ title: "Doomed" }), noPreview);
    const c1 = await addComment(commenter, kept.id, { content: "one" });
    const c2 = await addComment(commenter, kept.id, { content: "two" });
    await addComment(author, kept.id, { content: "three" });

    await removeContent(moderator, { type: "post", id: doomed.id }, "Spam");
    await removeContent(moderator, { type: "comment", id: c1.id }, "Spam");
    expect(await counterMismatches()).toBe(0);

    await deletePost(author, doomed.id);
    expect(await count(`SELECT posts_count AS n FROM users WHERE id = ?`, author.id)).toBe(1);
    expect(await counterMismatches()).toBe(0);

    await removeContent(moderator, { type: "comment", id: c2.id }, "Spam");
    await deleteComment(commenter, c2.id);
    expect((await postRow(kept.id))?.commentsCount).toBe(1);
    expect(await counterMismatches()).toBe(0);

    await deleteAccount(commenter, { password: commenter.password });
    expect((await postRow(kept.id))?.commentsCount).toBe(1);
    expect(await counterMismatches()).toBe(0);
    // The log outlives the content and its author.
    expect(await logRows({ type: "comment", id: c1.id })).toHaveLength(1);
  });
});

describe("the staff ladder (CONTRACT.md §12, security-3 P3)", () => {
  it("club staff neither undo nor rewrite a site moderator's removal, nor decide on their own content; site staff do both", async () => {
    const owner = await createMember();
    const club = await newClub(owner);
    const [admin, author] = [await createMember(), await createMember()];
    await setClubRole(club.id, admin.id, "admin");
    await setClubRole(club.id, author.id, "member");
    const moderator = await createStaff("moderator");
    const memberPost = await createPost(author, postInput({ clubId: club.id }), noPreview);
    const ownerPost = await createPost(owner, postInput({ clubId: club.id }), noPreview);
    const adminPost = await createPost(admin, postInput({ clubId: club.id }), noPreview);
    const members: ModeratedTarget = { type: "post", id: memberPost.id };
    const owners: ModeratedTarget = { type: "post", id: ownerPost.id };

    // 1. A site moderator removes a member's club post: the club's staff can neither restore it nor
    //    put their own reason on it.
    await removeContent(moderator, members, "Illegal content");
    expect(await postRow(memberPost.id)).toMatchObject({ removedBy: "site", removalReason: "Illegal content" });
    for (const staff of [admin, owner]) {
      const before = await state(memberPost.id);
      await expectError(() => restoreContent(staff, members), 403, SITE_REMOVAL);
      await expectError(() => removeContent(staff, members, "Off topic"), 403, SITE_REMOVAL);
      expect(await state(memberPost.id)).toEqual(before);
    }
    // 2. The owner's own post, removed by a moderator: the owner cannot bring it back.
    await removeContent(moderator, owners, "Illegal content");
    const before = await state(ownerPost.id);
    await expectError(() => restoreContent(owner, owners), 403, OWN_CONTENT_DECISION);
    expect(await state(ownerPost.id)).toEqual(before);
    // Nor does club staff take moderation decisions on their own posts (deleting them is theirs).
    const adminsBefore = await state(adminPost.id);
    await expectError(() => removeContent(admin, { type: "post", id: adminPost.id }, "Tidying up"), 403, OWN_CONTENT_DECISION);
    expect(await state(adminPost.id)).toEqual(adminsBefore);

    // Site staff undo site removals; a removal by the club's staff stays the club's to undo.
    await restoreContent(moderator, members);
    await restoreContent(moderator, owners);
    expect(await postRow(memberPost.id)).toMatchObject({ hiddenAt: null, removalReason: null, removedBy: null });
    await removeContent(admin, members, "Off topic");
    expect(await postRow(memberPost.id)).toMatchObject({ removedBy: "club" });
    await restoreContent(owner, members);
    expect(await postRow(memberPost.id)).toMatchObject({ hiddenAt: null, removedBy: null });
    expect(await counterMismatches()).toBe(0);
  });
});

describe("hideForReports / unhideDismissed (auto-hide after reports)", () => {
  it("hides with no reason (logged by the site), comes back on dismissal, and a removal is not undone by a dismissal", async () => {
    const author = await createMember();
    const post = await createPost(author, postInput(), noPreview);
    const target: ModeratedTarget = { type: "post", id: post.id };
    await writeTransaction((tx) => hideForReports(tx, target));
    expect(await postRow(post.id)).toMatchObject({ removalReason: null });
    expect((await postRow(post.id))?.hiddenAt).toBeInstanceOf(Date);
    expect(await logRows(target)).toMatchObject([{ action: "hide", actorId: null }]);
    await writeTransaction((tx) => hideForReports(tx, target));
    expect(await logRows(target)).toHaveLength(1);
    expect(await counterMismatches()).toBe(0);

    await writeTransaction((tx) => unhideDismissed(tx, target));
    expect(await postRow(post.id)).toMatchObject({ hiddenAt: null, removalReason: null });
    expect(await counterMismatches()).toBe(0);

    const moderator = await createStaff("moderator");
    await writeTransaction((tx) => hideForReports(tx, target));
    await removeContent(moderator, target, "Spam");
    await writeTransaction((tx) => unhideDismissed(tx, target));
    expect(await postRow(post.id)).toMatchObject({ removalReason: "Spam" });
    expect(await counterMismatches()).toBe(0);
  });

  it("removeContent runs inside the caller's transaction: a failure after it leaves nothing", async () => {
    const author = await createMember();
    const moderator = await createStaff("moderator");
    const post = await createPost(author, postInput(), noPreview);
    const before = await state(post.id);
    await expect(
      writeTransaction(async (tx) => {
        await removeContent(moderator, { type: "post", id: post.id }, "Spam", tx);
        throw new Error("the queue's own write failed");
      }),
    ).rejects.toThrow("the queue's own write failed");
    expect(await state(post.id)).toEqual(before);
  });
});

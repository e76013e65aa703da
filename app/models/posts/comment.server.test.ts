import { beforeAll, describe, expect, it, vi } from "vitest";
import { count, failure, makeClub } from "#tests/fixtures/posts";
import { createMember } from "#tests/fixtures/members";
import { ageAccount } from "#tests/fixtures/new-accounts";
import { setRateLimitsEnabled } from "~/utils/rate-limit.server";
import { addComment, deleteComment, listComments, updateComment } from "./comment.server";
import { createPost, getPost } from "./post.server";

type Member = Awaited<ReturnType<typeof createMember>>;

const newPost = (author: Member, clubId?: number) =>
  createPost(author, { title: "Rattling in the pre-rut", content: "Short sequences, long pauses, and wait.", type: "article", clubId });

let alice: Member;
let bob: Member;

beforeAll(async () => {
  alice = await createMember({ displayName: "Alice Archer" });
  bob = await createMember({ displayName: "Bob Buck" });
});

describe("comments", () => {
  it("lists oldest first with the author, and keeps comments_count in step", async () => {
    const post = await newPost(alice);
    const first = await addComment(bob, post.id, { content: "  First!  " });
    const second = await addComment(alice, post.id, { content: "<b>not bold</b>" });
    expect(first).toMatchObject({
      content: "First!",
      author: { id: bob.id, username: bob.username, displayName: "Bob Buck", avatar: null },
    });
    expect(new Date(first.createdAt).toISOString()).toBe(first.createdAt);
    const list = await listComments(null, post.id);
    expect(list.map((c) => c.id)).toEqual([first.id, second.id]);
    expect(list[1]!.content).toBe("<b>not bold</b>");
    expect((await getPost(null, post.id)).commentsCount).toBe(2);
    expect(Object.keys(list[0]!).sort()).toEqual(["author", "content", "createdAt", "id"]);
  });

  it("refuses visitors (401), blank or long comments (400) and missing posts (404), writing nothing", async () => {
    const post = await newPost(alice);
    expect((await failure(() => addComment(null, post.id, { content: "hello" }))).status).toBe(401);
    const blank = await failure(() => addComment(bob, post.id, { content: "   \n\t " }));
    expect(blank.status).toBe(400);
    expect(blank.fieldErrors).toEqual({ content: ["Comment cannot be empty"] });
    expect((await failure(() => addComment(bob, post.id, { content: "x".repeat(2001) }))).fieldErrors).toEqual({
      content: ["Comment too long"],
    });
    expect((await failure(() => addComment(bob, 987_654, { content: "hello" }))).status).toBe(404);
    expect((await failure(() => listComments(null, 987_654))).status).toBe(404);
    expect(await count(`SELECT count(*) AS n FROM comments WHERE post_id = ?`, post.id)).toBe(0);
    expect((await getPost(null, post.id)).commentsCount).toBe(0);
  });

  it("lets only the comment's author delete it (401 visitor, 403 other member, 404 missing)", async () => {
    const post = await newPost(alice);
    const comment = await addComment(bob, post.id, { content: "Mine to delete" });
    expect((await failure(() => deleteComment(null, comment.id))).status).toBe(401);
    // Not even the post's author may delete someone else's comment (SPEC.md §6).
    expect((await failure(() => deleteComment(alice, comment.id))).status).toBe(403);
    expect((await failure(() => deleteComment(bob, 987_654))).status).toBe(404);
    expect((await getPost(null, post.id)).commentsCount).toBe(1);
    await deleteComment(bob, comment.id);
    expect(await listComments(null, post.id)).toEqual([]);
    expect((await getPost(null, post.id)).commentsCount).toBe(0);
    expect((await failure(() => deleteComment(bob, comment.id))).status).toBe(404);
  });

  it("lets only the comment's author edit it (401 visitor, 403 other member, 404 missing, 400 blank)", async () => {
    const post = await newPost(alice);
    const comment = await addComment(bob, post.id, { content: "Fisrt light" });
    expect((await failure(() => updateComment(null, comment.id, { content: "x" }))).status).toBe(401);
    // Not even the post's author may change someone else's words.
    expect((await failure(() => updateComment(alice, comment.id, { content: "Changed" }))).status).toBe(403);
    expect((await failure(() => updateComment(bob, comment.id, { content: "   " }))).status).toBe(400);
    expect((await failure(() => updateComment(bob, 999_999, { content: "Nope" }))).status).toBe(404);
    const edited = await updateComment(bob, comment.id, { content: "  First light  " });
    expect(edited).toMatchObject({ id: comment.id, content: "First light", author: { id: bob.id } });
    expect((await listComments(null, post.id)).map((c) => c.content)).toEqual(["First light"]);
    expect((await getPost(null, post.id)).commentsCount).toBe(1);
  });

  it("keeps a private club's comments to its members", async () => {
    const club = await makeClub(alice.id, { isPrivate: true });
    const post = await newPost(alice, club);
    const comment = await addComment(alice, post.id, { content: "Members only talk" });
    expect((await failure(() => listComments(null, post.id))).status).toBe(404);
    expect((await failure(() => listComments(bob, post.id))).status).toBe(404);
    expect((await failure(() => addComment(bob, post.id, { content: "Let me in" }))).status).toBe(404);
    expect((await failure(() => deleteComment(bob, comment.id))).status).toBe(404);
    expect((await listComments(alice, post.id)).map((c) => c.content)).toEqual(["Members only talk"]);
  });

  it("is rate limited per member", async () => {
    const post = await newPost(alice);
    const chatty = await createMember();
    await ageAccount(chatty.id); // past its first day (CONTRACT.md §8): the hourly limit is what is tested
    setRateLimitsEnabled(true);
    // One moment for all 121 calls: the window is the clock hour, and a run that crossed it (CI's
    // PostgreSQL run did, at 06:00) would start counting again and never reach the limit.
    const clock = vi.spyOn(Date, "now").mockReturnValue(Date.now());
    try {
      for (let i = 0; i < 120; i++) await addComment(chatty, post.id, { content: `comment ${i}` });
      expect((await failure(() => addComment(chatty, post.id, { content: "one more" }))).status).toBe(429);
    } finally {
      clock.mockRestore();
      setRateLimitsEnabled(false);
    }
    expect((await getPost(null, post.id)).commentsCount).toBe(120);
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { posts } from "#db/schema";
import { newClub } from "#tests/fixtures/clubs";
import { createStaff, setClubRole } from "#tests/fixtures/moderation";
import { showsModeration } from "~/components/moderation/staff-forms";
import { removeContent } from "~/models/moderation/moderation-removal.server";
import { addComment } from "~/models/posts/comment.server";
import { createPost } from "~/models/posts/post.server";
import * as postPage from "~/routes/post.$id/route";
import * as moderatePage from "~/routes/post.$id_.moderate";
import { db, first } from "~/utils/db.server";
import { call, createMember, makeRequest } from "../fixtures/members";
import { count, postInput } from "../fixtures/posts";

const noPreview = { preview: async () => null };
const postRow = async (id: number) => first(await db.select().from(posts).where(eq(posts.id, id)));

/** The removal forms without JavaScript (CONTRACT.md §8 Pages): POST /post/{id}/moderate, then back to the post. */
describe("/post/{id}/moderate and the post page", () => {
  it("a moderator removes with a reason (redirect to the post), a blank reason keeps what was typed, restore brings it back", async () => {
    const author = await createMember();
    const moderator = await createStaff("moderator");
    const post = await createPost(author, postInput(), noPreview);
    const params = { id: String(post.id) };
    const send = (form: Record<string, string>, who = moderator) =>
      call(moderatePage.action, makeRequest(`/post/${post.id}/moderate`, { form, cookie: who.cookie }), params);

    const blank = await send({ intent: "remove", reason: "   " });
    expect(blank.status).toBe(400);
    expect(await blank.json()).toMatchObject({ reason: "   ", fieldErrors: { reason: [expect.stringMatching(/reason/i)] } });
    expect((await postRow(post.id))?.hiddenAt).toBeNull();

    const removed = await send({ intent: "remove", reason: "Selling tags" });
    expect(removed.status).toBe(302);
    expect(removed.headers.get("Location")).toBe(`/post/${post.id}`);
    expect((await postRow(post.id))?.removalReason).toBe("Selling tags");

    // The author's page: the post with its reason; the moderator's: the same and may restore; a bystander: 404.
    const page = async (who: { cookie: string } | null) =>
      call(postPage.loader, makeRequest(`/post/${post.id}`, { cookie: who?.cookie }), params);
    const mine = await (await page(author)).json();
    expect(mine.post.hidden).toEqual({ reason: "Selling tags", by: "site" });
    expect(mine.canModerate).toBe(false);
    const staff = await (await page(moderator)).json();
    expect(staff).toMatchObject({ canModerate: true, moderates: "site", post: { hidden: { reason: "Selling tags", by: "site" } } });
    expect((await page(await createMember())).status).toBe(404);
    expect((await page(null)).status).toBe(404);

    // A member may not: 404 (the post page's refusal), nothing changes.
    const refused = await send({ intent: "restore" }, await createMember());
    expect([403, 404]).toContain(refused.status);
    expect((await postRow(post.id))?.removalReason).toBe("Selling tags");

    const restored = await send({ intent: "restore" });
    expect(restored.status).toBe(302);
    expect((await postRow(post.id))?.hiddenAt).toBeNull();
  });

  it("club staff are told a site removal is the site's to undo, and get no forms on their own content (the staff ladder)", async () => {
    const owner = await createMember();
    const club = await newClub(owner);
    const author = await createMember();
    await setClubRole(club.id, author.id, "member");
    const moderator = await createStaff("moderator");
    const post = await createPost(author, postInput({ clubId: club.id }), noPreview);
    const own = await createPost(owner, postInput({ clubId: club.id }), noPreview);
    await removeContent(moderator, { type: "post", id: post.id }, "Illegal content");
    const data = async (id: number, who: { cookie: string }) =>
      (await call(postPage.loader, makeRequest(`/post/${id}`, { cookie: who.cookie }), { id: String(id) })).json();
    expect(await data(post.id, owner)).toMatchObject({ moderates: "club", post: { hidden: { reason: "Illegal content", by: "site" } } });
    expect(showsModeration("club", author.id, owner.id)).toBe(true);
    expect(showsModeration("club", owner.id, owner.id)).toBe(false);
    expect(showsModeration("site", owner.id, owner.id)).toBe(true);
    expect(await data(own.id, owner)).toMatchObject({ moderates: "club" });
    // Without JavaScript the owner's restore answers what the page says, and changes nothing.
    const restore = await call(
      moderatePage.action,
      makeRequest(`/post/${post.id}/moderate`, { form: { intent: "restore" }, cookie: owner.cookie }),
      { id: String(post.id) },
    );
    expect(restore.status).toBe(403);
    expect((await postRow(post.id))?.removedBy).toBe("site");
  });

  it("a comment: removed from its form and back at the comment; its author sees the notice data, others do not see it", async () => {
    const author = await createMember();
    const commenter = await createMember();
    const moderator = await createStaff("admin");
    const post = await createPost(author, postInput(), noPreview);
    const comment = await addComment(commenter, post.id, { content: "Rude words" });
    const res = await call(
      moderatePage.action,
      makeRequest(`/post/${post.id}/moderate`, {
        form: { intent: "remove", comment: String(comment.id), reason: "Rude" },
        cookie: moderator.cookie,
      }),
      { id: String(post.id) },
    );
    expect(res.headers.get("Location")).toBe(`/post/${post.id}#comment-${comment.id}`);
    const page = async (who: { cookie: string } | null) =>
      (await call(postPage.loader, makeRequest(`/post/${post.id}`, { cookie: who?.cookie }), { id: String(post.id) })).json();
    expect((await page(commenter)).comments).toMatchObject([{ id: comment.id, hidden: { reason: "Rude" } }]);
    expect((await page(author)).comments).toEqual([]);
    expect((await page(null)).comments).toEqual([]);
    expect(await count(`SELECT comments_count AS n FROM posts WHERE id = ?`, post.id)).toBe(0);
  });
});

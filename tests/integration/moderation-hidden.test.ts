import { describe, expect, it } from "vitest";
import { newClub } from "#tests/fixtures/clubs";
import { createStaff, setClubRole } from "#tests/fixtures/moderation";
import { addComment, listComments, listCommentPage } from "~/models/posts/comment.server";
import { listFeed, listTrending, listTrendingItems } from "~/models/feeds/feed.server";
import { removeContent, restoreContent } from "~/models/moderation/moderation-removal.server";
import { createPost, getPost, likePost } from "~/models/posts/post.server";
import { visiblePostsCount } from "~/models/members/profile.server";
import * as postRoute from "~/routes/api.posts.$id";
import * as commentsRoute from "~/routes/api.posts.$id.comments";
import { eq } from "drizzle-orm";
import { posts } from "#db/schema";
import { dataVersion, db } from "~/utils/db.server";
import type { Actor } from "~/models/members/user.server";
import { call, createMember, makeRequest } from "../fixtures/members";
import { postInput, setPostStats } from "../fixtures/posts";

const noPreview = { preview: async () => null };
const SORTS = ["recent", "oldest", "popular", "discussed"] as const;

/**
 * CONTRACT.md §8: a removed (or auto-hidden) post or comment is gone for everyone but its author,
 * everywhere a list reads it; the staff who may restore it see it on its page with the notice.
 */
describe("trending on a node that did not make the removal (security-3 P6)", () => {
  it("drops a post another node hid on the next request, within the minute its ranking is kept", async () => {
    const author = await createMember();
    const post = await createPost(author, postInput({ title: `Kept ranking ${Date.now()}` }), noPreview);
    await setPostStats(post.id, { likes: 900, comments: 0, shares: 90 });
    const now = Date.now() + 5;
    expect((await listTrending(null, now)).map((p) => p.id)).toContain(post.id);
    expect((await listTrendingItems(now)).map((p) => p.id)).toContain(post.id);
    // Another node removes it: the row changes in the shared database, this process's cache is not told.
    await db.update(posts).set({ hiddenAt: new Date(), removalReason: "Trending probe" }).where(eq(posts.id, post.id));
    for (const who of [null, author]) {
      const listed = await listTrending(who, now + 1);
      expect(listed.map((p) => p.id)).not.toContain(post.id);
      expect(JSON.stringify(listed)).not.toContain("Trending probe");
    }
    expect((await listTrendingItems(now + 1)).map((p) => p.id)).not.toContain(post.id);
  });
});

describe("a removed post is gone for everyone but its author, everywhere", () => {
  it("feeds in every sort and type filter, #hashtag, search, profile, club, trending, the post page and the API", async () => {
    const word = `zq${Math.random().toString(36).slice(2, 8)}`;
    const author = await createMember();
    const bystander = await createMember();
    const owner = await createMember();
    const club = await newClub(owner, { isPrivate: false });
    await setClubRole(club.id, author.id, "member");
    await setClubRole(club.id, bystander.id, "member");
    const moderator = await createStaff("moderator");
    const post = await createPost(
      author,
      postInput({ title: `Removed ${word}`, content: `Text about ${word}`, type: "video", tags: [word] }),
      noPreview,
    );
    const clubPost = await createPost(author, postInput({ title: `Club ${word}`, clubId: club.id }), noPreview);
    // Engagement, so it is a trending candidate.
    await likePost(bystander, post.id);
    await setPostStats(post.id, { likes: 500, comments: 0, shares: 50 });
    expect((await listTrending(null, Date.now() + 1)).map((p) => p.id)).toContain(post.id);

    const before = await dataVersion();
    await removeContent(moderator, { type: "post", id: post.id }, "Spam links");
    await removeContent(owner, { type: "post", id: clubPost.id }, "Off topic");
    expect(await dataVersion(), "the write moves the data version on (visitor and render caches)").not.toBe(before);

    const places: Array<[string, (actor: Actor) => Promise<number[]>]> = [];
    for (const sortBy of SORTS) {
      places.push([`home, ${sortBy}`, async (a) => (await listFeed(a, { sortBy, limit: 50 })).posts.map((p) => p.id)]);
      places.push([
        `home, videos, ${sortBy}`,
        async (a) => (await listFeed(a, { sortBy, type: "video", limit: 50 })).posts.map((p) => p.id),
      ]);
      places.push([`#hashtag, ${sortBy}`, async (a) => (await listFeed(a, { sortBy, search: `#${word}` })).posts.map((p) => p.id)]);
      places.push([`search, ${sortBy}`, async (a) => (await listFeed(a, { sortBy, search: word })).posts.map((p) => p.id)]);
      places.push([`profile, ${sortBy}`, async (a) => (await listFeed(a, { sortBy, authorId: author.id })).posts.map((p) => p.id)]);
      places.push([`club, ${sortBy}`, async (a) => (await listFeed(a, { sortBy, clubId: club.id })).posts.map((p) => p.id)]);
    }
    for (const [label, read] of places) {
      const expected = label.startsWith("club") ? clubPost.id : post.id;
      expect(await read(bystander), `${label}: a bystander`).not.toContain(expected);
      expect(await read(null), `${label}: a visitor`).not.toContain(expected);
      expect(await read(author), `${label}: the author`).toContain(expected);
    }
    // The profile's count of posts, as each viewer may read them.
    expect(await visiblePostsCount(bystander, author.id)).toBe(0);
    expect(await visiblePostsCount(null, author.id)).toBe(0);
    expect(await visiblePostsCount(author, author.id)).toBe(2);
    // Trending is one ranking for everyone: a hidden post is not in it, for anyone.
    for (const who of [null, bystander, author]) expect((await listTrending(who, Date.now() + 2)).map((p) => p.id)).not.toContain(post.id);
    expect((await listTrendingItems(Date.now() + 3)).map((p) => p.id)).not.toContain(post.id);

    // The post page: 404 for everyone but the author (with the reason) and the staff who may restore it.
    for (const who of [null, bystander]) {
      await expect(getPost(who, post.id)).rejects.toMatchObject({ status: 404 });
      const res = await call(postRoute.loader, makeRequest(`/api/posts/${post.id}`, { cookie: who?.cookie }), { id: String(post.id) });
      expect(res.status).toBe(404);
      const comments = await call(commentsRoute.loader, makeRequest(`/api/posts/${post.id}/comments`, { cookie: who?.cookie }), {
        id: String(post.id),
      });
      expect(comments.status).toBe(404);
    }
    expect((await getPost(author, post.id)).hidden).toEqual({ reason: "Spam links", by: "site" });
    expect((await getPost(moderator, post.id)).hidden).toEqual({ reason: "Spam links", by: "site" });
    expect((await getPost(owner, clubPost.id)).hidden).toEqual({ reason: "Off topic", by: "club" });
    await expect(getPost(owner, post.id)).rejects.toMatchObject({ status: 404 });
    // Nobody but its author likes or comments on it meanwhile.
    await expect(likePost(moderator, post.id)).rejects.toMatchObject({ status: 404 });

    // Restored: back everywhere, without the notice.
    await restoreContent(moderator, { type: "post", id: post.id });
    expect((await listFeed(bystander, { limit: 50 })).posts.map((p) => p.id)).toContain(post.id);
    expect((await getPost(bystander, post.id)).hidden).toBeUndefined();
  });

  it("a removed comment: gone from the lists and the count for everyone but its author and the post's moderators", async () => {
    const author = await createMember();
    const commenter = await createMember();
    const bystander = await createMember();
    const moderator = await createStaff("moderator");
    const post = await createPost(author, postInput(), noPreview);
    const kept = await addComment(bystander, post.id, { content: "Good one" });
    const comment = await addComment(commenter, post.id, { content: "Buy cheap scopes at spam.example" });
    await removeContent(moderator, { type: "comment", id: comment.id }, "Spam");

    const ids = async (who: Actor) => ({
      all: (await listComments(who, post.id)).map((c) => c.id),
      page: (await listCommentPage(who, post.id)).comments.map((c) => c.id),
    });
    for (const who of [null, bystander, author]) expect(await ids(who)).toEqual({ all: [kept.id], page: [kept.id] });
    for (const who of [commenter, moderator]) {
      expect(await ids(who)).toEqual({ all: [kept.id, comment.id], page: [kept.id, comment.id] });
      expect((await listCommentPage(who, post.id)).comments[1]!.hidden).toEqual({ reason: "Spam", by: "site" });
    }
    expect((await getPost(null, post.id)).commentsCount).toBe(1);
    const res = await call(commentsRoute.loader, makeRequest(`/api/posts/${post.id}/comments`), { id: String(post.id) });
    expect(JSON.stringify(await res.json())).not.toContain("spam.example");
  });
});

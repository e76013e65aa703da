import { beforeAll, describe, expect, it } from "vitest";
import { createPost, deletePost } from "~/models/posts/post.server";
import { listTrending, listTrendingItems } from "~/models/feeds/feed.server";
import { TRENDING_TTL_MS } from "~/models/feeds/trending-cache.server";
import * as home from "~/routes/_index/route";
import * as postsApi from "~/routes/api.posts";
import * as postApi from "~/routes/api.posts.$id";
import * as postPage from "~/routes/post.$id/route";
import { eq } from "drizzle-orm";
import { posts } from "#db/schema";
import { db } from "~/utils/db.server";
import { truncate } from "~/utils/preview";
import { call, createMember, makeRequest } from "../fixtures/members";

/**
 * Issue 13, cheaper home rendering (docs/decisions/0037-cheaper-home-rendering.md): the home page
 * carries each card's 200-character preview only, while every JSON API answer and the post page keep
 * the whole body (SPEC.md §3 Post.content); and trending is ranked once a minute for everyone.
 */

type Member = Awaited<ReturnType<typeof createMember>>;
let author: Member;
const LONG = `${"Cold front on the ridge, wind from the north. ".repeat(12)}The end of a long story.`;

beforeAll(async () => {
  author = await createMember({ displayName: "Preview Author" });
});

type CardPost = { id: number; content: string; preview?: true };

describe("the home page sends previews, the APIs the whole body", () => {
  it("a long post's card carries 200 characters and says so; the API, the post page and the single post keep it all", async () => {
    const post = await createPost({ id: author.id }, { title: "A long sit", content: LONG, type: "article", tags: [] });
    const short = await createPost(
      { id: author.id },
      { title: "Short one", content: "Ten chars and a few more.", type: "article", tags: [] },
    );

    const page = (await (await call(home.loader, makeRequest("/", { cookie: author.cookie }))).json()) as { posts: CardPost[] };
    const card = page.posts.find((p) => p.id === post.id)!;
    expect(card.content).toBe(truncate(LONG));
    expect(Array.from(card.content)).toHaveLength(201);
    expect(card.preview).toBe(true);
    const shortCard = page.posts.find((p) => p.id === short.id)!;
    expect(shortCard.content).toBe("Ten chars and a few more.");
    expect(shortCard.preview).toBeUndefined();

    const list = (await (await call(postsApi.loader, makeRequest("/api/posts"))).json()) as { posts?: CardPost[] } | CardPost[];
    const posts = Array.isArray(list) ? list : list.posts!;
    const listed = posts.find((p) => p.id === post.id)!;
    expect(listed.content).toBe(LONG);
    expect(listed).not.toHaveProperty("preview");

    const one = (await (await call(postApi.loader, makeRequest(`/api/posts/${post.id}`), { id: String(post.id) })).json()) as CardPost;
    expect(one.content).toBe(LONG);

    const pageData = (await (
      await call(postPage.loader, makeRequest(`/post/${post.id}?edit=1`, { cookie: author.cookie }), { id: String(post.id) })
    ).json()) as { post: CardPost };
    expect(pageData.post.content).toBe(LONG);
  });

  it("cutting a preview again changes nothing", () => {
    const once = truncate(LONG);
    expect(truncate(once)).toBe(once);
    expect(truncate("short")).toBe("short");
  });
});

describe("trending, ranked once a minute and shared", () => {
  it("keeps its ranking for a minute while counts and titles stay current, forgets it when a post comes or goes", async () => {
    const now = Date.UTC(2031, 0, 1);
    const hour = 3_600_000;
    const make = async (title: string, likes: number) => {
      const p = await createPost({ id: author.id }, { title, content: "Engagement test body.", type: "article", tags: [] });
      await db
        .update(posts)
        .set({ likesCount: likes, createdAt: new Date(now - hour) })
        .where(eq(posts.id, p.id));
      return p.id;
    };
    const first = await make("first", 50);
    const second = await make("second", 10);
    expect((await listTrending(null, now)).map((p) => p.id)).toEqual([first, second]);

    // Within the minute: the order stays (no new ranking), the counts and titles are read afresh.
    await db.update(posts).set({ likesCount: 500, title: "second, renamed" }).where(eq(posts.id, second));
    expect((await listTrending(null, now + 1_000)).map((p) => p.id)).toEqual([first, second]);
    const items = await listTrendingItems(now + 1_000);
    expect(items.map((i) => i.id)).toEqual([first, second]);
    expect(items[1]).toMatchObject({ title: "second, renamed", likes: 500 });
    // A minute on, ranked again.
    expect((await listTrending(null, now + TRENDING_TTL_MS)).map((p) => p.id)).toEqual([second, first]);

    // A deleted post leaves at once (the ranking is forgotten, not just filtered).
    await deletePost({ id: author.id }, second);
    expect((await listTrending(null, now + TRENDING_TTL_MS + 1_000)).map((p) => p.id)).toEqual([first]);
    expect((await listTrendingItems(now + TRENDING_TTL_MS + 1_000)).map((i) => i.id)).toEqual([first]);
  });
});

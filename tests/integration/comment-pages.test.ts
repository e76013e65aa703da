import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addComment, COMMENT_PAGE_SIZE } from "~/models/posts/comment.server";
import { createPost } from "~/models/posts/post.server";
import * as commentsApi from "~/routes/api.posts.$id.comments";
import * as postPage from "~/routes/post.$id/route";
import { setRateLimitsEnabled } from "~/utils/rate-limit.server";
import { call, createMember, makeRequest } from "../fixtures/members";

/**
 * Comments in pages (issue 13, "Flat cost with data"): the post page shows one keyset page of its
 * comments, oldest first, with the cursor of the next; `GET /api/posts/{id}/comments` pages with
 * `limit`/`cursor` and a `Link` header, and without them answers every comment as before.
 */

type Member = Awaited<ReturnType<typeof createMember>>;
type PageData = {
  comments: { id: number; content: string }[];
  nextComments: string | null;
  commentsFrom: string | null;
  post: { commentsCount: number };
};

let author: Member;
let other: Member;

beforeAll(async () => {
  author = await createMember({ displayName: "Alice Author" });
  other = await createMember({ displayName: "Oscar Other" });
  setRateLimitsEnabled(false);
});
afterAll(() => setRateLimitsEnabled(true));

/** A post with `n` comments "c1".."cn", oldest first. */
async function thread(n: number) {
  const post = await createPost({ id: author.id }, { title: "Long sit", content: "A long thread about a long sit.", type: "article" });
  for (let i = 1; i <= n; i++) await addComment({ id: i % 2 ? other.id : author.id }, post.id, { content: `c${i}` });
  return post;
}

async function page(id: number, query = "") {
  const res = await call(postPage.loader, makeRequest(`/post/${id}${query}`), { id: String(id) });
  expect(res.status).toBe(200);
  return (await res.json()) as PageData;
}

async function api(id: number, query = "") {
  const res = await call(commentsApi.loader, makeRequest(`/api/posts/${id}/comments${query}`), { id: String(id) });
  return { res, body: (await res.json()) as { content: string }[] };
}

const contents = (data: { comments: { content: string }[] }) => data.comments.map((c) => c.content);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `c${from + i}`);

describe("the post page's comments in pages", () => {
  it("shows the first page, oldest first, and the next page after its cursor until the last", async () => {
    const post = await thread(COMMENT_PAGE_SIZE * 2 + 5);
    const first = await page(post.id);
    expect(contents(first)).toEqual(range(1, COMMENT_PAGE_SIZE));
    expect(first.post.commentsCount).toBe(COMMENT_PAGE_SIZE * 2 + 5);
    expect(first.commentsFrom).toBeNull();
    expect(first.nextComments).toEqual(expect.any(String));
    const second = await page(post.id, `?comments=${first.nextComments}`);
    expect(contents(second)).toEqual(range(COMMENT_PAGE_SIZE + 1, COMMENT_PAGE_SIZE * 2));
    expect(second.commentsFrom).toBe(first.nextComments);
    const third = await page(post.id, `?comments=${second.nextComments}`);
    expect(contents(third)).toEqual(range(COMMENT_PAGE_SIZE * 2 + 1, COMMENT_PAGE_SIZE * 2 + 5));
    expect(third.nextComments).toBeNull();
  });

  it("keeps a cursor's page stable while comments are added (they land after it) and a short thread has one page", async () => {
    const post = await thread(COMMENT_PAGE_SIZE + 2);
    const first = await page(post.id);
    await addComment({ id: other.id }, post.id, { content: "late" });
    const again = await page(post.id);
    expect(contents(again)).toEqual(contents(first));
    const second = await page(post.id, `?comments=${first.nextComments}`);
    expect(contents(second)).toEqual([...range(COMMENT_PAGE_SIZE + 1, COMMENT_PAGE_SIZE + 2), "late"]);
    expect(second.nextComments).toBeNull();

    const short = await thread(3);
    expect((await page(short.id)).nextComments).toBeNull();
  });

  it("serves the first page for a junk, foreign or empty cursor, never an error", async () => {
    const post = await thread(COMMENT_PAGE_SIZE + 1);
    const first = contents(await page(post.id));
    for (const junk of ["x", "%FF%FE", Buffer.from("popular.3.500").toString("base64url"), "", "🦌"]) {
      const data = await page(post.id, `?comments=${encodeURIComponent(junk)}`);
      expect(contents(data), junk).toEqual(first);
      expect(data.commentsFrom, junk).toBeNull();
    }
  });

  it("sends a comment posted without JavaScript to the page that ends with it, scrolled to it", async () => {
    const post = await thread(COMMENT_PAGE_SIZE * 2);
    const form = makeRequest(`/post/${post.id}`, {
      form: { intent: "comment", content: "newest word" },
      cookie: other.cookie,
      headers: { "Sec-Fetch-Mode": "navigate" },
    });
    const res = await call(postPage.action, form, { id: String(post.id) });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("Location")!, "http://localhost:3000");
    const landed = await page(post.id, location.search);
    expect(contents(landed)).toEqual([...range(COMMENT_PAGE_SIZE + 2, COMMENT_PAGE_SIZE * 2), "newest word"]);
    expect(location.hash).toBe(`#comment-${landed.comments.at(-1)!.id}`);
  });
});

describe("GET /api/posts/{id}/comments with paging parameters", () => {
  it("without them answers every comment as before; with limit, a page and a Link to the next", async () => {
    const post = await thread(7);
    const all = await api(post.id);
    expect(all.body.map((c) => c.content)).toEqual(range(1, 7));
    expect(all.res.headers.get("Link")).toBeNull();

    const one = await api(post.id, "?limit=3");
    expect(one.body.map((c) => c.content)).toEqual(range(1, 3));
    expect(Object.keys(one.body[0]!).sort()).toEqual(["author", "content", "createdAt", "id"]);
    const link = /^<(.+)>; rel="next"$/.exec(one.res.headers.get("Link") ?? "");
    expect(link).not.toBeNull();
    const next = new URL(link![1]!);
    const two = await api(post.id, next.search);
    expect(two.body.map((c) => c.content)).toEqual(range(4, 6));
    const last = await api(post.id, new URL(/^<(.+)>/.exec(two.res.headers.get("Link")!)![1]!).search);
    expect(last.body.map((c) => c.content)).toEqual(["c7"]);
    expect(last.res.headers.get("Link")).toBeNull();
  });

  it("bounds limit to 1..100 and answers a junk cursor or limit with the first page, never a 500", async () => {
    const post = await thread(COMMENT_PAGE_SIZE + 3);
    expect((await api(post.id, "?limit=-5")).body).toHaveLength(1);
    expect((await api(post.id, "?limit=100000")).body).toHaveLength(COMMENT_PAGE_SIZE + 3);
    expect((await api(post.id, "?limit=abc")).body).toHaveLength(COMMENT_PAGE_SIZE);
    const junk = await api(post.id, "?cursor=%%%");
    expect(junk.res.status).toBe(200);
    expect(junk.body.map((c) => c.content)).toEqual(range(1, COMMENT_PAGE_SIZE));
    expect((await api(987_654, "?limit=2")).res.status).toBe(404);
  });
});

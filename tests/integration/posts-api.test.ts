import { beforeAll, describe, expect, it } from "vitest";
import * as commentRoute from "~/routes/api.comments.$id";
import * as postsRoute from "~/routes/api.posts";
import * as postRoute from "~/routes/api.posts.$id";
import * as commentsRoute from "~/routes/api.posts.$id.comments";
import * as likeRoute from "~/routes/api.posts.$id.like";
import * as shareRoute from "~/routes/api.posts.$id.share";
import * as trendingRoute from "~/routes/api.posts.trending";
import { call, createMember, makeRequest } from "../fixtures/members";
import { count, makeClub, setPostStats } from "../fixtures/posts";

type Member = Awaited<ReturnType<typeof createMember>>;

const body = {
  title: "Reading rub lines",
  content: "Rubs in late October tell you more about travel than any camera.",
  type: "article",
  tags: ["Bow Hunting", "rut"],
};

let alice: Member;
let bob: Member;

beforeAll(async () => {
  alice = await createMember({ displayName: "Alice Archer" });
  bob = await createMember({ displayName: "Bob Buck" });
});

async function create(member: Member, over: Record<string, unknown> = {}) {
  const res = await call(postsRoute.action, makeRequest("/api/posts", { json: { ...body, ...over }, cookie: member.cookie }));
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number; [k: string]: unknown };
}

describe("POST /api/posts", () => {
  it("accepts tags: null as no tags (SPEC.md §3 Post.tags: array or null)", async () => {
    const post = await create(alice, { type: "video", mediaUrl: "https://example.com/v/1", tags: null });
    expect(post.tags).toBeNull();
  });

  it("creates: 201 with the SPEC post object", async () => {
    const res = await call(postsRoute.action, makeRequest("/api/posts", { json: { ...body, mediaUrl: "" }, cookie: alice.cookie }));
    expect(res.status).toBe(201);
    const post = await res.json();
    expect(Object.keys(post).sort()).toEqual(
      [
        "author",
        // Beyond SPEC #6 (issue 14): the club a post belongs to, so cards outside it can name it.
        "club",
        "clubId",
        "commentsCount",
        "content",
        "createdAt",
        // CONTRACT.md §14 "Field reports" (issue 45): null when the post carries none.
        "field",
        "id",
        "isLiked",
        "likes",
        "mediaUrl",
        // CONTRACT.md §14 "Graphic photos" (issue 43).
        "sensitive",
        "shares",
        "tags",
        "title",
        "type",
        "uploadedFiles",
        "urlMetadata",
      ].sort(),
    );
    expect(post).toMatchObject({
      title: body.title,
      tags: ["bow hunting", "rut"],
      mediaUrl: null,
      likes: 0,
      isLiked: false,
      uploadedFiles: [],
    });
    expect(post.author).toEqual({ id: alice.id, username: alice.username, displayName: "Alice Archer", avatar: null });
    // Never a hash, a session or an email.
    const text = JSON.stringify(post);
    expect(text).not.toContain("passwordHash");
    expect(text).not.toContain("@example.com");
  });

  it("stores content that looks like HTML as typed (the pages render it as text)", async () => {
    const content = `<script>alert("pwned")</script>\n<a href="javascript:alert(1)">click</a>`;
    const post = await create(alice, { title: "<b>bold?</b>", content });
    const read = await (await call(postRoute.loader, makeRequest(`/api/posts/${post.id}`), { id: String(post.id) })).json();
    expect(read).toMatchObject({ title: "<b>bold?</b>", content });
  });

  it("answers 401 to a visitor", async () => {
    const res = await call(postsRoute.action, makeRequest("/api/posts", { json: body }));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: expect.any(String) });
  });

  it.each([
    [{ title: "" }, { title: ["Title is required"] }],
    [{ title: "x".repeat(201) }, { title: ["Title too long"] }],
    [{ content: "too short" }, { content: ["Content must be at least 10 characters"] }],
    [{ content: "x".repeat(10_001) }, { content: ["Content too long"] }],
    [{ mediaUrl: "javascript:alert(document.cookie)" }, { mediaUrl: ["Invalid URL format"] }],
    [{ mediaUrl: "nope" }, { mediaUrl: ["Invalid URL format"] }],
    [{ tags: Array.from({ length: 11 }, (_, i) => `tag${i}`) }, { tags: ["Too many tags"] }],
  ])("refuses %j with 400 and the SPEC message, writing nothing", async (over, fieldErrors) => {
    const before = await count(`SELECT count(*) AS n FROM posts`);
    const res = await call(postsRoute.action, makeRequest("/api/posts", { json: { ...body, ...over }, cookie: alice.cookie }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: expect.any(String), fieldErrors });
    expect(await count(`SELECT count(*) AS n FROM posts`)).toBe(before);
  });

  it("refuses a malformed body (400), a non-JSON body (415) and a cross-site request (403)", async () => {
    expect((await call(postsRoute.action, makeRequest("/api/posts", { json: "{not json", cookie: alice.cookie }))).status).toBe(400);
    expect((await call(postsRoute.action, makeRequest("/api/posts", { json: "[1,2]", cookie: alice.cookie }))).status).toBe(400);
    expect((await call(postsRoute.action, makeRequest("/api/posts", { form: { title: "x" }, cookie: alice.cookie }))).status).toBe(415);
    const cross = makeRequest("/api/posts", { json: body, cookie: alice.cookie, headers: { Origin: "https://evil.example" } });
    expect((await call(postsRoute.action, cross)).status).toBe(403);
  });

  it("posts into a club only as a member (403)", async () => {
    const club = await makeClub(alice.id, { isPrivate: false });
    const res = await call(postsRoute.action, makeRequest("/api/posts", { json: { ...body, clubId: club }, cookie: bob.cookie }));
    expect(res.status).toBe(403);
    expect((await create(alice, { clubId: club })).clubId).toBe(club);
  });
});

describe("GET /api/posts", () => {
  let author: Member;
  beforeAll(async () => {
    author = await createMember();
    for (let i = 0; i < 55; i++) await create(author, { title: `Paged post ${i}`, type: i % 2 ? "video" : "opinion" });
  });

  it("answers a JSON array of 20 by default with a Link rel=next that walks every page", async () => {
    const seen = new Set<number>();
    let url: string | null = "/api/posts?sortBy=recent";
    let pages = 0;
    let firstLength = 0;
    while (url) {
      const res = await call(postsRoute.loader, makeRequest(url));
      expect(res.status).toBe(200);
      const posts = (await res.json()) as { id: number }[];
      expect(Array.isArray(posts)).toBe(true);
      if (pages === 0) firstLength = posts.length;
      for (const p of posts) {
        expect(seen.has(p.id)).toBe(false);
        seen.add(p.id);
      }
      pages += 1;
      const link = res.headers.get("Link");
      if (link) {
        const match = /^<([^>]+)>; rel="next"$/.exec(link);
        expect(match).not.toBeNull();
        const next = new URL(match![1]!);
        expect(next.searchParams.get("sortBy")).toBe("recent");
        expect(next.searchParams.get("cursor")).toBeTruthy();
        expect(next.searchParams.has("offset")).toBe(false);
        url = `${next.pathname}${next.search}`;
      } else url = null;
    }
    expect(firstLength).toBe(20);
    expect(seen.size).toBe(await count(`SELECT count(*) AS n FROM posts WHERE club_id IS NULL`));
    expect(pages).toBeGreaterThanOrEqual(3);
  });

  it("caps limit at 50 and has no Link on the last page", async () => {
    const res = await call(postsRoute.loader, makeRequest("/api/posts?limit=1000"));
    expect(((await res.json()) as unknown[]).length).toBe(50);
    expect(res.headers.get("Link")).toContain('rel="next"');
    const total = await count(`SELECT count(*) AS n FROM posts WHERE club_id IS NULL`);
    expect(total).toBeLessThanOrEqual(100);
    const next = new URL(/<([^>]+)>/.exec(res.headers.get("Link")!)![1]!);
    const last = await call(postsRoute.loader, makeRequest(`${next.pathname}${next.search}`));
    expect(((await last.json()) as unknown[]).length).toBe(total - 50);
    expect(last.headers.get("Link")).toBeNull();
  });

  it("ignores an unknown sort, type or limit (defaults) and never crashes on junk", async () => {
    const plain = (await (await call(postsRoute.loader, makeRequest("/api/posts"))).json()) as { id: number }[];
    for (const q of [
      "sortBy=random&type=poem&limit=abc",
      "cursor=%FF%FE&search=%00",
      "search=%22%20OR%20*&sortBy[]=x",
      "type=video&type=podcast",
    ]) {
      const res = await call(postsRoute.loader, makeRequest(`/api/posts?${q}`));
      expect(res.status).toBe(200);
      expect(Array.isArray(await res.json())).toBe(true);
    }
    const junk = (await (await call(postsRoute.loader, makeRequest("/api/posts?sortBy=random&type=poem"))).json()) as { id: number }[];
    expect(junk.map((p) => p.id)).toEqual(plain.map((p) => p.id));
  });

  it("filters by type and finds by search (text and #hashtag)", async () => {
    const videos = (await (await call(postsRoute.loader, makeRequest("/api/posts?type=video&limit=50"))).json()) as { type: string }[];
    expect(videos.length).toBeGreaterThan(0);
    expect(videos.every((p) => p.type === "video")).toBe(true);
    const tagged = await create(alice, { title: "Quiet morning", content: "Nothing moved until nine o'clock.", tags: ["Bow Hunting"] });
    const found = (await (await call(postsRoute.loader, makeRequest("/api/posts?search=%23BowHunting&limit=50"))).json()) as {
      id: number;
    }[];
    expect(found.map((p) => p.id)).toContain(tagged.id);
    const byText = (await (await call(postsRoute.loader, makeRequest("/api/posts?search=%20nine%20o%27clock%20"))).json()) as {
      id: number;
    }[];
    expect(byText.map((p) => p.id)).toEqual([tagged.id]);
  });

  it("reports isLiked for the caller", async () => {
    const post = await create(alice);
    await call(likeRoute.action, makeRequest(`/api/posts/${post.id}/like`, { method: "POST", cookie: bob.cookie }), {
      id: String(post.id),
    });
    const find = async (cookie?: string) => {
      const res = await call(postsRoute.loader, makeRequest("/api/posts?limit=50", { cookie }));
      return ((await res.json()) as { id: number; isLiked: boolean; likes: number }[]).find((p) => p.id === post.id)!;
    };
    expect(await find(bob.cookie)).toMatchObject({ isLiked: true, likes: 1 });
    expect(await find(alice.cookie)).toMatchObject({ isLiked: false, likes: 1 });
    expect(await find()).toMatchObject({ isLiked: false, likes: 1 });
  });

  it("answers 401 to following=true for a visitor", async () => {
    expect((await call(postsRoute.loader, makeRequest("/api/posts?following=true"))).status).toBe(401);
    expect((await call(postsRoute.loader, makeRequest("/api/posts?following=true", { cookie: bob.cookie }))).status).toBe(200);
  });
});

describe("/api/posts/{id}", () => {
  it("GET: 200 the post; 404 'Post Not Found' for a missing or non-numeric id", async () => {
    const post = await create(alice);
    const ok = await call(postRoute.loader, makeRequest(`/api/posts/${post.id}`), { id: String(post.id) });
    expect(ok.status).toBe(200);
    expect((await ok.json()).id).toBe(post.id);
    for (const id of ["987654", "abc", "1.5", "-1", "0", "1e3", "99999999999999999999"]) {
      const res = await call(postRoute.loader, makeRequest(`/api/posts/${id}`), { id });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Post Not Found" });
    }
  });

  it("PUT and DELETE: 401 visitor, 403 other member, then the author succeeds", async () => {
    const post = await create(alice, { mediaUrl: "https://example.com/v", type: "video" });
    const params = { id: String(post.id) };
    const change = { title: "Edited title", content: "Edited content that is long enough.", type: "podcast", mediaUrl: "", tags: null };
    const put = (cookie?: string, json: unknown = change) =>
      call(postRoute.action, makeRequest(`/api/posts/${post.id}`, { method: "PUT", json, cookie }), params);
    const del = (cookie?: string) => call(postRoute.action, makeRequest(`/api/posts/${post.id}`, { method: "DELETE", cookie }), params);

    expect((await put()).status).toBe(401);
    const forbidden = await put(bob.cookie);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({ error: expect.any(String) });
    expect((await del()).status).toBe(401);
    expect((await del(bob.cookie)).status).toBe(403);
    expect(await count(`SELECT count(*) AS n FROM posts WHERE id = ? AND title = ?`, post.id, body.title)).toBe(1);

    const bad = await put(alice.cookie, { ...change, content: "x".repeat(10_001), mediaUrl: "javascript:alert(1)" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).fieldErrors).toEqual({ content: ["Content too long"], mediaUrl: ["Invalid URL format"] });

    const ok = await put(alice.cookie);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ title: "Edited title", type: "podcast", mediaUrl: null, tags: null });

    // Comments and likes go with the post.
    await call(
      commentsRoute.action,
      makeRequest(`/api/posts/${post.id}/comments`, { json: { content: "Nice" }, cookie: bob.cookie }),
      params,
    );
    await call(likeRoute.action, makeRequest(`/api/posts/${post.id}/like`, { method: "POST", cookie: bob.cookie }), params);
    const gone = await del(alice.cookie);
    expect(gone.status).toBe(204);
    expect(await gone.text()).toBe("");
    expect(await count(`SELECT count(*) AS n FROM comments WHERE post_id = ?`, post.id)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM likes WHERE post_id = ?`, post.id)).toBe(0);
    expect((await call(postRoute.loader, makeRequest(`/api/posts/${post.id}`), params)).status).toBe(404);
    expect((await del(alice.cookie)).status).toBe(404);
  });

  it("PUT on a non-numeric id is 404", async () => {
    const res = await call(postRoute.action, makeRequest(`/api/posts/abc`, { method: "PUT", json: body, cookie: alice.cookie }), {
      id: "abc",
    });
    expect(res.status).toBe(404);
  });
});

describe("likes, shares, comments", () => {
  it("POST/DELETE like: 200 {likes, isLiked}, idempotent; 401 visitor; 405 on GET", async () => {
    const post = await create(alice);
    const params = { id: String(post.id) };
    const like = (method: string, cookie?: string) =>
      call(likeRoute.action, makeRequest(`/api/posts/${post.id}/like`, { method, cookie }), params);
    expect((await like("POST")).status).toBe(401);
    const first = await like("POST", bob.cookie);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ likes: 1, isLiked: true });
    expect(await (await like("POST", bob.cookie)).json()).toEqual({ likes: 1, isLiked: true });
    expect(await (await like("DELETE", bob.cookie)).json()).toEqual({ likes: 0, isLiked: false });
    expect(await (await like("DELETE", bob.cookie)).json()).toEqual({ likes: 0, isLiked: false });
    expect((await like("PUT", bob.cookie)).status).toBe(405);
    expect(likeRoute.loader().status).toBe(405);
    const missing = await call(likeRoute.action, makeRequest(`/api/posts/nope/like`, { method: "POST", cookie: bob.cookie }), {
      id: "nope",
    });
    expect(missing.status).toBe(404);
  });

  it("POST share: 200 {shares} signed in, 401 visitor", async () => {
    const post = await create(alice);
    const params = { id: String(post.id) };
    expect((await call(shareRoute.action, makeRequest(`/api/posts/${post.id}/share`, { method: "POST" }), params)).status).toBe(401);
    const res = await call(shareRoute.action, makeRequest(`/api/posts/${post.id}/share`, { method: "POST", cookie: bob.cookie }), params);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ shares: 1 });
  });

  it("comments: 201 the comment, 200 oldest first, 400 blank, 401 visitor; DELETE author only", async () => {
    const post = await create(alice);
    const params = { id: String(post.id) };
    const add = (json: unknown, cookie?: string) =>
      call(commentsRoute.action, makeRequest(`/api/posts/${post.id}/comments`, { json, cookie }), params);
    expect((await add({ content: "hi" })).status).toBe(401);
    const blank = await add({ content: "   " }, bob.cookie);
    expect(blank.status).toBe(400);
    expect(await blank.json()).toEqual({ error: expect.any(String), fieldErrors: { content: ["Comment cannot be empty"] } });
    const a = await add({ content: "First" }, bob.cookie);
    expect(a.status).toBe(201);
    const first = await a.json();
    expect(first).toMatchObject({ content: "First", author: { id: bob.id, username: bob.username } });
    await add({ content: "Second" }, alice.cookie);
    const list = await call(commentsRoute.loader, makeRequest(`/api/posts/${post.id}/comments`), params);
    expect(list.status).toBe(200);
    expect(((await list.json()) as { content: string }[]).map((c) => c.content)).toEqual(["First", "Second"]);

    const cparams = { id: String(first.id) };
    const del = (cookie?: string) =>
      call(commentRoute.action, makeRequest(`/api/comments/${first.id}`, { method: "DELETE", cookie }), cparams);
    expect((await del()).status).toBe(401);
    expect((await del(alice.cookie)).status).toBe(403);
    expect((await del(bob.cookie)).status).toBe(204);
    expect((await del(bob.cookie)).status).toBe(404);
    expect(
      (await call(commentRoute.action, makeRequest(`/api/comments/x`, { method: "DELETE", cookie: bob.cookie }), { id: "x" })).status,
    ).toBe(404);
    const post2 = await (await call(postRoute.loader, makeRequest(`/api/posts/${post.id}`), params)).json();
    expect(post2.commentsCount).toBe(1);
  });

  it("PUT /api/comments/{id} {content}: 200 the comment for its author; 401 visitor, 403 other member, 400 blank, 404 missing", async () => {
    const post = await create(alice);
    const added = await call(
      commentsRoute.action,
      makeRequest(`/api/posts/${post.id}/comments`, { json: { content: "Fisrt" }, cookie: bob.cookie }),
      { id: String(post.id) },
    );
    const comment = (await added.json()) as { id: number };
    const put = (json: unknown, cookie?: string, id = String(comment.id)) =>
      call(commentRoute.action, makeRequest(`/api/comments/${id}`, { method: "PUT", json, cookie }), { id });
    expect((await put({ content: "First" })).status).toBe(401);
    expect((await put({ content: "First" }, alice.cookie)).status).toBe(403);
    const blank = await put({ content: " " }, bob.cookie);
    expect(blank.status).toBe(400);
    expect(await blank.json()).toEqual({ error: expect.any(String), fieldErrors: { content: ["Comment cannot be empty"] } });
    expect((await put({ content: "First" }, bob.cookie, "999999")).status).toBe(404);
    const ok = await put({ content: "First" }, bob.cookie);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ id: comment.id, content: "First", author: { id: bob.id } });
  });
});

describe("GET /api/posts/trending", () => {
  it("answers up to 5 posts with engagement, best first", async () => {
    const post = await create(alice, { title: "Trending now" });
    await setPostStats(post.id, { likes: 500 });
    const res = await call(trendingRoute.loader, makeRequest("/api/posts/trending"));
    expect(res.status).toBe(200);
    const list = (await res.json()) as { id: number; likes: number }[];
    expect(list.length).toBeLessThanOrEqual(5);
    expect(list[0]!.id).toBe(post.id);
  });
});

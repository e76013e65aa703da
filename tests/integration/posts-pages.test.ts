import { beforeAll, describe, expect, it } from "vitest";
import { addComment, listComments } from "~/models/posts/comment.server";
import { createPost, getPost } from "~/models/posts/post.server";
import * as home from "~/routes/_index/route";
import * as createPage from "~/routes/create";
import * as postPage from "~/routes/post.$id/route";
import { env } from "~/utils/env.server";
import { getToast } from "~/web/toast.server";
import { call, cookiesFrom, createMember, makeRequest } from "../fixtures/members";
import { addMember, count, makeClub } from "../fixtures/posts";

/**
 * The posts pages' loaders and actions (issue 3): every post intent through /post/{id} as a plain
 * form post (redirect + flash toast) and as a fetch (JSON), permissions as a visitor, another
 * member and the author, the create action and the home feed's loader.
 */

type Member = Awaited<ReturnType<typeof createMember>>;
let author: Member;
let other: Member;

beforeAll(async () => {
  author = await createMember({ displayName: "Alice Author" });
  other = await createMember({ displayName: "Oscar Other" });
});

const NAVIGATE = { "Sec-Fetch-Mode": "navigate" };
const FETCH = { "Sec-Fetch-Mode": "cors" };

async function newPost(over: Partial<Parameters<typeof createPost>[1]> = {}) {
  return createPost(
    { id: author.id },
    {
      title: "Opening morning",
      content: "A cold front and a long sit on the ridge.",
      type: "article",
      tags: ["rut"],
      ...over,
    },
  );
}

function postForm(id: number, form: Record<string, string>, { cookie, fetch = false }: { cookie?: string | null; fetch?: boolean } = {}) {
  return makeRequest(`/post/${id}`, { form, cookie, headers: fetch ? FETCH : NAVIGATE });
}

async function act(id: number, form: Record<string, string>, options: { cookie?: string | null; fetch?: boolean } = {}) {
  return call(postPage.action, postForm(id, form, options), { id: String(id) });
}

async function toastOf(response: Response) {
  const { toast } = await getToast(new Request("http://localhost:3000/", { headers: { Cookie: cookiesFrom(response) } }));
  if (!toast) return toast;
  // The id only lets the page show a toast once; what the member reads is the rest.
  const { id: _id, ...shown } = toast;
  return shown;
}

describe("the post page loader", () => {
  it("answers 404 'Post Not Found' for a missing or non-numeric id", async () => {
    for (const id of ["999999", "abc", "0", "1e3", "-1"]) {
      const res = await call(postPage.loader, makeRequest(`/post/${id}`), { id });
      expect(res.status, id).toBe(404);
      expect(await res.json()).toEqual({ message: "Post Not Found" });
    }
  });

  it("gives the post, its comments oldest first and the public link to share", async () => {
    const post = await newPost();
    await addComment({ id: other.id }, post.id, { content: "first" });
    await addComment({ id: author.id }, post.id, { content: "second" });
    // Setup: X-Forwarded-Proto counts only behind a trusted proxy (TRUST_PROXY, CONTRACT.md §6).
    env.TRUST_PROXY = 1;
    const res = await call(
      postPage.loader,
      makeRequest(`/post/${post.id}`, { cookie: other.cookie, headers: { "X-Forwarded-Proto": "https", Host: "pulse.example" } }),
      { id: String(post.id) },
    ).finally(() => (env.TRUST_PROXY = 0));
    expect(res.status).toBe(200);
    const data = await res.json();
    expect(data.post).toMatchObject({ id: post.id, title: "Opening morning", isLiked: false });
    expect(data.comments.map((c: { content: string }) => c.content)).toEqual(["first", "second"]);
    expect(data.viewerId).toBe(other.id);
    expect(data.shareUrl).toBe(`https://pulse.example/post/${post.id}`);
  });

  it("builds the link to share from Host: a forged X-Forwarded-Host cannot point members elsewhere", async () => {
    const post = await newPost();
    const headers = { Host: "pulse.example", "X-Forwarded-Host": "evil.example" };
    const res = await call(postPage.loader, makeRequest(`/post/${post.id}`, { cookie: other.cookie, headers }), { id: String(post.id) });
    expect((await res.json()).shareUrl).toBe(`http://pulse.example/post/${post.id}`);
  });

  it("hides a private club's post from visitors and non-members (404), shows it to members", async () => {
    const clubId = await makeClub(author.id, { isPrivate: true, name: "Creek Bottom Crew" });
    const post = await newPost({ clubId });
    const member = await createMember();
    await addMember(clubId, member.id);
    for (const cookie of [null, other.cookie]) {
      const res = await call(postPage.loader, makeRequest(`/post/${post.id}`, { cookie }), { id: String(post.id) });
      expect(res.status).toBe(404);
    }
    const res = await call(postPage.loader, makeRequest(`/post/${post.id}`, { cookie: member.cookie }), { id: String(post.id) });
    expect(res.status).toBe(200);
  });
});

describe("editing and deleting: only the author", () => {
  const edit = {
    intent: "update",
    title: "Changed title",
    content: "Changed content, long enough.",
    type: "video",
    mediaUrl: "",
    tags: "",
  };

  it("a visitor is sent to sign in and nothing changes", async () => {
    const post = await newPost();
    for (const form of [edit, { intent: "delete" }]) {
      const res = await act(post.id, form);
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toMatch(/^\/auth\?mode=login/);
      expect((await toastOf(res))?.title).toBe("Sign in required");
    }
    expect((await getPost(null, post.id)).title).toBe("Opening morning");
  });

  it("another member gets 403 and nothing changes", async () => {
    const post = await newPost();
    for (const fetch of [false, true]) {
      for (const form of [edit, { intent: "delete" }]) {
        const res = await act(post.id, form, { cookie: other.cookie, fetch });
        expect(res.status).toBe(403);
      }
    }
    const after = await getPost(null, post.id);
    expect(after).toMatchObject({ title: "Opening morning", type: "article", tags: ["rut"] });
  });

  it("the author's edit: 'Post updated', tags split from the comma field, none means null", async () => {
    const post = await newPost();
    let res = await act(post.id, { ...edit, tags: " Rut, SCRAPES ,rut, " }, { cookie: author.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/post/${post.id}`);
    expect(await toastOf(res)).toEqual({ title: "Post updated", description: "Your post has been updated successfully", type: "success" });
    expect(await getPost(null, post.id)).toMatchObject({ title: "Changed title", type: "video", tags: ["rut", "scrapes"], mediaUrl: null });

    res = await act(post.id, { ...edit, tags: "  , " }, { cookie: author.cookie, fetch: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ intent: "update", ok: true });
    expect((await toastOf(res))?.title).toBe("Post updated");
    expect((await getPost(null, post.id)).tags).toBeNull();
  });

  it("a bad edit answers SPEC's messages with what was typed, and changes nothing", async () => {
    const post = await newPost();
    const res = await act(post.id, { ...edit, title: "  ", content: "short", mediaUrl: "javascript:alert(1)" }, { cookie: author.cookie });
    expect(res.status).toBe(400);
    const data = await res.json();
    expect(data.intent).toBe("update");
    expect(data.result.error).toMatchObject({
      title: ["Title is required"],
      content: ["Content must be at least 10 characters"],
      mediaUrl: ["Invalid URL format"],
    });
    expect(data.result.initialValue).toMatchObject({ content: "short", type: "video", mediaUrl: "javascript:alert(1)" });
    expect(await getPost(null, post.id)).toMatchObject({ title: "Opening morning", content: "A cold front and a long sit on the ridge." });
  });

  it("the author's delete goes home with 'Post deleted' and takes the comments along", async () => {
    const post = await newPost();
    await addComment({ id: other.id }, post.id, { content: "nice" });
    const res = await act(post.id, { intent: "delete" }, { cookie: author.cookie, fetch: true });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect(await toastOf(res)).toEqual({ title: "Post deleted", description: "Your post has been deleted successfully", type: "success" });
    await expect(async () => getPost(null, post.id)).rejects.toMatchObject({ status: 404 });
    expect(await count("SELECT count(*) AS n FROM comments WHERE post_id = ?", post.id)).toBe(0);
    // Deleting again: the post is gone.
    expect((await act(post.id, { intent: "delete" }, { cookie: author.cookie })).status).toBe(404);
  });

  it("refuses a cross-site post", async () => {
    const post = await newPost();
    const request = makeRequest(`/post/${post.id}`, {
      form: { intent: "delete" },
      cookie: author.cookie,
      headers: { Origin: "https://evil.example" },
    });
    const res = await call(postPage.action, request, { id: String(post.id) });
    expect(res.status).toBe(403);
    expect((await getPost(null, post.id)).id).toBe(post.id);
  });
});

describe("likes", () => {
  it("a plain form post redirects back where it came from; a fetch gets {likes, isLiked}", async () => {
    const post = await newPost();
    let res = await act(post.id, { intent: "like", redirectTo: "/?type=article#post-1" }, { cookie: other.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/?type=article#post-1");
    res = await act(post.id, { intent: "like" }, { cookie: other.cookie, fetch: true });
    expect(await res.json()).toEqual({ intent: "like", ok: true, likes: 1, isLiked: true });
    res = await act(post.id, { intent: "unlike" }, { cookie: other.cookie, fetch: true });
    expect(await res.json()).toEqual({ intent: "unlike", ok: true, likes: 0, isLiked: false });
  });

  it("never redirects off the site", async () => {
    const post = await newPost();
    for (const redirectTo of ["//evil.example/x", "https://evil.example", "/\\evil.example"]) {
      const res = await act(post.id, { intent: "like", redirectTo }, { cookie: other.cookie });
      expect(res.headers.get("Location")).toBe(`/post/${post.id}`);
    }
  });

  it("a visitor is told 'Please sign in to like posts' (sent to sign in, or a 401 for a fetch)", async () => {
    const post = await newPost();
    let res = await act(post.id, { intent: "like" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/auth\?mode=login/);
    expect(await toastOf(res)).toMatchObject({ title: "Sign in required", description: "Please sign in to like posts" });
    res = await act(post.id, { intent: "like" }, { fetch: true });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ ok: false, status: 401, error: "Please sign in to like posts" });
    expect((await getPost(null, post.id)).likes).toBe(0);
  });
});

describe("comments and shares", () => {
  it("adds a comment (to #comments with a toast); whitespace-only is ignored (SPEC §5), a script is told why", async () => {
    const post = await newPost();
    // A plain form (no JavaScript) goes back to the comments with nothing posted and nothing to say,
    // as the page with JavaScript ignores it (audit ux-2 N7).
    let res = await act(post.id, { intent: "comment", content: "   \n " }, { cookie: other.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/post/${post.id}#comments`);
    expect(await toastOf(res)).toBeNull();
    res = await act(post.id, { intent: "comment", content: "   \n " }, { cookie: other.cookie, fetch: true });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, error: "Comment cannot be empty" });
    expect(await listComments(null, post.id)).toHaveLength(0);

    res = await act(post.id, { intent: "comment", content: "Saw him at 7:10" }, { cookie: other.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/post/${post.id}#comments`);
    res = await act(post.id, { intent: "comment", content: "x".repeat(2001) }, { cookie: other.cookie, fetch: true });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "Comment too long", content: "x".repeat(2001) });
    expect((await listComments(null, post.id)).map((c) => c.content)).toEqual(["Saw him at 7:10"]);
  });

  it("a visitor's comment is refused with 'Please sign in to comment'", async () => {
    const post = await newPost();
    const res = await act(post.id, { intent: "comment", content: "hello there" });
    expect(res.status).toBe(302);
    expect(await toastOf(res)).toMatchObject({ description: "Please sign in to comment" });
    expect(await listComments(null, post.id)).toHaveLength(0);
  });

  it("only the comment's author deletes it", async () => {
    const post = await newPost();
    const comment = await addComment({ id: other.id }, post.id, { content: "mine" });
    let res = await act(post.id, { intent: "delete-comment", commentId: String(comment.id) }, { cookie: author.cookie });
    expect(res.status).toBe(403);
    res = await act(post.id, { intent: "delete-comment", commentId: String(comment.id) });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/auth/);
    expect(await listComments(null, post.id)).toHaveLength(1);
    res = await act(post.id, { intent: "delete-comment", commentId: String(comment.id) }, { cookie: other.cookie, fetch: true });
    expect(await res.json()).toEqual({ intent: "delete-comment", ok: true });
    expect(await listComments(null, post.id)).toHaveLength(0);
    res = await act(post.id, { intent: "delete-comment", commentId: "abc" }, { cookie: other.cookie });
    expect(res.status).toBe(404);
  });

  it("share: a form post shows the link page, a fetch gets the count", async () => {
    const post = await newPost();
    let res = await act(post.id, { intent: "share" }, { cookie: other.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/post/${post.id}?shared=1`);
    // A member's share counts once (the domain's rule); another member's adds one.
    res = await act(post.id, { intent: "share" }, { cookie: other.cookie, fetch: true });
    expect(await res.json()).toEqual({ intent: "share", ok: true, shares: 1 });
    res = await act(post.id, { intent: "share" }, { cookie: author.cookie, fetch: true });
    expect(await res.json()).toEqual({ intent: "share", ok: true, shares: 2 });
  });

  it("an unknown intent is a 400", async () => {
    const post = await newPost();
    const res = await act(post.id, { intent: "explode" }, { cookie: author.cookie });
    expect(res.status).toBe(400);
  });
});

describe("the create page", () => {
  function multipart(form: Record<string, string>, cookie?: string, path = "/create") {
    const body = new FormData();
    for (const [k, v] of Object.entries(form)) body.append(k, v);
    const headers: Record<string, string> = { Origin: "http://localhost:3000" };
    if (cookie) headers.Cookie = cookie;
    return new Request(`http://localhost:3000${path}`, { method: "POST", body, headers });
  }

  it("sends visitors to sign in and back", async () => {
    const res = await call(createPage.loader, makeRequest("/create"));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/auth?mode=login&redirectTo=%2Fcreate");
    const posted = await call(createPage.action, multipart({ title: "T", content: "Long enough content" }));
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toMatch(/^\/auth\?mode=login/);
  });

  it("publishes from the multipart form: 'Post created!' then the post page", async () => {
    const before = await count("SELECT count(*) AS n FROM posts");
    const res = await call(
      createPage.action,
      multipart(
        {
          type: "podcast",
          title: " Scrape Line Ep. 43 ",
          content: "Mock scrapes, licking branches and timing.",
          mediaUrl: "https://example.com/ep43",
          tags: "Deer Behavior, podcast ,deer behavior",
        },
        author.cookie,
      ),
    );
    expect(res.status).toBe(302);
    const id = Number(/^\/post\/(\d+)$/.exec(res.headers.get("Location") ?? "")?.[1]);
    expect(id).toBeGreaterThan(0);
    expect((await toastOf(res))?.title).toBe("Post created!");
    expect(await count("SELECT count(*) AS n FROM posts")).toBe(before + 1);
    expect(await getPost(null, id)).toMatchObject({
      title: "Scrape Line Ep. 43",
      type: "podcast",
      mediaUrl: "https://example.com/ep43",
      tags: ["deer behavior", "podcast"],
      author: { id: author.id },
    });
  });

  it("answers SPEC's messages with everything typed, and creates nothing", async () => {
    const before = await count("SELECT count(*) AS n FROM posts");
    const tags = Array.from({ length: 11 }, (_, i) => `tag${i}`).join(",");
    const res = await call(
      createPage.action,
      multipart({ type: "video", title: "", content: "tiny", mediaUrl: "javascript:alert(1)", tags }, author.cookie),
    );
    expect(res.status).toBe(400);
    const reply = await res.json();
    expect(reply.error).toMatchObject({
      title: ["Title is required"],
      content: ["Content must be at least 10 characters"],
      mediaUrl: ["Invalid URL format"],
      tags: ["Too many tags"],
    });
    expect(reply.initialValue).toMatchObject({ type: "video", content: "tiny", mediaUrl: "javascript:alert(1)", tags });
    expect(await count("SELECT count(*) AS n FROM posts")).toBe(before);
  });

  it("a 10,001-character content is 'Content too long'", async () => {
    const res = await call(createPage.action, multipart({ title: "Long", content: "x".repeat(10_001) }, author.cookie));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ content: ["Content too long"] });
  });

  it("a club post from a non-member is refused (403)", async () => {
    const clubId = await makeClub(author.id, { isPrivate: false, name: "Public Ridge" });
    const res = await call(
      createPage.action,
      multipart({ title: "Sneaky", content: "Posting where I do not belong.", clubId: String(clubId) }, other.cookie),
    );
    expect(res.status).toBe(403);
  });
});

describe("the home feed loader", () => {
  it("sends untrimmed search text to the trimmed URL, and drops empty text", async () => {
    const padded = await call(home.loader, makeRequest("/?type=video&search=%20%20rub%20lines%20"));
    expect(padded.status).toBe(302);
    expect(padded.headers.get("Location")).toBe("/?type=video&search=rub+lines");
    const blank = await call(home.loader, makeRequest("/?search=%20%20&sortBy=popular"));
    expect(blank.headers.get("Location")).toBe("/?sortBy=popular");
  });

  it("reads filters from the URL, falls back to defaults on junk, and ignores 'following' for visitors", async () => {
    let res = await call(home.loader, makeRequest("/?type=junk&sortBy=nope&search=&following=true&cursor=%%%"));
    let data = await res.json();
    expect(data.filters).toEqual({ type: "all", sortBy: "recent", following: false });
    expect(data.viewerId).toBeNull();
    res = await call(home.loader, makeRequest("/?type=video&sortBy=popular&search=scrape&following=true", { cookie: other.cookie }));
    data = await res.json();
    expect(data.filters).toEqual({ type: "video", sortBy: "popular", search: "scrape", following: true });
  });

  it("pages of 20 with a cursor, no overlap; '#BowHunting' finds 'bow hunting'", async () => {
    const tag = `paging${Date.now()}`;
    for (let i = 0; i < 23; i += 1) await newPost({ title: `Paged ${i}`, tags: [tag, "Bow Hunting"] });
    const first = await (await call(home.loader, makeRequest(`/?search=${encodeURIComponent(`#${tag}`)}`))).json();
    expect(first.posts).toHaveLength(20);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await (
      await call(home.loader, makeRequest(`/?search=${encodeURIComponent(`#${tag}`)}&cursor=${encodeURIComponent(first.nextCursor)}`))
    ).json();
    expect(second.posts).toHaveLength(3);
    expect(second.nextCursor).toBeNull();
    expect(second.cursor).toBe(first.nextCursor);
    const ids = [...first.posts, ...second.posts].map((p: { id: number }) => p.id);
    expect(new Set(ids).size).toBe(23);
    const hashtag = await (await call(home.loader, makeRequest("/?search=%23BowHunting"))).json();
    expect(hashtag.posts.length).toBeGreaterThan(0);
    for (const post of hashtag.posts) expect(post.tags).toContain("bow hunting");
    expect(hashtag.trending.length).toBeLessThanOrEqual(5);
  });
});

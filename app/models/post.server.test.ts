import { beforeAll, describe, expect, it } from "vitest";
import { addMember, count, makeClub, makeMedia, setPostStats } from "#tests/fixtures/posts";
import { createMember } from "#tests/fixtures/members";
import type { PostInput } from "~/schemas/post";
import { sqlite } from "~/utils/db.server";
import { AppError } from "~/utils/errors";
import { setRateLimitsEnabled } from "~/utils/rate-limit.server";
import { addComment } from "./comment.server";
import {
  createPost,
  decodeCursor,
  deletePost,
  encodeCursor,
  getPost,
  likePost,
  listFeed,
  listTrending,
  planFeed,
  SEARCH_DRIVES_BELOW,
  sharePost,
  unlikePost,
  updatePost,
  type Post,
} from "./post.server";

type Member = Awaited<ReturnType<typeof createMember>>;

const input = (over: Partial<PostInput> = {}): PostInput => ({
  title: "Reading rub lines",
  content: "Rubs in late October tell you more about travel than any camera.",
  type: "article",
  ...over,
});

/** Resolve to the thrown AppError (fails the test if nothing or something else is thrown). */
async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected an AppError, but the call succeeded");
}

const postsCountOf = (id: number) => count(`SELECT posts_count AS n FROM users WHERE id = ?`, id);

let alice: Member;
let bob: Member;
let carol: Member;

beforeAll(async () => {
  alice = await createMember({ displayName: "Alice Archer" });
  bob = await createMember({ displayName: "Bob Buck" });
  carol = await createMember({ displayName: "Carol Creek" });
});

describe("createPost", () => {
  it("refuses a visitor with 401 and writes nothing", async () => {
    const before = count(`SELECT count(*) AS n FROM posts`);
    expect((await failure(createPost(null, input()))).status).toBe(401);
    expect(count(`SELECT count(*) AS n FROM posts`)).toBe(before);
  });

  it("publishes with normalised tags, post_tags rows, posts_count and the SPEC shape", async () => {
    const before = postsCountOf(alice.id);
    const post = await createPost(alice, input({ tags: [" Bow Hunting", "RUT", "rut"], mediaUrl: "https://youtu.be/abc", type: "video", urlMetadata: { title: "Clip", domain: "youtu.be" } }));
    expect(post).toMatchObject({
      title: "Reading rub lines",
      type: "video",
      mediaUrl: "https://youtu.be/abc",
      urlMetadata: { title: "Clip", domain: "youtu.be" },
      tags: ["bow hunting", "rut"],
      clubId: null,
      author: { id: alice.id, username: alice.username, displayName: "Alice Archer", avatar: null },
      likes: 0,
      commentsCount: 0,
      shares: 0,
      isLiked: false,
      uploadedFiles: [],
    });
    expect(new Date(post.createdAt).toISOString()).toBe(post.createdAt);
    expect(postsCountOf(alice.id)).toBe(before + 1);
    const keys = sqlite.prepare(`SELECT key FROM post_tags WHERE post_id = ? ORDER BY key`).all(post.id);
    expect(keys).toEqual([{ key: "bowhunting" }, { key: "rut" }]);
  });

  it("stores content that looks like HTML exactly as typed", async () => {
    const content = `<script>alert("x")</script><img src=x onerror=alert(1)> & done`;
    const post = await createPost(alice, input({ content }));
    expect((await getPost(null, post.id)).content).toBe(content);
  });

  it("re-validates its input: bad input is a 400 with SPEC messages and changes nothing", async () => {
    const before = count(`SELECT count(*) AS n FROM posts`);
    const error = await failure(createPost(alice, { ...input(), content: "x".repeat(10_001), mediaUrl: "javascript:alert(1)" } as PostInput));
    expect(error.status).toBe(400);
    expect(error.fieldErrors).toEqual({ content: ["Content too long"], mediaUrl: ["Invalid URL format"] });
    expect(count(`SELECT count(*) AS n FROM posts`)).toBe(before);
  });

  it("posts in a club only for its members (403 otherwise, 404 for no such club)", async () => {
    const club = makeClub(alice.id, { isPrivate: false });
    expect((await failure(createPost(bob, input({ clubId: club })))).status).toBe(403);
    expect((await failure(createPost(bob, input({ clubId: 999_999 })))).status).toBe(404);
    addMember(club, bob.id);
    const post = await createPost(bob, input({ clubId: club }));
    expect(post.clubId).toBe(club);
  });

  it("attaches the author's own unattached uploads, and refuses anyone else's without writing", async () => {
    const mine = makeMedia(alice.id, "image");
    const audio = makeMedia(alice.id, "audio");
    const post = await createPost(alice, input({ uploadedFiles: [mine, audio] }));
    expect(post.uploadedFiles).toEqual([
      { type: "image", url: mine, name: expect.any(String), width: 800, height: 600, variants: [{ width: 400, height: 300, url: `${mine}?w=400` }] },
      { type: "audio", url: audio, name: expect.any(String) },
    ]);

    const before = postsCountOf(bob.id);
    const postsBefore = count(`SELECT count(*) AS n FROM posts`);
    const stolen = await failure(createPost(bob, input({ uploadedFiles: [mine] })));
    expect(stolen.status).toBe(400);
    expect(stolen.fieldErrors?.uploadedFiles).toBeDefined();
    // Reusing one's own upload on a second post is refused too.
    expect((await failure(createPost(alice, input({ uploadedFiles: [mine] })))).status).toBe(400);
    expect(count(`SELECT count(*) AS n FROM posts`)).toBe(postsBefore);
    expect(postsCountOf(bob.id)).toBe(before);
    expect(count(`SELECT post_id AS n FROM media WHERE url = ?`, mine)).toBe(post.id);
  });

  it("never attaches the author's current avatar to a post", async () => {
    const member = await createMember();
    const avatar = makeMedia(member.id, "image");
    sqlite.prepare(`UPDATE users SET avatar = ? WHERE id = ?`).run(avatar, member.id);
    const refused = await failure(createPost(member, input({ uploadedFiles: [avatar] })));
    expect(refused.status).toBe(400);
    expect(count(`SELECT count(*) AS n FROM media WHERE url = ? AND post_id IS NOT NULL`, avatar)).toBe(0);
  });

  it("is rate limited per member (429 with Retry-After) and a refused post is not written", async () => {
    const member = await createMember();
    setRateLimitsEnabled(true);
    try {
      for (let i = 0; i < 30; i++) await createPost(member, input({ title: `Post ${i}` }));
      const error = await failure(createPost(member, input({ title: "One too many" })));
      expect(error.status).toBe(429);
      expect(error.retryAfter).toBeGreaterThan(0);
      expect(postsCountOf(member.id)).toBe(30);
    } finally {
      setRateLimitsEnabled(false);
    }
  });
});

describe("getPost and club privacy", () => {
  it("is 404 'Post Not Found' for a missing post", async () => {
    const error = await failure(getPost(null, 987_654));
    expect(error.status).toBe(404);
    expect(error.message).toBe("Post Not Found");
  });

  it("hides a private club's post from visitors and non-members (404), shows it to members", async () => {
    const club = makeClub(carol.id, { isPrivate: true });
    const post = await createPost(carol, input({ clubId: club, title: "Lease notes" }));
    expect((await failure(getPost(null, post.id))).status).toBe(404);
    expect((await failure(getPost(bob, post.id))).status).toBe(404);
    expect((await failure(likePost(bob, post.id))).status).toBe(404);
    expect((await getPost(carol, post.id)).title).toBe("Lease notes");
    // Not on the home feed, not on Carol's profile for outsiders, on it for members.
    const home = await listFeed(null, { limit: 50 });
    expect(home.posts.some((p) => p.id === post.id)).toBe(false);
    expect((await listFeed(bob, { authorId: carol.id })).posts.some((p) => p.id === post.id)).toBe(false);
    expect((await listFeed(carol, { authorId: carol.id })).posts.some((p) => p.id === post.id)).toBe(true);
    // The club's own list: members only.
    expect((await failure(listFeed(bob, { clubId: club }))).status).toBe(403);
    expect((await failure(listFeed(null, { clubId: 999_999 }))).status).toBe(404);
    expect((await listFeed(carol, { clubId: club })).posts.map((p) => p.id)).toEqual([post.id]);
  });

  it("shows a public club's posts on the author's profile and the club's list to anyone", async () => {
    const club = makeClub(carol.id, { isPrivate: false });
    const post = await createPost(carol, input({ clubId: club }));
    expect((await listFeed(null, { authorId: carol.id })).posts.some((p) => p.id === post.id)).toBe(true);
    expect((await listFeed(null, { clubId: club })).posts.map((p) => p.id)).toEqual([post.id]);
    expect((await getPost(null, post.id)).clubId).toBe(club);
  });
});

describe("updatePost and deletePost: the author only", () => {
  it("answers 401 to a visitor, 403 to another member, 404 for no such post, and changes nothing", async () => {
    const post = await createPost(alice, input({ title: "Original" }));
    const change = { title: "Hijacked", content: "Someone else's words here", mediaUrl: null, tags: null };
    expect((await failure(updatePost(null, post.id, change))).status).toBe(401);
    expect((await failure(updatePost(bob, post.id, change))).status).toBe(403);
    expect((await failure(updatePost(alice, 987_654, change))).status).toBe(404);
    expect((await failure(deletePost(null, post.id))).status).toBe(401);
    expect((await failure(deletePost(bob, post.id))).status).toBe(403);
    expect((await failure(deletePost(alice, 987_654))).status).toBe(404);
    expect((await getPost(null, post.id)).title).toBe("Original");
  });

  it("lets the author edit: tags rewritten (null when none), search follows, a new media URL drops the old preview", async () => {
    const post = await createPost(alice, input({ tags: ["scouting"], mediaUrl: "https://example.com/a", urlMetadata: { title: "A" } }));
    const kept = await updatePost(alice, post.id, {
      title: "Frost seeding clover",
      content: "Broadcast clover seed on frozen ground in late winter.",
      type: undefined,
      mediaUrl: "https://example.com/a",
      tags: ["Food Plots", "clover"],
    });
    expect(kept).toMatchObject({ title: "Frost seeding clover", type: "article", tags: ["food plots", "clover"], urlMetadata: { title: "A" } });
    expect(sqlite.prepare(`SELECT key FROM post_tags WHERE post_id = ? ORDER BY key`).all(post.id)).toEqual([{ key: "clover" }, { key: "foodplots" }]);
    expect((await listFeed(null, { search: "frost seeding" })).posts.map((p) => p.id)).toContain(post.id);

    const changed = await updatePost(alice, post.id, { title: "T2", content: "Different content now.", type: "podcast", mediaUrl: "https://example.com/b", tags: null });
    expect(changed).toMatchObject({ type: "podcast", mediaUrl: "https://example.com/b", urlMetadata: null, tags: null });
    expect(count(`SELECT count(*) AS n FROM post_tags WHERE post_id = ?`, post.id)).toBe(0);
    expect((await listFeed(null, { search: "frost seeding" })).posts.map((p) => p.id)).not.toContain(post.id);

    const invalidEdit = await failure(updatePost(alice, post.id, { title: "", content: "short", mediaUrl: null, tags: null }));
    expect(invalidEdit.fieldErrors).toEqual({ title: ["Title is required"], content: ["Content must be at least 10 characters"] });
  });

  it("deletes with comments, likes, shares, tags and media rows, and decrements posts_count", async () => {
    const file = makeMedia(alice.id);
    const post = await createPost(alice, input({ tags: ["gone"], uploadedFiles: [file] }));
    await addComment(bob, post.id, { content: "Great read" });
    await likePost(bob, post.id);
    await sharePost(bob, post.id);
    const before = postsCountOf(alice.id);
    await deletePost(alice, post.id);
    expect(postsCountOf(alice.id)).toBe(before - 1);
    for (const table of ["comments", "likes", "shares", "post_tags", "media"]) {
      expect(count(`SELECT count(*) AS n FROM ${table} WHERE post_id = ?`, post.id)).toBe(0);
    }
    expect(count(`SELECT count(*) AS n FROM posts_fts WHERE posts_fts MATCH 'gone'`)).toBe(0);
    expect((await failure(getPost(alice, post.id))).status).toBe(404);
  });
});

describe("likes and shares", () => {
  it("likes idempotently, keeps the counter in step and reports isLiked per caller", async () => {
    const post = await createPost(alice, input());
    expect((await failure(likePost(null, post.id))).status).toBe(401);
    expect(await likePost(bob, post.id)).toEqual({ likes: 1, isLiked: true });
    expect(await likePost(bob, post.id)).toEqual({ likes: 1, isLiked: true });
    expect(await likePost(carol, post.id)).toEqual({ likes: 2, isLiked: true });
    expect((await getPost(bob, post.id)).isLiked).toBe(true);
    expect((await getPost(alice, post.id)).isLiked).toBe(false);
    expect((await getPost(null, post.id)).isLiked).toBe(false);
    const feedForBob = await listFeed(bob, { limit: 50 });
    expect(feedForBob.posts.find((p) => p.id === post.id)?.isLiked).toBe(true);
    expect((await listFeed(alice, { limit: 50 })).posts.find((p) => p.id === post.id)?.isLiked).toBe(false);

    expect(await unlikePost(bob, post.id)).toEqual({ likes: 1, isLiked: false });
    expect(await unlikePost(bob, post.id)).toEqual({ likes: 1, isLiked: false });
    expect(count(`SELECT likes_count AS n FROM posts WHERE id = ?`, post.id)).toBe(count(`SELECT count(*) AS n FROM likes WHERE post_id = ?`, post.id));
    expect((await failure(likePost(bob, 987_654))).status).toBe(404);
  });

  it("counts a member's shares of a post once; visitors get 401", async () => {
    const post = await createPost(alice, input());
    expect((await failure(sharePost(null, post.id))).status).toBe(401);
    expect(await sharePost(bob, post.id)).toEqual({ shares: 1 });
    expect(await sharePost(bob, post.id)).toEqual({ shares: 1 });
    expect(await sharePost(carol, post.id)).toEqual({ shares: 2 });
    expect((await getPost(null, post.id)).shares).toBe(2);
  });
});

describe("listFeed", () => {
  let author: Member;
  let fan: Member;
  const ids: number[] = [];

  beforeAll(async () => {
    author = await createMember();
    fan = await createMember();
    sqlite.prepare(`INSERT INTO follows (follower_id, followee_id) VALUES (?, ?)`).run(fan.id, author.id);
    const types = ["article", "opinion", "video", "podcast"] as const;
    for (let i = 0; i < 23; i++) {
      const p = await createPost(author, input({ title: `Feed post ${i}`, type: types[i % 4], tags: i % 5 === 0 ? ["Trail Cameras"] : ["misc"] }));
      ids.push(p.id);
      // Ties on purpose: likes 0..3 repeat, so the id breaks them.
      setPostStats(p.id, { likes: i % 4, comments: (i * 7) % 5, createdAt: Date.UTC(2020, 0, 1) + (i % 6) * 3_600_000 });
    }
  });

  /** Walk every page of a query and return the ids in order. */
  async function walk(actor: { id: number } | null, query: Parameters<typeof listFeed>[1], pageSize: number) {
    const seen: Post[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 100; guard++) {
      const page = await listFeed(actor, { ...query, limit: pageSize, cursor });
      expect(page.posts.length).toBeLessThanOrEqual(pageSize);
      seen.push(...page.posts);
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    return seen;
  }

  const key = (p: Post, sort: string) =>
    sort === "popular" ? p.likes : sort === "discussed" ? p.commentsCount : Date.parse(p.createdAt);

  it.each(["recent", "oldest", "popular", "discussed"] as const)(
    "pages through %s in order, every post once, with a cursor and no offset",
    async (sortBy) => {
      const all = (await walk(fan, { authorId: author.id, sortBy }, 50)).map((p) => p.id);
      const paged = await walk(fan, { authorId: author.id, sortBy }, 4);
      expect(paged.map((p) => p.id)).toEqual(all);
      expect(new Set(paged.map((p) => p.id)).size).toBe(23);
      const dir = sortBy === "oldest" ? 1 : -1;
      for (let i = 1; i < paged.length; i++) {
        const a = paged[i - 1]!;
        const b = paged[i]!;
        const cmp = Math.sign(key(b, sortBy) - key(a, sortBy)) || Math.sign(b.id - a.id);
        expect(cmp).toBe(dir);
      }
      // The same, on the home feed, filtered by type (the feed's own indexes).
      const videos = await walk(null, { type: "video", sortBy }, 2);
      expect(videos.length).toBeGreaterThan(0);
      expect(videos.every((p) => p.type === "video")).toBe(true);
      expect(videos.filter((p) => p.author.id === author.id).map((p) => p.id).sort((x, y) => x - y)).toEqual(
        ids.filter((_, i) => i % 4 === 2),
      );
    },
  );

  it("clamps the limit to 50 and ignores a cursor from another sort or junk", async () => {
    expect((await listFeed(null, { limit: 500 })).posts.length).toBeLessThanOrEqual(50);
    const first = await listFeed(null, { limit: 3, sortBy: "recent" });
    const junk = await listFeed(null, { limit: 3, sortBy: "recent", cursor: "%%%not-a-cursor" });
    expect(junk.posts.map((p) => p.id)).toEqual(first.posts.map((p) => p.id));
    expect(decodeCursor("popular", encodeCursor("recent", 5, 7))).toBeNull();
    expect(decodeCursor("recent", encodeCursor("recent", 5, 7))).toEqual({ value: 5, id: 7 });
  });

  it("shows the posts of followed members (signed in only)", async () => {
    const page = await walk(fan, { following: true }, 50);
    expect(page.length).toBe(23);
    expect(page.every((p) => p.author.id === author.id)).toBe(true);
    expect(planFeed(fan, { following: true }).sql).toContain("INDEXED BY posts_author_recent");
    // A member who follows prolific authors: the feed index drives instead, same answer.
    sqlite.prepare(`UPDATE users SET posts_count = posts_count + 5000 WHERE id = ?`).run(author.id);
    try {
      expect(planFeed(fan, { following: true }).sql).toContain("INDEXED BY posts_feed_recent");
      expect((await walk(fan, { following: true }, 7)).map((p) => p.id)).toEqual(page.map((p) => p.id));
      expect((await walk(fan, { following: true, sortBy: "popular" }, 50)).length).toBe(23);
    } finally {
      sqlite.prepare(`UPDATE users SET posts_count = posts_count - 5000 WHERE id = ?`).run(author.id);
    }
    expect((await failure(listFeed(null, { following: true }))).status).toBe(401);
    expect((await listFeed(bob, { following: true })).posts).toEqual([]);
  });

  it("searches title, content and tags; '#TrailCameras' finds the tag 'trail cameras'", async () => {
    const byTitle = await walk(null, { search: "feed post 7" }, 50);
    expect(byTitle.map((p) => p.title)).toContain("Feed post 7");
    // Whole words, any case, no prefix matching; but word forms meet (Porter stemmer).
    expect((await walk(null, { search: "FEED" }, 50)).length).toBeGreaterThanOrEqual(23);
    expect((await walk(null, { search: "Fee" }, 50)).length).toBe(0);
    const stemmed = await createPost(alice, input({ title: "Hunting the big bucks", content: "Three seasons of hunting one ridge for a buck." }));
    expect((await walk(null, { search: "hunt" }, 50)).map((p) => p.id)).toContain(stemmed.id);
    expect((await walk(null, { search: "buck hunted" }, 50)).map((p) => p.id)).toContain(stemmed.id);
    const tagged = await walk(null, { search: "#TrailCameras" }, 50);
    expect(tagged.map((p) => p.id).sort((a, b) => a - b)).toEqual(ids.filter((_, i) => i % 5 === 0));
    expect((await walk(null, { search: "#trail cameras" }, 50)).length).toBe(tagged.length);
    // The hashtag also finds the words in the text, joined or apart.
    const spoken = await createPost(alice, input({ title: "Evening sit", content: "Trail cameras showed him at dusk twice this week." }));
    expect((await walk(null, { search: "#TrailCameras" }, 50)).map((p) => p.id)).toContain(spoken.id);
    expect((await listFeed(null, { search: "!!!" })).posts).toEqual([]);
    expect((await listFeed(null, { search: 'quote" OR * NEAR(' })).posts).toEqual([]);
  });
});

describe("search with many matches: whichever side drives, the pages are the same", () => {
  let member: Member;
  const insert = () =>
    sqlite.prepare(`INSERT INTO posts (author_id, type, title, content, likes_count, created_at) VALUES (?, 'article', ?, ?, ?, ?)`);
  const expected = (offset: number) =>
    sqlite
      .prepare(`SELECT id FROM posts WHERE club_id IS NULL AND content LIKE '%Antler sheds%' ORDER BY likes_count DESC, id DESC LIMIT 50 OFFSET ${offset}`)
      .all()
      .map((r) => (r as { id: number }).id);

  async function checkPages() {
    const first = await listFeed(null, { search: "antler sheds", sortBy: "popular", limit: 50 });
    expect(first.posts.map((p) => p.id)).toEqual(expected(0));
    const second = await listFeed(null, { search: "antler sheds", sortBy: "popular", limit: 50, cursor: first.nextCursor! });
    expect(second.posts.map((p) => p.id)).toEqual(expected(50));
  }

  beforeAll(async () => {
    member = await createMember();
    const stmt = insert();
    sqlite.transaction(() => {
      for (let i = 0; i < SEARCH_DRIVES_BELOW + 50; i++) {
        stmt.run(member.id, `Shed hunting ${i}`, "Antler sheds all over the south ridge this year", i % 17, Date.UTC(2019, 0, 1) + i * 1000);
      }
    })();
  });

  it("a rare word: the match set drives (read by id, then sorted)", async () => {
    expect(planFeed(null, { search: "zzyzx", sortBy: "popular" }).sql).toContain("NOT INDEXED");
  });

  it("a dense word: the sort index drives and each row is checked against the FTS index", async () => {
    const plan = planFeed(null, { search: "antler sheds", sortBy: "popular" });
    expect(plan.sql).toContain("INDEXED BY posts_feed_popular");
    expect(plan.sql).toContain("f.rowid = p.id AND posts_fts MATCH");
    await checkPages();
  });

  it("a common but not dense word: the sort index drives against the match set built once", async () => {
    const stmt = insert();
    sqlite.transaction(() => {
      for (let i = 0; i < 4000; i++) stmt.run(member.id, `Filler ${i}`, "Nothing to see in this one at all", i % 13, Date.UTC(2019, 6, 1) + i * 1000);
    })();
    const plan = planFeed(null, { search: "antler sheds", sortBy: "popular" });
    expect(plan.sql).toContain("INDEXED BY posts_feed_popular");
    expect(plan.sql).toContain("p.id IN (SELECT rowid FROM posts_fts");
    expect(plan.sql).not.toContain("NOT INDEXED");
    await checkPages();
  });
});

describe("listTrending", () => {
  it("ranks home posts by likes, comments and shares decayed by age; at most 5; none without engagement", async () => {
    // Its own clock far in the future so earlier tests' posts are too old to compete.
    const now = Date.UTC(2030, 0, 1);
    const hour = 3_600_000;
    const member = await createMember();
    const make = async (title: string, stats: Parameters<typeof setPostStats>[1], clubId?: number) => {
      const p = await createPost(member, input({ title, clubId }));
      setPostStats(p.id, stats);
      return p.id;
    };
    const fresh = await make("fresh", { likes: 10, createdAt: now - 1 * hour }); // 10 / 3^1.5 ≈ 1.92
    const old = await make("old but loved", { likes: 200, createdAt: now - 48 * hour }); // 200 / 50^1.5 ≈ 0.57
    const talked = await make("talked about", { comments: 5, createdAt: now - 2 * hour }); // 10 / 4^1.5 = 1.25
    const shared = await make("shared", { shares: 3, createdAt: now - 3 * hour }); // 9 / 5^1.5 ≈ 0.80
    const meh = await make("meh", { likes: 1, createdAt: now - 5 * hour }); // 1 / 7^1.5 ≈ 0.05
    const tiny = await make("tiny", { likes: 1, createdAt: now - 30 * hour }); // ≈ 0.006: sixth
    await make("quiet", { createdAt: now - 1 * hour }); // no engagement
    const club = makeClub(member.id, { isPrivate: false });
    await make("club hit", { likes: 1000, createdAt: now - hour }, club); // club posts stay in clubs
    const trending = await listTrending(null, now);
    expect(trending.map((p) => p.id)).toEqual([fresh, talked, shared, old, meh]);
    expect(trending.map((p) => p.id)).not.toContain(tiny);
  });
});

import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { follows, posts, users } from "#db/schema";
import { failure, makeClub, postInput, setPostStats } from "#tests/fixtures/posts";
import { createMember } from "#tests/fixtures/members";
import { databaseEngine, db, queryColumn, writeTransaction } from "~/utils/db.server";
import { decodeCursor, encodeCursor, listFeed, listTrending, planFeed, SEARCH_DRIVES_BELOW } from "./feed.server";
import { FTS_ROW_PROBE, TEXT_MATCH_IDS } from "~/utils/db/sql-dialect.server";
import { planSearch } from "./feed-search.server";
import { createPost } from "~/models/posts/post.server";
import type { Post } from "~/schemas/shapes";

type Member = Awaited<ReturnType<typeof createMember>>;

const input = postInput;

let alice: Member;
let bob: Member;

beforeAll(async () => {
  alice = await createMember({ displayName: "Alice Archer" });
  bob = await createMember({ displayName: "Bob Buck" });
});

describe("listFeed", () => {
  let author: Member;
  let fan: Member;
  const ids: number[] = [];

  beforeAll(async () => {
    author = await createMember();
    fan = await createMember();
    await db.insert(follows).values({ followerId: fan.id, followeeId: author.id });
    const types = ["article", "opinion", "video", "podcast"] as const;
    for (let i = 0; i < 23; i++) {
      const p = await createPost(
        author,
        input({ title: `Feed post ${i}`, type: types[i % 4], tags: i % 5 === 0 ? ["Trail Cameras"] : ["misc"] }),
      );
      ids.push(p.id);
      // Ties on purpose: likes 0..3 repeat, so the id breaks them.
      await setPostStats(p.id, { likes: i % 4, comments: (i * 7) % 5, createdAt: Date.UTC(2020, 0, 1) + (i % 6) * 3_600_000 });
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

  const key = (p: Post, sort: string) => (sort === "popular" ? p.likes : sort === "discussed" ? p.commentsCount : Date.parse(p.createdAt));

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
      expect(
        videos
          .filter((p) => p.author.id === author.id)
          .map((p) => p.id)
          .sort((x, y) => x - y),
      ).toEqual(ids.filter((_, i) => i % 4 === 2));
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
    // The index hints are SQLite's (PostgreSQL plans with its statistics, no hints): checked there.
    const onSqlite = databaseEngine() === "sqlite";
    if (onSqlite) expect((await planFeed(fan, { following: true })).sql).toContain("INDEXED BY posts_author_recent");
    // A member who follows prolific authors: the feed index drives instead, same answer.
    const postsCountBy = (n: number) =>
      db
        .update(users)
        .set({ postsCount: sql`${users.postsCount} + ${n}` })
        .where(eq(users.id, author.id));
    await postsCountBy(5000);
    try {
      if (onSqlite) expect((await planFeed(fan, { following: true })).sql).toContain("INDEXED BY posts_feed_recent");
      expect((await walk(fan, { following: true }, 7)).map((p) => p.id)).toEqual(page.map((p) => p.id));
      expect((await walk(fan, { following: true, sortBy: "popular" }, 50)).length).toBe(23);
    } finally {
      await postsCountBy(-5000);
    }
    expect((await failure(() => listFeed(null, { following: true }))).status).toBe(401);
    expect((await listFeed(bob, { following: true })).posts).toEqual([]);
  });

  it("searches title, content and tags; '#TrailCameras' finds the tag 'trail cameras'", async () => {
    const byTitle = await walk(null, { search: "feed post 7" }, 50);
    expect(byTitle.map((p) => p.title)).toContain("Feed post 7");
    // Whole words, any case, no prefix matching; but word forms meet (Porter stemmer).
    expect((await walk(null, { search: "FEED" }, 50)).length).toBeGreaterThanOrEqual(23);
    expect((await walk(null, { search: "Fee" }, 50)).length).toBe(0);
    const stemmed = await createPost(
      alice,
      input({ title: "Hunting the big bucks", content: "Three seasons of hunting one ridge for a buck." }),
    );
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
  // The index hints (INDEXED BY, NOT INDEXED) are SQLite's; the plan's mode and its SQL are checked on both.
  const onSqlite = databaseEngine() === "sqlite";
  /** `count` posts by the member, in one transaction, a few hundred rows a statement. */
  async function insertPosts(count: number, row: (i: number) => { title: string; content: string; likes: number; createdAt: number }) {
    await writeTransaction(async (tx) => {
      for (let start = 0; start < count; start += 500) {
        const values = [];
        for (let i = start; i < Math.min(count, start + 500); i++) {
          const { title, content, likes, createdAt } = row(i);
          values.push({ authorId: member.id, type: "article" as const, title, content, likesCount: likes, createdAt: new Date(createdAt) });
        }
        await tx.insert(posts).values(values);
      }
    });
  }
  const expected = (offset: number) =>
    queryColumn<number>(
      `SELECT id FROM posts WHERE club_id IS NULL AND content LIKE '%Antler sheds%' ORDER BY likes_count DESC, id DESC LIMIT 50 OFFSET ${offset}`,
    );

  async function checkPages() {
    const first = await listFeed(null, { search: "antler sheds", sortBy: "popular", limit: 50 });
    expect(first.posts.map((p) => p.id)).toEqual(await expected(0));
    const second = await listFeed(null, { search: "antler sheds", sortBy: "popular", limit: 50, cursor: first.nextCursor! });
    expect(second.posts.map((p) => p.id)).toEqual(await expected(50));
  }

  beforeAll(async () => {
    member = await createMember();
    await insertPosts(SEARCH_DRIVES_BELOW + 50, (i) => ({
      title: `Shed hunting ${i}`,
      content: "Antler sheds all over the south ridge this year",
      likes: i % 17,
      createdAt: Date.UTC(2019, 0, 1) + i * 1000,
    }));
  });

  it("a rare word: the match set drives (read by id, then sorted)", async () => {
    expect((await planSearch("zzyzx"))?.mode).toBe("drive");
    if (onSqlite) expect((await planFeed(null, { search: "zzyzx", sortBy: "popular" })).sql).toContain("NOT INDEXED");
  });

  it("a dense word: the sort index drives and each row is checked against the FTS index", async () => {
    expect((await planSearch("antler sheds"))?.mode).toBe("filter-probe");
    const plan = await planFeed(null, { search: "antler sheds", sortBy: "popular" });
    if (onSqlite) expect(plan.sql).toContain("INDEXED BY posts_feed_popular");
    expect(plan.sql).toContain(FTS_ROW_PROBE);
    await checkPages();
  });

  it("a common but not dense word: the sort index drives against the match set built once", async () => {
    await insertPosts(4000, (i) => ({
      title: `Filler ${i}`,
      content: "Nothing to see in this one at all",
      likes: i % 13,
      createdAt: Date.UTC(2019, 6, 1) + i * 1000,
    }));
    expect((await planSearch("antler sheds"))?.mode).toBe("filter-set");
    const plan = await planFeed(null, { search: "antler sheds", sortBy: "popular" });
    if (onSqlite) expect(plan.sql).toContain("INDEXED BY posts_feed_popular");
    expect(plan.sql).toContain(`p.id IN (${TEXT_MATCH_IDS})`);
    expect(plan.sql).not.toContain(FTS_ROW_PROBE);
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
      await setPostStats(p.id, stats);
      return p.id;
    };
    const fresh = await make("fresh", { likes: 10, createdAt: now - 1 * hour }); // 10 / 3^1.5 ≈ 1.92
    const old = await make("old but loved", { likes: 200, createdAt: now - 48 * hour }); // 200 / 50^1.5 ≈ 0.57
    const talked = await make("talked about", { comments: 5, createdAt: now - 2 * hour }); // 10 / 4^1.5 = 1.25
    const shared = await make("shared", { shares: 3, createdAt: now - 3 * hour }); // 9 / 5^1.5 ≈ 0.80
    const meh = await make("meh", { likes: 1, createdAt: now - 5 * hour }); // 1 / 7^1.5 ≈ 0.05
    const tiny = await make("tiny", { likes: 1, createdAt: now - 30 * hour }); // ≈ 0.006: sixth
    await make("quiet", { createdAt: now - 1 * hour }); // no engagement
    const club = await makeClub(member.id, { isPrivate: false });
    await make("club hit", { likes: 1000, createdAt: now - hour }, club); // club posts stay in clubs
    const trending = await listTrending(null, now);
    expect(trending.map((p) => p.id)).toEqual([fresh, talked, shared, old, meh]);
    expect(trending.map((p) => p.id)).not.toContain(tiny);
  });
});

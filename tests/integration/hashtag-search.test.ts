import { beforeAll, describe, expect, it, vi } from "vitest";
import { makeClub, postInput, setPostStats } from "#tests/fixtures/posts";
import { createMember } from "#tests/fixtures/members";
import { hashtagPage } from "~/models/feeds/feed-hashtag.server";
import { listFeed } from "~/models/feeds/feed.server";
import { planSearch, searchSet } from "~/models/feeds/feed-search.server";
import { createPost } from "~/models/posts/post.server";
import { postTags, posts } from "#db/schema";
import { db, queryColumn } from "~/utils/db.server";
import type { SortOption } from "~/schemas/post";

/**
 * `#hashtag` search reads its two halves newest (or oldest) first instead of building its match set
 * (docs/decisions/0042-lists-in-pages.md). The answer must be exactly the set-based one: the same
 * posts in the same order on the same pages, whatever created_at does against the ids.
 */

vi.mock("~/models/feeds/feed-hashtag.server", async (original) => {
  const actual = await original<typeof import("~/models/feeds/feed-hashtag.server")>();
  return { ...actual, hashtagPage: vi.fn(actual.hashtagPage) };
});
const fastPath = vi.mocked(hashtagPage);

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);

/** The set-based answer: the search's whole match set, filtered and sorted as the feed does. */
async function reference(search: string, sortBy: SortOption, type?: string): Promise<number[]> {
  const set = searchSet(search)!;
  const dir = sortBy === "oldest" ? "ASC" : "DESC";
  const column = sortBy === "popular" ? "likes_count" : sortBy === "discussed" ? "comments_count" : "created_at";
  return queryColumn<number>(
    `SELECT id FROM posts WHERE club_id IS NULL ${type ? "AND type = @type" : ""} AND id IN (${set.sql})
     ORDER BY ${column} ${dir}, id ${dir}`,
    type ? { ...set.params, type } : set.params,
  );
}

/** Every page of the feed for a search, as ids per page. */
async function pages(search: string, sortBy: SortOption, limit: number, type?: "opinion") {
  const out: number[][] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 200; guard++) {
    const page = await listFeed(null, { search, sortBy, limit, cursor, type });
    out.push(page.posts.map((p) => p.id));
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return out;
}

/** The pages a correct implementation answers: the reference cut every `limit` (at least one page). */
function cut(ids: number[], limit: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < ids.length; i += limit) out.push(ids.slice(i, i + limit));
  return out.length ? out : [[]];
}

describe("#hashtag search in pages", () => {
  beforeAll(async () => {
    const author = await createMember();
    const club = await makeClub(author.id);
    // Matches by tag, by the joined word, by the phrase (any case, word forms), and near misses.
    const kinds = [
      { title: "Opening morning", content: "Sat all day.", tags: ["Bow Hunting"] },
      { title: "Stand notes", content: "More BOWHUNTING tips for the rut.", tags: [] },
      { title: "Bow hunting the edges", content: "Quiet cover.", tags: ["scouting"] },
      { title: "Gear", content: "Bows hunting season gear list.", tags: [] },
      { title: "Backstraps", content: "Recipe night.", tags: ["bowhunting"] },
      { title: "Hunting bow care", content: "Strings and wax.", tags: [] },
      { title: "Rifle week", content: "No arrows here.", tags: ["rifle"] },
      { title: "Bow", content: "A new hunting stand.", tags: [] },
    ];
    for (let i = 0; i < 96; i++) {
      const k = kinds[i % kinds.length]!;
      const post = await createPost(
        author,
        postInput({ title: `${k.title} ${i}`, content: k.content, tags: k.tags, type: i % 3 === 0 ? "opinion" : "article" }),
      );
      // Creation order as ids for the first two thirds; then created_at runs against the ids
      // (backwards and in ties) so an id-ordered read alone would answer the wrong pages.
      const createdAt = i < 64 ? T0 + i * HOUR : T0 + (160 - i) * HOUR - (i % 4 === 0 ? 30 * HOUR : 0);
      await setPostStats(post.id, { createdAt, likes: i % 5 });
    }
    // A club's posts match too but stay in their club.
    for (let i = 0; i < 6; i++) {
      const post = await createPost(author, { ...postInput({ title: `Bow hunting club ${i}`, tags: ["Bow Hunting"] }), clubId: club });
      await setPostStats(post.id, { createdAt: T0 + (200 + i) * HOUR });
    }
  });

  it.each([
    ["#BowHunting", "recent", 1],
    ["#BowHunting", "recent", 4],
    ["#bowhunting", "recent", 7],
    ["#BowHunting", "oldest", 5],
    ["#BowHunting", "popular", 6],
    ["#Bow Hunting", "recent", 20],
  ] as const)("%s sorted %s, %i a page: the set-based answer, page for page", async (search, sortBy, limit) => {
    const expected = await reference(search, sortBy);
    expect(expected.length).toBeGreaterThan(30);
    expect(await pages(search, sortBy, limit)).toEqual(cut(expected, limit));
  });

  it("with a type filter too", async () => {
    for (const sortBy of ["recent", "oldest"] as const)
      expect(await pages("#BowHunting", sortBy, 3, "opinion")).toEqual(cut(await reference("#BowHunting", sortBy, "opinion"), 3));
  });

  it("reads the halves in id order where creation order follows the ids, and gives way where it does not", async () => {
    fastPath.mockClear();
    await pages("#BowHunting", "recent", 3);
    // hashtagPage is async: each call's result is a promise of its answer.
    const answers = await Promise.all(fastPath.mock.results.map((r) => r.value as Promise<unknown[] | null>));
    expect(answers.length).toBeGreaterThan(5);
    // The newest pages (the posts whose created_at runs against the ids) need the set; the older
    // pages (creation order = id order) are read from the halves.
    expect(answers.filter((a) => a !== null).length).toBeGreaterThan(3);
    expect(answers.some((a) => a === null)).toBe(true);
  });

  it("a word search and other sorts do not take the hashtag path", async () => {
    fastPath.mockClear();
    await listFeed(null, { search: "bow hunting" });
    await listFeed(null, { search: "#BowHunting", sortBy: "popular" });
    expect(fastPath).not.toHaveBeenCalled();
  });
});

describe("a one-word #hashtag as dense as a word search", () => {
  beforeAll(async () => {
    const author = await createMember();
    const rows = Array.from({ length: 1300 }, (_, i) => ({
      authorId: author.id,
      type: "article" as const,
      title: `Field note ${i}`,
      // Most say "rut"; some are only tagged rut (post_tags without the word in the text).
      content: i % 7 === 0 ? "Quiet week" : "Rut is on",
      likesCount: i % 9,
      createdAt: new Date(T0 + i * HOUR),
    }));
    for (let from = 0; from < rows.length; from += 200) {
      const made = await db
        .insert(posts)
        .values(rows.slice(from, from + 200))
        .returning({ id: posts.id });
      const tagged = made.filter((_, j) => (from + j) % 7 === 0 || (from + j) % 5 === 0);
      if (tagged.length) await db.insert(postTags).values(tagged.map(({ id }) => ({ postId: id, key: "rut" })));
    }
  });

  it("is probed row by row in the popular sort, and answers what the set answers", async () => {
    expect((await planSearch("#rut"))?.mode).toBe("filter-probe");
    expect((await planSearch("#BowHunting"))?.mode).not.toBe("filter-probe");
    for (const sortBy of ["popular", "discussed"] as const)
      expect(await pages("#rut", sortBy, 50)).toEqual(cut(await reference("#rut", sortBy), 50));
  });
});

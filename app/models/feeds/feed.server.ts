import { FEED_MAX_LIMIT, FEED_PAGE_SIZE, type FeedType, type SortOption, type TrendingItem } from "~/schemas/post";
import { queryRow, queryRows } from "~/utils/db.server";
import { indexedBy, JOIN_IN_ORDER, notIndexed } from "~/utils/db/sql-dialect.server";
import { forbidden, notFound } from "~/utils/errors";
import { canReadClub, clubReadableSql, getClubRow, requireSignedIn, visiblePostSql } from "~/models/access.server";
import { notBlockedByViewerSql } from "~/models/members/block.server";
import { hashtagPage } from "./feed-hashtag.server";
import { planSearch, rowProbe, searchSet } from "./feed-search.server";
import { loadPosts } from "~/models/posts/post-view.server";
import { drawnTrending, rankedTrending } from "./trending-cache.server";
import type { Actor } from "~/models/members/user.server";
import type { Post } from "~/schemas/shapes";

/**
 * The feed: the home feed, a member's posts, a club's posts and the posts of followed members,
 * one keyset page at a time, and trending. This is the read path that docs/decisions/
 * 0007-feed-pagination-and-indexes.md justifies in raw SQL: every list is a keyset page over an
 * index that serves both its filter and its sort, and the planner below names that index (the
 * hints come from sql-dialect.server.ts, the one home of engine-specific SQL; the search's plan from
 * feed-search.server.ts). The statements read ids only; post.server.ts's loadPosts turns them into Posts.
 */

export { DENSE_SEARCH, ftsQuery, SEARCH_DRIVES_BELOW } from "./feed-search.server";

export type ListFeedQuery = {
  type?: FeedType;
  sortBy?: SortOption;
  search?: string;
  limit?: number;
  cursor?: string;
  following?: boolean;
  authorId?: number;
  clubId?: number;
};

export type FeedPage = { posts: Post[]; nextCursor: string | null };

const viewerOf = (actor: Actor) => actor?.id ?? 0;

/**
 * Hidden posts (removed, or hidden after reports: CONTRACT.md §8) are in no one's lists but their
 * author's, and a member's posts are in no list of a viewer who blocked them (§8 "Blocks"). Filters
 * on the row the list's index already leads to: no plan changes.
 */
export const VISIBLE_TO_VIEWER = `${visiblePostSql("p", "@viewer")} AND ${notBlockedByViewerSql("p.author_id")}`;

/**
 * Each sort is a keyset over (value, id): the cursor carries the last row's value and id, and the
 * next page starts strictly after it in the index order. No OFFSET anywhere.
 */
const SORTS: Record<SortOption, { column: "created_at" | "likes_count" | "comments_count"; dir: "DESC" | "ASC" }> = {
  recent: { column: "created_at", dir: "DESC" },
  oldest: { column: "created_at", dir: "ASC" },
  popular: { column: "likes_count", dir: "DESC" },
  discussed: { column: "comments_count", dir: "DESC" },
};

/** The home-feed partial index that serves a sort (with or without a type filter). */
function homeIndex(sortBy: SortOption, typed: boolean): string {
  const name = sortBy === "oldest" ? "recent" : sortBy;
  return typed ? `posts_feed_type_${name}` : `posts_feed_${name}`;
}

type Cursor = { value: number; id: number };

/** Opaque to clients: base64url of "sort.value.id". A cursor for another sort, or junk, is ignored. */
export function encodeCursor(sortBy: SortOption, value: number, id: number): string {
  return Buffer.from(`${sortBy}.${value}.${id}`).toString("base64url");
}

export function decodeCursor(sortBy: SortOption, cursor: string | undefined): Cursor | null {
  if (!cursor) return null;
  let text: string;
  try {
    text = Buffer.from(cursor, "base64url").toString("utf8");
  } catch {
    return null;
  }
  const match = /^([a-z]+)\.(-?\d{1,16})\.(\d{1,16})$/.exec(text);
  if (!match || match[1] !== sortBy) return null;
  return { value: Number(match[2]), id: Number(match[3]) };
}

/** Following: below this many posts by the followed members, their own author index drives. */
export const FOLLOWING_DRIVES_BELOW = 2000;

const pageLimit = (query: ListFeedQuery) => Math.min(FEED_MAX_LIMIT, Math.max(1, Math.trunc(query.limit ?? FEED_PAGE_SIZE)));

/**
 * A `#hashtag` search of the home feed, newest or oldest first: read page by page from its two
 * halves in id order (feed-hashtag.server.ts). Null when another plan must answer.
 */
async function hashtagRows(actor: Actor, query: ListFeedQuery): Promise<{ id: number; sort_value: number }[] | null> {
  const sortBy: SortOption = query.sortBy ?? "recent";
  const home = query.authorId === undefined && query.clubId === undefined && !query.following;
  const parts = query.search ? searchSet(query.search)?.hashtag : undefined;
  if (!parts || !home || SORTS[sortBy].column !== "created_at") return null;
  return hashtagPage({
    parts,
    dir: SORTS[sortBy].dir,
    type: query.type && query.type !== "all" ? query.type : null,
    cursor: decodeCursor(sortBy, query.cursor),
    limit: pageLimit(query),
    viewer: viewerOf(actor),
  });
}

type FeedPlan = { sql: string; params: Record<string, unknown> };

/** Build the feed statement (it reads `id` and `sort_value`). Exported for the benchmark's EXPLAIN QUERY PLAN. */
export async function planFeed(actor: Actor, query: ListFeedQuery): Promise<FeedPlan & { limit: number; sortBy: SortOption }> {
  const sortBy: SortOption = query.sortBy ?? "recent";
  const type = query.type && query.type !== "all" ? query.type : null;
  const limit = pageLimit(query);
  const { column, dir } = SORTS[sortBy];
  const where: string[] = [VISIBLE_TO_VIEWER];
  const params: Record<string, unknown> = { limit: limit + 1, viewer: viewerOf(actor) };
  const home = query.authorId === undefined && query.clubId === undefined;
  // Without statistics (no ANALYZE in production) SQLite would read `club_id IS NULL` through
  // posts_club_recent and sort the whole home feed; the home feed names its index instead.
  let from = home ? indexedBy("posts p", homeIndex(sortBy, type !== null)) : "posts p";
  let authorDrives = false;

  if (query.clubId !== undefined) {
    where.push("p.club_id = @clubId");
    params.clubId = query.clubId;
  } else if (query.authorId !== undefined) {
    where.push("p.author_id = @authorId");
    // A member's club posts show only from clubs the viewer may read (access.server.ts).
    where.push(`(p.club_id IS NULL OR ${clubReadableSql("p.club_id", "@viewer")})`);
    params.viewer = viewerOf(actor);
    params.authorId = query.authorId;
  } else {
    // Home feed: club posts stay in their clubs (docs/decisions/0006-club-posts-stay-in-clubs.md).
    where.push("p.club_id IS NULL");
  }
  if (query.following) {
    where.push("p.author_id IN (SELECT followee_id FROM follows WHERE follower_id = @viewer)");
    params.viewer = viewerOf(actor);
    const followed = await queryRow<{ n: number }>(
      `SELECT coalesce(sum(u.posts_count), 0) AS n FROM follows f ${JOIN_IN_ORDER} users u ON u.id = f.followee_id WHERE f.follower_id = @viewer`,
      { viewer: viewerOf(actor) },
    );
    // Few posts by followed members: read them through their author index and sort that handful.
    // (Number: PostgreSQL's sum of integers is a bigint, which arrives as a string.)
    if (Number(followed?.n ?? 0) <= FOLLOWING_DRIVES_BELOW) {
      from = indexedBy("posts p", "posts_author_recent");
      authorDrives = true;
    }
  }
  if (type) {
    where.push("p.type = @type");
    params.type = type;
  }

  if (query.search) {
    const search = await planSearch(query.search);
    if (!search) {
      where.push("p.id < 0");
    } else {
      Object.assign(params, search.set.params);
      if (search.mode === "drive") {
        from = notIndexed("posts p");
        where.push(`p.id IN (${search.set.sql})`);
      } else if (search.mode === "filter-probe" && home && !authorDrives) {
        where.push(rowProbe(search.set));
      } else {
        where.push(`p.id IN (${search.set.sql})`);
      }
    }
  }

  const cursor = decodeCursor(sortBy, query.cursor);
  if (cursor) {
    where.push(`(p.${column}, p.id) ${dir === "DESC" ? "<" : ">"} (@cursorValue, @cursorId)`);
    params.cursorValue = cursor.value;
    params.cursorId = cursor.id;
  }

  const sql = `SELECT p.id, p.${column} AS sort_value FROM ${from}
    WHERE ${where.join(" AND ")}
    ORDER BY p.${column} ${dir}, p.id ${dir} LIMIT @limit`;
  return { sql, params, limit, sortBy };
}

/**
 * The home feed, a member's posts (authorId), a club's posts (clubId) or the posts of members the
 * caller follows (following), filtered by type and search, one keyset page at a time.
 */
export async function listFeed(actor: Actor, query: ListFeedQuery = {}): Promise<FeedPage> {
  if (query.following) requireSignedIn(actor, "Sign in to see posts from members you follow");
  if (query.clubId !== undefined) {
    if (!(await getClubRow(query.clubId))) throw notFound("Club Not Found");
    if (!(await canReadClub(actor, query.clubId))) throw forbidden("Only members can see this club's posts");
  }
  // A search with no words in it ("!!!") matches nothing.
  if (query.search && !searchSet(query.search)) return { posts: [], nextCursor: null };
  const sortBy: SortOption = query.sortBy ?? "recent";
  const limit = pageLimit(query);
  let rows = await hashtagRows(actor, query);
  if (!rows) {
    const plan = await planFeed(actor, query);
    rows = await queryRows<{ id: number; sort_value: number }>(plan.sql, plan.params);
  }
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    posts: await loadPosts(
      actor,
      page.map((r) => r.id),
    ),
    nextCursor: more && last ? encodeCursor(sortBy, last.sort_value, last.id) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Trending (docs/decisions/0005-trending-formula.md)

/**
 * score = (likes + 2·comments + 3·shares) / (ageHours + 2)^1.5
 *
 * Engagement is weighted by effort (a comment or a share says more than a like); age is a gravity
 * term as on Hacker News, so a post has to keep earning to stay up. Candidates are home-feed posts
 * only, and only the newest 1,000 plus the 100 most liked and 100 most discussed, each read from its
 * index, so trending costs the same at 1k and 100k posts. Posts with no engagement at all are not
 * trending.
 */
export const TRENDING = { size: 5, newest: 1000, mostLiked: 100, mostDiscussed: 100, gravity: 1.5, offsetHours: 2 };

export const TRENDING_SQL = `WITH cand(id) AS (
    SELECT id FROM (SELECT id FROM ${indexedBy("posts", "posts_feed_recent")} WHERE club_id IS NULL ORDER BY created_at DESC, id DESC LIMIT ${TRENDING.newest}) AS newest
    UNION SELECT id FROM (SELECT id FROM ${indexedBy("posts", "posts_feed_popular")} WHERE club_id IS NULL ORDER BY likes_count DESC, id DESC LIMIT ${TRENDING.mostLiked}) AS most_liked
    UNION SELECT id FROM (SELECT id FROM ${indexedBy("posts", "posts_feed_discussed")} WHERE club_id IS NULL ORDER BY comments_count DESC, id DESC LIMIT ${TRENDING.mostDiscussed}) AS most_discussed
  ), scored AS (
    SELECT p.id,
      (p.likes_count + 2.0 * p.comments_count + 3.0 * p.shares_count)
        / pow(CASE WHEN @now > p.created_at THEN (@now - p.created_at) / 3600000.0 ELSE 0 END + ${TRENDING.offsetHours}, ${TRENDING.gravity}) AS score
    FROM cand ${JOIN_IN_ORDER} posts p ON p.id = cand.id
    WHERE p.likes_count + p.comments_count + p.shares_count > 0 AND p.hidden_at IS NULL
  )
  SELECT s.id FROM scored s ORDER BY s.score DESC, s.id DESC LIMIT ${TRENDING.size}`;

const rankTrending = async (now: number) => (await queryRows<{ id: number }>(TRENDING_SQL, { now })).map((r) => r.id);

/**
 * The ranked posts as they are now: one hidden since the ranking was made leaves at once, whichever
 * node hid it (the ranking is kept a minute per process; security-3 P6 saw a removed post, with its
 * reason, in the other node's trending for up to 60 s).
 */
const stillShown = (posts: Post[]) => posts.filter((p) => !p.hidden);

/**
 * Up to 5 home-feed posts ranked by likes, comments and shares decayed by age. The ranking is
 * shared by every viewer and kept for a minute (trending-cache.server.ts); the posts are read fresh.
 */
export async function listTrending(actor: Actor, now = Date.now()): Promise<Post[]> {
  return stillShown(await loadPosts(actor, await rankedTrending(now, rankTrending)));
}

/**
 * Hot Tracks as the home page shows them (the same for every viewer): cached per ranking and data
 * version, so a removal on any node, which moves the shared data version, is drawn on the next request.
 */
export function listTrendingItems(now = Date.now()): Promise<TrendingItem[]> {
  return drawnTrending(now, rankTrending, async (ids) =>
    stillShown(await loadPosts(null, ids)).map((p) => ({ id: p.id, title: p.title, authorName: p.author.displayName, likes: p.likes })),
  );
}

import type { LinkMetadata } from "#db/schema";
import { canReadClub, getMembership } from "~/models/club.server";
import { deleteMediaFiles, mediaFilesOfPost } from "~/models/media.server";
import type { Actor } from "~/models/user.server";
import {
  FEED_MAX_LIMIT,
  FEED_PAGE_SIZE,
  postInputSchema,
  postUpdateSchema,
  type FeedType,
  type PostInput,
  type PostType,
  type PostUpdateInput,
  type SortOption,
} from "~/schemas/post";
import { prepared, sqlite } from "~/utils/db.server";
import { forbidden, invalid, notFound, unauthorized } from "~/utils/errors";
import { consumeLimit } from "~/utils/rate-limit.server";
import { tagKey } from "~/utils/tags";
import { zodFieldErrors } from "~/utils/validation";

/**
 * The posts domain: feed, post, trending, create/edit/delete, like and share. Every function checks
 * its own permissions and throws the error family (app/utils/errors.ts).
 *
 * Reads are raw prepared statements (the feed is the hottest path of the site); every list is a
 * keyset page over an index that serves both its filter and its sort
 * (docs/decisions/0007-feed-pagination-and-indexes.md). Counters (likes, comments, shares,
 * posts_count) are stored on the rows and changed in the same transaction as what they count.
 */

/** SPEC.md §3 Post author. */
export type PostAuthor = { id: number; username: string; displayName: string; avatar: string | null };

export type UploadedFile = {
  type: "image" | "video" | "audio";
  url: string;
  name: string;
  width?: number;
  height?: number;
  variants?: { width: number; height: number; url: string }[];
};

/** SPEC.md §3 Post. */
export type Post = {
  id: number;
  title: string;
  content: string;
  type: PostType;
  mediaUrl: string | null;
  urlMetadata: LinkMetadata | null;
  tags: string[] | null;
  clubId: number | null;
  createdAt: string;
  author: PostAuthor;
  likes: number;
  commentsCount: number;
  shares: number;
  isLiked: boolean;
  uploadedFiles: UploadedFile[];
};

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

export const POST_NOT_FOUND = "Post Not Found";

// ---------------------------------------------------------------------------------------------
// Statements (prepared once per distinct SQL text: the feed builds a handful of shapes)

/** The columns a Post is built from. `@viewer` is the caller's id (0 when signed out). */
const POST_COLUMNS = `p.id, p.title, p.content, p.type, p.media_url, p.url_metadata, p.tags, p.club_id,
  p.created_at, p.likes_count, p.comments_count, p.shares_count,
  u.id AS author_id, u.username, u.display_name, u.avatar,
  EXISTS (SELECT 1 FROM likes l WHERE l.post_id = p.id AND l.user_id = @viewer) AS is_liked`;

type PostRow = {
  id: number;
  title: string;
  content: string;
  type: PostType;
  media_url: string | null;
  url_metadata: string | null;
  tags: string | null;
  club_id: number | null;
  created_at: number;
  likes_count: number;
  comments_count: number;
  shares_count: number;
  author_id: number;
  username: string;
  display_name: string;
  avatar: string | null;
  is_liked: number;
};

type MediaRow = {
  post_id: number;
  kind: UploadedFile["type"];
  url: string;
  name: string;
  width: number | null;
  height: number | null;
  variants: string | null;
};

function parseJson<T>(text: string | null): T | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

function toUploadedFile(row: MediaRow): UploadedFile {
  const file: UploadedFile = { type: row.kind, url: row.url, name: row.name };
  if (row.width !== null) file.width = row.width;
  if (row.height !== null) file.height = row.height;
  const variants = parseJson<{ width: number; height: number; url: string }[]>(row.variants);
  if (variants?.length) file.variants = variants.map(({ width, height, url }) => ({ width, height, url }));
  return file;
}

/** Rows → SPEC.md Posts, with every page's media fetched in one query. */
function toPosts(rows: PostRow[]): Post[] {
  if (rows.length === 0) return [];
  const media = prepared(
    `SELECT post_id, kind, url, name, width, height, variants FROM media
     WHERE post_id IN (SELECT value FROM json_each(?)) ORDER BY post_id, id`,
  ).all(JSON.stringify(rows.map((r) => r.id))) as MediaRow[];
  const files = new Map<number, UploadedFile[]>();
  for (const m of media) {
    const list = files.get(m.post_id) ?? [];
    list.push(toUploadedFile(m));
    files.set(m.post_id, list);
  }
  return rows.map((r) => {
    const tags = parseJson<string[]>(r.tags);
    return {
      id: r.id,
      title: r.title,
      content: r.content,
      type: r.type,
      mediaUrl: r.media_url,
      urlMetadata: parseJson<LinkMetadata>(r.url_metadata),
      tags: tags && tags.length ? tags : null,
      clubId: r.club_id,
      createdAt: new Date(r.created_at).toISOString(),
      author: { id: r.author_id, username: r.username, displayName: r.display_name, avatar: r.avatar },
      likes: r.likes_count,
      commentsCount: r.comments_count,
      shares: r.shares_count,
      isLiked: r.is_liked === 1,
      uploadedFiles: files.get(r.id) ?? [],
    };
  });
}

const viewerOf = (actor: Actor) => actor?.id ?? 0;

// ---------------------------------------------------------------------------------------------
// Visibility

type PostAccessRow = { id: number; author_id: number; club_id: number | null };

/**
 * The post as `actor` may see it: a missing post, or a private club's post for a non-member, is the
 * same 404 (its existence is not confirmed).
 */
function visiblePostOrThrow(actor: Actor, id: number): PostAccessRow {
  const row = prepared(`SELECT id, author_id, club_id FROM posts WHERE id = ?`).get(id) as PostAccessRow | undefined;
  if (!row) throw notFound(POST_NOT_FOUND);
  if (row.club_id !== null && !canReadClub(actor, row.club_id)) throw notFound(POST_NOT_FOUND);
  return row;
}

/** For the comments domain: the post exists and `actor` may read it (404 otherwise). */
export function assertPostVisible(actor: Actor, id: number): void {
  visiblePostOrThrow(actor, id);
}

function clubExists(clubId: number): { is_private: number } | undefined {
  return prepared(`SELECT is_private FROM clubs WHERE id = ?`).get(clubId) as { is_private: number } | undefined;
}

// ---------------------------------------------------------------------------------------------
// Feed

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

/**
 * A search text as an FTS5 query: every word must appear (case and accents ignored, word forms
 * folded by the Porter stemmer: "hunt" finds "hunting"). Words match whole: a prefix query ("hunt"*) expands to every term it starts and costs far more per row than
 * the sort-driven plan below can afford; a prefix index on posts_fts would make it cheap.
 */
export function ftsQuery(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (!words?.length) return null;
  return words
    .slice(0, 12)
    .map((w) => `"${w}"`)
    .join(" ");
}

/** `#BowHunting`: the tag key, plus a text match on "bowhunting" or the phrase "bow hunting". */
function hashtagFts(word: string): string | null {
  const joined = ftsQuery(word);
  const split = word.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2");
  const phraseWords = split.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (!joined) return null;
  if (phraseWords && phraseWords.length > 1) return `(${joined}) OR "${phraseWords.join(" ")}"`;
  return joined;
}

/**
 * The set of post ids a search matches, as SQL with its parameters. A search that starts with '#'
 * also matches post_tags.key = tagKey(rest) ('#BowHunting' finds 'bow hunting'). `fts` is set when
 * the set is a plain full-text match (it can then be probed per row and read newest first).
 */
function searchSet(search: string): { sql: string; params: Record<string, string>; fts: boolean } | null {
  if (search.startsWith("#")) {
    const rest = search.slice(1).trim();
    const key = tagKey(rest);
    const fts = hashtagFts(rest);
    if (!key) return null;
    if (!fts) return { sql: `SELECT post_id FROM post_tags WHERE key = @tagKey`, params: { tagKey: key }, fts: false };
    return {
      sql: `SELECT post_id FROM post_tags WHERE key = @tagKey UNION SELECT rowid FROM posts_fts WHERE posts_fts MATCH @fts`,
      params: { tagKey: key, fts },
      fts: false,
    };
  }
  const fts = ftsQuery(search);
  if (!fts) return null;
  return { sql: `SELECT rowid FROM posts_fts WHERE posts_fts MATCH @fts`, params: { fts }, fts: true };
}

/**
 * How a search meets a sort (docs/decisions/0007-feed-pagination-and-indexes.md). The match set is
 * probed first (its newest 1,001 ids, read from the FTS index in rowid order):
 * - at most SEARCH_DRIVES_BELOW matches: the search drives (ids → rows → sort that handful);
 * - otherwise the sort's index drives and the search filters. A dense search (≥ DENSE_SEARCH of the
 *   posts match, e.g. "deer" on a deer site) checks each row against the FTS index as it walks, so
 *   it stops after about a page of rows; a sparser one builds the match set once and walks the
 *   index against it.
 */
export const SEARCH_DRIVES_BELOW = 1000;
export const DENSE_SEARCH = 0.3;
/** Following: below this many posts by the followed members, their own author index drives. */
export const FOLLOWING_DRIVES_BELOW = 2000;

type SearchPlan = { mode: "drive" | "filter-set" | "filter-probe"; set: NonNullable<ReturnType<typeof searchSet>> };

function planSearch(search: string): SearchPlan | null {
  const set = searchSet(search);
  if (!set) return null;
  if (!set.fts) {
    const { n } = prepared(`SELECT count(*) AS n FROM (${set.sql} LIMIT ${SEARCH_DRIVES_BELOW + 1})`).get(set.params) as { n: number };
    return { mode: n <= SEARCH_DRIVES_BELOW ? "drive" : "filter-set", set };
  }
  const probe = prepared(
    `SELECT count(*) AS n, min(rowid) AS lo FROM (${set.sql} ORDER BY rowid DESC LIMIT ${SEARCH_DRIVES_BELOW + 1})`,
  ).get(set.params) as { n: number; lo: number | null };
  if (probe.n <= SEARCH_DRIVES_BELOW) return { mode: "drive", set };
  const { hi } = prepared(`SELECT max(id) AS hi FROM posts`).get() as { hi: number };
  const density = probe.n / Math.max(1, hi - (probe.lo ?? 0) + 1);
  return { mode: density >= DENSE_SEARCH ? "filter-probe" : "filter-set", set };
}

type FeedPlan = { sql: string; params: Record<string, unknown> };

/** Build the feed statement. Exported for the benchmark's EXPLAIN QUERY PLAN. */
export function planFeed(actor: Actor, query: ListFeedQuery): FeedPlan & { limit: number; sortBy: SortOption } {
  const sortBy: SortOption = query.sortBy ?? "recent";
  const type = query.type && query.type !== "all" ? query.type : null;
  const limit = Math.min(FEED_MAX_LIMIT, Math.max(1, Math.trunc(query.limit ?? FEED_PAGE_SIZE)));
  const { column, dir } = SORTS[sortBy];
  const where: string[] = [];
  const params: Record<string, unknown> = { viewer: viewerOf(actor), limit: limit + 1 };
  const home = query.authorId === undefined && query.clubId === undefined;
  // Without statistics (no ANALYZE in production) SQLite would read `club_id IS NULL` through
  // posts_club_recent and sort the whole home feed; the home feed names its index instead.
  let from = home ? `posts p INDEXED BY ${homeIndex(sortBy, type !== null)}` : "posts p";

  if (query.clubId !== undefined) {
    where.push("p.club_id = @clubId");
    params.clubId = query.clubId;
  } else if (query.authorId !== undefined) {
    where.push("p.author_id = @authorId");
    // A member's club posts show only from public clubs or clubs the viewer belongs to.
    where.push(`(p.club_id IS NULL OR EXISTS (SELECT 1 FROM clubs c WHERE c.id = p.club_id AND (c.is_private = 0
      OR EXISTS (SELECT 1 FROM club_members m WHERE m.club_id = c.id AND m.user_id = @viewer))))`);
    params.authorId = query.authorId;
  } else {
    // Home feed: club posts stay in their clubs (docs/decisions/0006-club-posts-stay-in-clubs.md).
    where.push("p.club_id IS NULL");
  }
  if (query.following) {
    where.push("p.author_id IN (SELECT followee_id FROM follows WHERE follower_id = @viewer)");
    const { n } = prepared(
      `SELECT coalesce(sum(u.posts_count), 0) AS n FROM follows f CROSS JOIN users u ON u.id = f.followee_id WHERE f.follower_id = ?`,
    ).get(viewerOf(actor)) as { n: number };
    // Few posts by followed members: read them through their author index and sort that handful.
    if (n <= FOLLOWING_DRIVES_BELOW) from = "posts p INDEXED BY posts_author_recent";
  }
  if (type) {
    where.push("p.type = @type");
    params.type = type;
  }

  if (query.search) {
    const search = planSearch(query.search);
    if (!search) {
      where.push("p.id < 0");
    } else {
      Object.assign(params, search.set.params);
      if (search.mode === "drive") {
        from = "posts p NOT INDEXED";
        where.push(`p.id IN (${search.set.sql})`);
      } else if (search.mode === "filter-probe" && home && !from.includes("posts_author_recent")) {
        where.push(`EXISTS (SELECT 1 FROM posts_fts f WHERE f.rowid = p.id AND posts_fts MATCH @fts)`);
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

  const sql = `SELECT ${POST_COLUMNS} FROM ${from} CROSS JOIN users u ON u.id = p.author_id
    WHERE ${where.join(" AND ")}
    ORDER BY p.${column} ${dir}, p.id ${dir} LIMIT @limit`;
  return { sql, params, limit, sortBy };
}

/**
 * The home feed, a member's posts (authorId), a club's posts (clubId) or the posts of members the
 * caller follows (following), filtered by type and search, one keyset page at a time.
 */
export async function listFeed(actor: Actor, query: ListFeedQuery = {}): Promise<FeedPage> {
  if (query.following && !actor) throw unauthorized("Sign in to see posts from members you follow");
  if (query.clubId !== undefined) {
    const club = clubExists(query.clubId);
    if (!club) throw notFound("Club Not Found");
    if (!canReadClub(actor, query.clubId)) throw forbidden("Only members can see this club's posts");
  }
  // A search with no words in it ("!!!") matches nothing.
  if (query.search && !searchSet(query.search)) return { posts: [], nextCursor: null };
  const plan = planFeed(actor, query);
  const rows = prepared(plan.sql).all(plan.params) as PostRow[];
  const more = rows.length > plan.limit;
  const page = more ? rows.slice(0, plan.limit) : rows;
  const last = page[page.length - 1];
  const { column } = SORTS[plan.sortBy];
  return {
    posts: toPosts(page),
    nextCursor: more && last ? encodeCursor(plan.sortBy, last[column], last.id) : null,
  };
}

/** One post, as `actor` sees it (404 'Post Not Found', also for a private club's post to outsiders). */
export async function getPost(actor: Actor, id: number): Promise<Post> {
  visiblePostOrThrow(actor, id);
  const row = prepared(
    `SELECT ${POST_COLUMNS} FROM posts p CROSS JOIN users u ON u.id = p.author_id WHERE p.id = @id`,
  ).get({ id, viewer: viewerOf(actor) }) as PostRow | undefined;
  if (!row) throw notFound(POST_NOT_FOUND);
  return toPosts([row])[0]!;
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
    SELECT id FROM (SELECT id FROM posts INDEXED BY posts_feed_recent WHERE club_id IS NULL ORDER BY created_at DESC, id DESC LIMIT ${TRENDING.newest})
    UNION SELECT id FROM (SELECT id FROM posts INDEXED BY posts_feed_popular WHERE club_id IS NULL ORDER BY likes_count DESC, id DESC LIMIT ${TRENDING.mostLiked})
    UNION SELECT id FROM (SELECT id FROM posts INDEXED BY posts_feed_discussed WHERE club_id IS NULL ORDER BY comments_count DESC, id DESC LIMIT ${TRENDING.mostDiscussed})
  ), scored AS (
    SELECT p.id,
      (p.likes_count + 2.0 * p.comments_count + 3.0 * p.shares_count)
        / pow(max(0, (@now - p.created_at) / 3600000.0) + ${TRENDING.offsetHours}, ${TRENDING.gravity}) AS score
    FROM cand CROSS JOIN posts p ON p.id = cand.id
    WHERE p.likes_count + p.comments_count + p.shares_count > 0
  )
  SELECT ${POST_COLUMNS} FROM scored s CROSS JOIN posts p ON p.id = s.id CROSS JOIN users u ON u.id = p.author_id
  ORDER BY s.score DESC, p.id DESC LIMIT ${TRENDING.size}`;

/** Up to 5 home-feed posts ranked by likes, comments and shares decayed by age. */
export async function listTrending(actor: Actor, now = Date.now()): Promise<Post[]> {
  const rows = prepared(TRENDING_SQL).all({ now, viewer: viewerOf(actor) }) as PostRow[];
  return toPosts(rows);
}

// ---------------------------------------------------------------------------------------------
// Writes

function requireSignedIn(actor: Actor, message?: string): { id: number } {
  if (!actor) throw unauthorized(message);
  return actor;
}

function parseOrThrow<S extends typeof postInputSchema | typeof postUpdateSchema>(schema: S, input: unknown) {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
  return parsed.data;
}

function writeTags(postId: number, tags: string[] | null | undefined) {
  prepared(`DELETE FROM post_tags WHERE post_id = ?`).run(postId);
  for (const tag of tags ?? []) {
    const key = tagKey(tag);
    if (key) prepared(`INSERT OR IGNORE INTO post_tags (post_id, key) VALUES (?, ?)`).run(postId, key);
  }
}

/**
 * Publish a post. Club posts need membership of the club (403); uploaded files must be the
 * author's own, not yet attached, and are attached here; posts_count and post_tags change in the
 * same transaction. Rate limited (postsPerUser).
 */
export async function createPost(actor: Actor, input: PostInput): Promise<Post> {
  const author = requireSignedIn(actor, "Please log in to create posts");
  const data = parseOrThrow(postInputSchema, input) as PostInput;
  if (data.clubId !== undefined) {
    if (!clubExists(data.clubId)) throw notFound("Club Not Found");
    if (!getMembership(data.clubId, author.id)) throw forbidden("Only members can post in this club");
  }
  const tags = data.tags?.length ? data.tags : null;
  const id = sqlite.transaction(() => {
    consumeLimit("postsPerUser", String(author.id));
    const { lastInsertRowid } = prepared(
      `INSERT INTO posts (author_id, club_id, type, title, content, media_url, url_metadata, tags)
       VALUES (@authorId, @clubId, @type, @title, @content, @mediaUrl, @urlMetadata, @tags)`,
    ).run({
      authorId: author.id,
      clubId: data.clubId ?? null,
      type: data.type,
      title: data.title,
      content: data.content,
      mediaUrl: data.mediaUrl ?? null,
      urlMetadata: data.urlMetadata && data.mediaUrl ? JSON.stringify(data.urlMetadata) : null,
      tags: tags ? JSON.stringify(tags) : null,
    });
    const postId = Number(lastInsertRowid);
    writeTags(postId, tags);
    for (const url of new Set(data.uploadedFiles ?? [])) {
      // The member's current avatar is an upload too; it never becomes part of a post (deleting the
      // post would delete the avatar's file).
      const attached = prepared(
        `UPDATE media SET post_id = ? WHERE url = ? AND owner_id = ? AND post_id IS NULL
           AND url IS NOT (SELECT avatar FROM users WHERE id = owner_id)`,
      ).run(postId, url, author.id);
      if (attached.changes !== 1) {
        throw invalid({ uploadedFiles: ["That upload is not yours or is already part of a post. Upload it again."] });
      }
    }
    prepared(`UPDATE users SET posts_count = posts_count + 1 WHERE id = ?`).run(author.id);
    return postId;
  })();
  return getPost(actor, id);
}

/** Edit a post: its author only (401 signed out, 403 someone else, 404 missing). */
export async function updatePost(actor: Actor, id: number, input: PostUpdateInput): Promise<Post> {
  const me = requireSignedIn(actor);
  const row = visiblePostOrThrow(actor, id);
  if (row.author_id !== me.id) throw forbidden("Only the author can edit this post");
  const data = parseOrThrow(postUpdateSchema, input) as PostUpdateInput;
  sqlite.transaction(() => {
    prepared(
      `UPDATE posts SET title = @title, content = @content, type = coalesce(@type, type),
         url_metadata = CASE WHEN media_url IS @mediaUrl THEN url_metadata ELSE NULL END,
         media_url = @mediaUrl, tags = @tags, updated_at = @now
       WHERE id = @id`,
    ).run({
      id,
      title: data.title,
      content: data.content,
      type: data.type ?? null,
      mediaUrl: data.mediaUrl,
      tags: data.tags ? JSON.stringify(data.tags) : null,
      now: Date.now(),
    });
    writeTags(id, data.tags);
  })();
  return getPost(actor, id);
}

/**
 * Delete a post: its author only. Comments, likes, shares, tags and media rows go with it (foreign
 * keys cascade); the author's posts_count drops in the same transaction. The stored media files
 * (pictures, their variants, video, audio) are deleted from storage once that has committed.
 */
export async function deletePost(actor: Actor, id: number): Promise<void> {
  const me = requireSignedIn(actor);
  const row = visiblePostOrThrow(actor, id);
  if (row.author_id !== me.id) throw forbidden("Only the author can delete this post");
  const files = mediaFilesOfPost(id);
  sqlite.transaction(() => {
    prepared(`DELETE FROM posts WHERE id = ?`).run(id);
    prepared(`UPDATE users SET posts_count = max(0, posts_count - 1) WHERE id = ?`).run(row.author_id);
  })();
  await deleteMediaFiles(files);
}

type LikeState = { likes: number; isLiked: boolean };

function likesOf(id: number): number {
  return (prepared(`SELECT likes_count FROM posts WHERE id = ?`).get(id) as { likes_count: number }).likes_count;
}

/** Like a post (signed in). Idempotent: a second like changes nothing. */
export async function likePost(actor: Actor, id: number): Promise<LikeState> {
  const me = requireSignedIn(actor, "Please sign in to like posts");
  visiblePostOrThrow(actor, id);
  return sqlite.transaction(() => {
    const added = prepared(`INSERT OR IGNORE INTO likes (post_id, user_id) VALUES (?, ?)`).run(id, me.id);
    if (added.changes) prepared(`UPDATE posts SET likes_count = likes_count + 1 WHERE id = ?`).run(id);
    return { likes: likesOf(id), isLiked: true };
  })();
}

/** Take a like back. Idempotent. */
export async function unlikePost(actor: Actor, id: number): Promise<LikeState> {
  const me = requireSignedIn(actor, "Please sign in to like posts");
  visiblePostOrThrow(actor, id);
  return sqlite.transaction(() => {
    const removed = prepared(`DELETE FROM likes WHERE post_id = ? AND user_id = ?`).run(id, me.id);
    if (removed.changes) prepared(`UPDATE posts SET likes_count = max(0, likes_count - 1) WHERE id = ?`).run(id);
    return { likes: likesOf(id), isLiked: false };
  })();
}

/**
 * Record a share (signed in). A member's shares of one post count once, so clicking Share again
 * (or a script) cannot push a post up the trending list (docs/decisions/0005-trending-formula.md).
 */
export async function sharePost(actor: Actor, id: number): Promise<{ shares: number }> {
  const me = requireSignedIn(actor, "Please sign in to share posts");
  visiblePostOrThrow(actor, id);
  return sqlite.transaction(() => {
    const already = prepared(`SELECT 1 FROM shares WHERE post_id = ? AND user_id = ? LIMIT 1`).get(id, me.id);
    if (!already) {
      prepared(`INSERT INTO shares (post_id, user_id) VALUES (?, ?)`).run(id, me.id);
      prepared(`UPDATE posts SET shares_count = shares_count + 1 WHERE id = ?`).run(id);
    }
    const { shares_count } = prepared(`SELECT shares_count FROM posts WHERE id = ?`).get(id) as { shares_count: number };
    return { shares: shares_count };
  })();
}

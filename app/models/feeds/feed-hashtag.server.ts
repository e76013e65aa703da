import { queryColumn, queryRow, queryRows } from "~/utils/db.server";
import { indexedBy, jsonListSql, notIndexed, textMatchIdsFrom } from "~/utils/db/sql-dialect.server";
import { visiblePostSql } from "~/models/access.server";
import { notBlockedByViewerSql } from "~/models/members/block.server";
import type { HashtagParts } from "./feed-search.server";

/**
 * A `#hashtag` search in the home feed's newest- and oldest-first sorts, read page by page without
 * building its match set (docs/decisions/0042-lists-in-pages.md, "`#hashtag` search").
 *
 * The match set is `post_tags.key = @tagKey` UNION the FTS query; both halves can be read in id
 * order with a bound (post_tags_key is (key, post_id); FTS5 iterates in rowid order and stops at the
 * LIMIT), so a page reads a few dozen ids from each half instead of every match. Ids run in creation
 * order, but nothing forces created_at to (a clock step, an import, a test), so the page is checked:
 * no home post outside the id range read may fall between the cursor and the page's last row. When
 * one does, or the reads grow past a bound, the caller runs the set-based statement instead; the
 * answer is the same either way, only its cost differs.
 */

export type HashtagDir = "DESC" | "ASC";

/** The two halves, each read in id order from `@from` (exclusive) with `LIMIT @n`. Exported for the plan check. */
export function hashtagHalves(dir: HashtagDir) {
  const after = dir === "DESC" ? "<" : ">";
  return {
    tags: `SELECT post_id AS id FROM ${indexedBy("post_tags", "post_tags_key")} WHERE key = @tagKey AND post_id ${after} @from ORDER BY post_id ${dir} LIMIT @n`,
    text: textMatchIdsFrom(dir),
  };
}

/** The candidates' sort keys, with the feed's own filters (home feed, type, cursor). */
export function hashtagRowsSql(dir: HashtagDir, typed: boolean, cursor: boolean): string {
  // Hidden posts are their author's alone, blocked members' posts not the blocker's (feed.server.ts VISIBLE_TO_VIEWER).
  const where = [
    `p.id IN (${jsonListSql("@ids")})`,
    "p.club_id IS NULL",
    visiblePostSql("p", "@viewer"),
    notBlockedByViewerSql("p.author_id"),
  ];
  if (typed) where.push("p.type = @type");
  if (cursor) where.push(`(p.created_at, p.id) ${dir === "DESC" ? "<" : ">"} (@cursorValue, @cursorId)`);
  return `SELECT p.id, p.created_at AS sort_value FROM ${notIndexed("posts p")} WHERE ${where.join(" AND ")}`;
}

/**
 * Any home post between the cursor and the page's last row (inclusive) whose id lies outside the
 * range [@lo, @hi] the halves were read over. It walks that stretch of posts_feed_recent: about a page
 * divided by the hashtag's share of posts. Without a last row (the reads ran out) it reads the ids
 * past the cursor's side of the range instead, by rowid.
 */
export function hashtagGapSql(dir: HashtagDir, cursor: boolean, last: boolean): string {
  const before = dir === "DESC" ? "<" : ">";
  const where = ["club_id IS NULL"];
  if (cursor) where.push(`(created_at, id) ${before} (@cursorValue, @cursorId)`);
  if (last) {
    where.push(`(created_at, id) ${dir === "DESC" ? ">=" : "<="} (@lastValue, @lastId)`, "(id < @lo OR id > @hi)");
    return `SELECT 1 AS gap FROM ${indexedBy("posts", "posts_feed_recent")} WHERE ${where.join(" AND ")} LIMIT 1`;
  }
  where.push(dir === "DESC" ? "id > @hi" : "id < @lo");
  // The ORDER BY makes PostgreSQL read the id range by its primary key too: without it, a few
  // thousand rows past the bound look like a quick find to its planner, which reads the table whole
  // when none of them is a match (the bench's plan check at 100k posts).
  return `SELECT 1 AS gap FROM ${notIndexed("posts")} WHERE ${where.join(" AND ")} ORDER BY id ${dir === "DESC" ? "ASC" : "DESC"} LIMIT 1`;
}

/** Past this many ids read from each half for one page, the set-based statement is cheaper. */
export const HASHTAG_READ_AT_MOST = 2000;

type Row = { id: number; sort_value: number };

/** Above every post id either engine hands out (PostgreSQL's ids are `integer`: a larger bound is out of range there). */
const ABOVE_EVERY_ID = 2_147_483_647;
type Page = {
  parts: HashtagParts;
  dir: HashtagDir;
  type: string | null;
  cursor: { value: number; id: number } | null;
  limit: number;
  /** The viewer's id (0: nobody), who alone sees their own hidden posts. */
  viewer: number;
};

/** Up to `limit` + 1 rows of the page in the sort's order, or null when the caller must build the set. */
export async function hashtagPage({ parts, dir, type, cursor, limit, viewer }: Page): Promise<Row[] | null> {
  const desc = dir === "DESC";
  const halves = hashtagHalves(dir);
  // Ids run in creation order, so the page after a cursor starts past the cursor's id (checked below).
  const start = cursor ? cursor.id : desc ? ABOVE_EVERY_ID : 0;
  const wanted = limit + 1;
  const rows: Row[] = [];
  let from = start;
  let exhausted = false;
  for (let n = 2 * wanted; ; n *= 4) {
    if (n > HASHTAG_READ_AT_MOST) return null;
    const a = await queryColumn<number>(halves.tags, { tagKey: parts.tagKey, from, n });
    const b = await queryColumn<number>(halves.text, { fts: parts.fts, from, n });
    // Both halves are complete up to the nearer of their last ids when a half filled its LIMIT.
    const edges = [a.length === n ? a[n - 1]! : null, b.length === n ? b[n - 1]! : null].filter((e) => e !== null);
    exhausted = edges.length === 0;
    const edge = exhausted ? null : desc ? Math.max(...edges) : Math.min(...edges);
    const ids = [...new Set([...a, ...b])].filter((id) => edge === null || (desc ? id >= edge : id <= edge));
    const params: Record<string, unknown> = { ids: JSON.stringify(ids), viewer };
    if (type) params.type = type;
    if (cursor) Object.assign(params, { cursorValue: cursor.value, cursorId: cursor.id });
    rows.push(...(await queryRows<Row>(hashtagRowsSql(dir, type !== null, cursor !== null), params)));
    if (edge !== null) from = edge;
    if (exhausted || rows.length >= wanted) break;
  }
  const sign = desc ? -1 : 1;
  rows.sort((x, y) => sign * (x.sort_value - y.sort_value || x.id - y.id));
  const page = rows.slice(0, wanted);
  // The ids read span [lo, hi]: from the start to the last edge (or to the end when the reads ran out).
  const lo = desc ? (exhausted ? 0 : from) : start;
  const hi = desc ? start : exhausted ? ABOVE_EVERY_ID : from;
  const last = page.length === wanted ? page[wanted - 1]! : null;
  if (!last && !cursor) return page;
  const params: Record<string, unknown> = { lo, hi };
  if (cursor) Object.assign(params, { cursorValue: cursor.value, cursorId: cursor.id });
  if (last) Object.assign(params, { lastValue: last.sort_value, lastId: last.id });
  const gap = await queryRow<{ gap: number }>(hashtagGapSql(dir, cursor !== null, last !== null), params);
  return gap ? null : page;
}

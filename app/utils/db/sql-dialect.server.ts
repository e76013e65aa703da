import { sql, type Placeholder, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { databaseEngine } from "../db.server";

/**
 * Every piece of SQL that differs between the two engines (docs/decisions/0061-one-data-layer-two-engines.md,
 * amended by 0076), each a small named function or constant with SQLite's and PostgreSQL's variants
 * side by side. Models call these and never ask which engine answers; `npm run lint` refuses engine-only
 * SQL and SQLite-only builder calls in `app/models/` (eslint.config.js), so a new fork lands here.
 *
 * The concerns: a JSON list of values, comparisons without regard to case, the database's clock,
 * SQLite's index hints (production runs without ANALYZE statistics: docs/decisions/0007; PostgreSQL
 * plans with its own statistics and gets no hints), and full-text search (SQLite's FTS5 `posts_fts`,
 * PostgreSQL's stored English tsvector `posts.search` with a GIN index).
 */

const onPostgres = databaseEngine() === "postgres";

// ---------------------------------------------------------------------------------------------
// A JSON list

/**
 * The elements of the JSON array `list` (SQL: a named parameter such as `@ids`) as rows of one
 * column, `value`: integers for `ids`, text for `text`. The one text of "the values in a JSON list";
 * `idsIn` and `inListIgnoringCase` are it in drizzle's `sql`.
 */
export function jsonListSql(list: string, of: "ids" | "text" = "ids"): string {
  return onPostgres
    ? `SELECT value${of === "ids" ? "::integer" : ""} FROM json_array_elements_text(${list}::json)`
    : `SELECT value FROM json_each(${list})`;
}

/** `jsonListSql` around a drizzle value (a placeholder, or a JSON string as a bound parameter). */
function jsonList(list: SQL | Placeholder, of: "ids" | "text"): SQL {
  const [before, after] = jsonListSql("\u0000", of).split("\u0000") as [string, string];
  return sql`${sql.raw(before)}${list}${sql.raw(after)}`;
}

/** The placeholder a list of ids is passed through to a prepared query: `inArray(col, idsIn("ids"))`, then `{ ids: JSON.stringify(ids) }`. */
export const idsIn = (name: string): SQL => sql`(${jsonList(sql.placeholder(name), "ids")})`;

// ---------------------------------------------------------------------------------------------
// Case

/**
 * `column = value` without regard to case (usernames): SQLite's NOCASE collation, PostgreSQL's
 * lower() on both sides; each engine has an index on exactly that expression.
 */
export const equalsIgnoringCase = (column: AnySQLiteColumn, value: string): SQL =>
  onPostgres ? sql`lower(${column}) = lower(${value})` : sql`${column} = ${value} COLLATE NOCASE`;

/**
 * `column` is one of `names` (a JSON array of lower-case text) without regard to case, through the
 * same index as `equalsIgnoringCase`.
 */
export const inListIgnoringCase = (column: AnySQLiteColumn, names: SQL | Placeholder): SQL =>
  onPostgres ? sql`lower(${column}) IN (${jsonList(names, "text")})` : sql`${column} COLLATE NOCASE IN (${jsonList(names, "text")})`;

/** `column` as the case-blind index on it holds it: to sort in that index's order (SQLite's NOCASE, PostgreSQL's lower()). */
export const caseFolded = (column: AnySQLiteColumn): SQL => (onPostgres ? sql`lower(${column})` : sql`${column} COLLATE NOCASE`);

/** The longest username (app/schemas/auth.ts): the range below needs no more than this many z's. */
const USERNAME_MAX = 20;
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A username `column` starts with `prefix` (letters, digits and underscores only: the caller checks;
 * any case), read as a range of the case-blind index (`users_username_nocase` on either engine),
 * never a scan: from the prefix to the prefix followed by z's. In SQLite's NOCASE order (and
 * PostgreSQL's under a C collation) that range holds exactly the names with the prefix; under a
 * language's collation PostgreSQL's may hold a few more (it weighs `_` apart), so there the range
 * is checked again with LIKE, row by row on what the index gave.
 */
export function startsWithIgnoringCase(column: AnySQLiteColumn, prefix: string): SQL {
  const low = prefix.toLowerCase();
  const high = low + "z".repeat(USERNAME_MAX);
  const folded = caseFolded(column);
  return onPostgres
    ? sql`${folded} >= ${low} AND ${folded} <= ${high} AND ${folded} LIKE ${`${escapeLike(low)}%`} ESCAPE '\\'`
    : sql`${folded} >= ${low} AND ${folded} <= ${high}`;
}

/**
 * One of the words (separated by spaces) of `column` starts with `text` (any case; `%`, `_` and `\`
 * match themselves): display names, which no index serves. A scan, callers cap it with LIMIT; one
 * pattern on the name with a space before it (`% text%`), which halves PostgreSQL's time against
 * two. At 100,000 members a lookup that scans them all took ~10 ms on SQLite and ~30 ms on
 * PostgreSQL here (ux-3 U20): fine at a community's size; past it, a trigram index. SQLite's LIKE
 * folds ASCII letters only ("josé" does not find "JOSÉ" there); PostgreSQL's lower() every script.
 */
export function hasWordStartingWith(column: AnySQLiteColumn, text: string): SQL {
  const pattern = `% ${escapeLike(text)}%`;
  return onPostgres ? sql`lower(' ' || ${column}) LIKE lower(${pattern}) ESCAPE '\\'` : sql`(' ' || ${column}) LIKE ${pattern} ESCAPE '\\'`;
}

/** `column` contains `text` (any case; `%`, `_` and `\` in it match themselves), for small lists' search boxes. */
export function containsIgnoringCase(column: AnySQLiteColumn, text: string): SQL {
  const pattern = `%${escapeLike(text)}%`;
  // SQLite's LIKE ignores case already; PostgreSQL needs ILIKE, and a text view of JSON columns (tags).
  return onPostgres ? sql`CAST(${column} AS TEXT) ILIKE ${pattern} ESCAPE '\\'` : sql`${column} LIKE ${pattern} ESCAPE '\\'`;
}

// ---------------------------------------------------------------------------------------------
// The clock

/** Milliseconds since the epoch by the database's clock (leases shared by processes and nodes). */
export const databaseNowMs = (): SQL =>
  onPostgres ? sql`(floor(extract(epoch from clock_timestamp()) * 1000))::bigint` : sql`(cast(unixepoch('subsec') * 1000 as integer))`;

// ---------------------------------------------------------------------------------------------
// Index hints (SQLite's alone)

/** `posts p INDEXED BY <index>`: make SQLite read a table through the named index. */
export function indexedBy(table: string, index: string): string {
  return onPostgres ? table : `${table} INDEXED BY ${index}`;
}

/** `posts p NOT INDEXED`: make SQLite read rows by id (the search drives, the sort follows). */
export function notIndexed(table: string): string {
  return onPostgres ? table : `${table} NOT INDEXED`;
}

/** The join keyword that keeps the tables in the written order: SQLite's CROSS JOIN, a plain JOIN on PostgreSQL. */
export const JOIN_IN_ORDER = onPostgres ? "JOIN" : "CROSS JOIN";

// ---------------------------------------------------------------------------------------------
// Full-text search

/** The ids of the posts a full-text query (`@fts`) matches, as `id`. */
export const TEXT_MATCH_IDS = onPostgres
  ? `SELECT id FROM posts WHERE search @@ to_tsquery('english', @fts)`
  : `SELECT rowid AS id FROM posts_fts WHERE posts_fts MATCH @fts`;

/** The same ids read in id order from `@from` (exclusive), `LIMIT @n`: the text half of a `#hashtag` page. */
export function textMatchIdsFrom(dir: "DESC" | "ASC"): string {
  const after = dir === "DESC" ? "<" : ">";
  return onPostgres
    ? `SELECT id FROM posts WHERE search @@ to_tsquery('english', @fts) AND id ${after} @from ORDER BY id ${dir} LIMIT @n`
    : `SELECT rowid AS id FROM posts_fts WHERE posts_fts MATCH @fts AND rowid ${after} @from ORDER BY rowid ${dir} LIMIT @n`;
}

/** The per-row probe of a full-text query (`@fts`) while the sort's index drives (`p` is the posts alias). */
export const FTS_ROW_PROBE = onPostgres
  ? `p.search @@ to_tsquery('english', @fts)`
  : `EXISTS (SELECT 1 FROM posts_fts f WHERE f.rowid = p.id AND posts_fts MATCH @fts)`;

/**
 * PostgreSQL keeps the text vector on the row, so probing any row is cheap there; SQLite's FTS5
 * probe of a phrase costs ~0.13 ms a row (feed-search.server.ts's planner weighs it).
 */
export const TEXT_PROBE_ON_THE_ROW = onPostgres;

/** The full-text query syntax's "or" between two queries. */
export const FTS_OR = onPostgres ? " | " : " OR ";

/** A full-text query of every one of `words` (letters and digits only: the caller keeps them so). */
export const ftsAllOf = (words: string[]): string => (onPostgres ? words.join(" & ") : words.map((w) => `"${w}"`).join(" "));

/** A full-text query of `words` as a phrase, in that order. */
export const ftsPhrase = (words: string[]): string => (onPostgres ? `(${words.join(" <-> ")})` : `"${words.join(" ")}"`);

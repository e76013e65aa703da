import { queryRow } from "~/utils/db.server";
import { ftsAllOf, FTS_OR, FTS_ROW_PROBE, ftsPhrase, TEXT_MATCH_IDS, TEXT_PROBE_ON_THE_ROW } from "~/utils/db/sql-dialect.server";
import { tagKey } from "~/utils/tags";

/**
 * Search for the feed: what a search text matches (full-text search, `#hashtag`s) and the planner
 * that decides whether a search or a sort drives (docs/decisions/0007-feed-pagination-and-indexes.md).
 * The SQL that differs between the engines (FTS5 `posts_fts MATCH` or the stored tsvector `posts.search
 * @@ to_tsquery`, and SQLite's index hints) is sql-dialect.server.ts's.
 */
/**
 * A search text as an FTS5 query: every word must appear (case and accents ignored, word forms
 * folded by the Porter stemmer: "hunt" finds "hunting"). Words match whole: a prefix query ("hunt"*) expands to every term it starts and costs far more per row than
 * the sort-driven plan below can afford; a prefix index on posts_fts would make it cheap.
 */
export function ftsQuery(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (!words?.length) return null;
  // Letters and digits only, so neither engine's query syntax can be reached from the text.
  const kept = words.slice(0, 12);
  return ftsAllOf(kept);
}

/** `#BowHunting`: the tag key, plus a text match on "bowhunting" or the phrase "bow hunting". */
export function hashtagFts(word: string): string | null {
  const joined = ftsQuery(word);
  const split = word.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2");
  const phraseWords = split.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (!joined) return null;
  if (phraseWords && phraseWords.length > 1) {
    return `(${joined})${FTS_OR}${ftsPhrase(phraseWords)}`;
  }
  return joined;
}

/** A hashtag search's two halves: the tag key and the FTS query (app/models/feeds/feed-hashtag.server.ts). */
export type HashtagParts = { tagKey: string; fts: string };

export type SearchSet = { sql: string; params: Record<string, string>; fts: boolean; hashtag?: HashtagParts };

/**
 * The set of post ids a search matches, as SQL with its parameters. A search that starts with '#'
 * also matches post_tags.key = tagKey(rest) ('#BowHunting' finds 'bow hunting'). `fts` is set when
 * the set is a plain full-text match (it can then be probed per row and read newest first).
 * Null when the search has no words in it ("!!!"): it matches nothing.
 */
export function searchSet(search: string): SearchSet | null {
  if (search.startsWith("#")) {
    const rest = search.slice(1).trim();
    const key = tagKey(rest);
    const fts = hashtagFts(rest);
    if (!key) return null;
    if (!fts) return { sql: `SELECT post_id FROM post_tags WHERE key = @tagKey`, params: { tagKey: key }, fts: false };
    return {
      sql: `SELECT post_id FROM post_tags WHERE key = @tagKey UNION ${TEXT_MATCH_IDS}`,
      params: { tagKey: key, fts },
      fts: false,
      hashtag: { tagKey: key, fts },
    };
  }
  const fts = ftsQuery(search);
  if (!fts) return null;
  return { sql: TEXT_MATCH_IDS, params: { fts }, fts: true };
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

export type SearchPlan = { mode: "drive" | "filter-set" | "filter-probe"; set: SearchSet };

export async function planSearch(search: string): Promise<SearchPlan | null> {
  const set = searchSet(search);
  if (!set) return null;
  if (!set.fts) {
    // A hashtag of one word (#rut) is its tag key or one FTS term, both cheap to probe per row; one
    // with a phrase (#BowHunting) is not (a phrase probe costs ~0.13 ms a row, more than the set).
    const oneWord = set.hashtag && !set.hashtag.fts.includes(FTS_OR);
    if (oneWord && (await textProbe(set.hashtag!.fts)).density >= DENSE_SEARCH) return { mode: "filter-probe", set };
    // PostgreSQL keeps the vector on the row, so any hashtag is cheap to probe, while its set (tag
    // rows UNION text matches) is read from the whole table once the text matches are many (its
    // planner prefers a Seq Scan to the GIN index then): #BowHunting by popularity at 100k posts took
    // 320-360 ms as a set, 6-18 ms probed along posts_feed_popular.
    if (TEXT_PROBE_ON_THE_ROW && set.hashtag && (await textProbe(set.hashtag.fts)).n > SEARCH_DRIVES_BELOW)
      return { mode: "filter-probe", set };
    const row = await queryRow<{ n: number }>(`SELECT count(*) AS n FROM (${set.sql} LIMIT ${SEARCH_DRIVES_BELOW + 1}) AS s`, set.params);
    return { mode: Number(row!.n) <= SEARCH_DRIVES_BELOW ? "drive" : "filter-set", set };
  }
  const probe = await textProbe(set.params.fts!);
  if (probe.n <= SEARCH_DRIVES_BELOW) return { mode: "drive", set };
  return { mode: probe.density >= DENSE_SEARCH ? "filter-probe" : "filter-set", set };
}

/** An FTS query's newest SEARCH_DRIVES_BELOW + 1 matches: how many, and their share of the ids they span. */
async function textProbe(fts: string): Promise<{ n: number; density: number }> {
  const probe = (await queryRow<{ n: number; lo: number | null }>(
    `SELECT count(*) AS n, min(id) AS lo FROM (${TEXT_MATCH_IDS} ORDER BY id DESC LIMIT ${SEARCH_DRIVES_BELOW + 1}) AS m`,
    { fts },
  ))!;
  const n = Number(probe.n);
  if (n <= SEARCH_DRIVES_BELOW) return { n, density: 0 };
  const { hi } = (await queryRow<{ hi: number }>(`SELECT max(id) AS hi FROM posts`))!;
  return { n, density: n / Math.max(1, Number(hi) - Number(probe.lo ?? 0) + 1) };
}

/** The per-row probe of a dense search: its FTS probe, or for a one-word hashtag its tag key or that. */
export function rowProbe(set: SearchSet): string {
  if (!set.hashtag) return FTS_ROW_PROBE;
  return `(EXISTS (SELECT 1 FROM post_tags t WHERE t.post_id = p.id AND t.key = @tagKey) OR ${FTS_ROW_PROBE})`;
}

import { dataVersion } from "~/utils/db.server";

/**
 * Trending, computed once a minute per process and shared by every viewer (issue 13,
 * docs/decisions/0037-cheaper-home-rendering.md). Ranking the candidates is the costly part
 * (about a tenth of a home page's server time at 100k posts when it ran per request), and it does
 * not depend on who asks: the ranked ids are kept for TRENDING_TTL_MS. What is drawn from them is
 * read afresh whenever the data changed (a like, an edited title, a deleted post), so counts and
 * titles are never older than the page around them; only the order may lag by up to a minute.
 *
 * Forgotten at once when a post is created or deleted (post.server.ts), and when `now` is not
 * within the minute the ranking was made for (a caller with its own clock, e.g. a test).
 */
export const TRENDING_TTL_MS = 60_000;

type Ranked = { ids: number[]; at: number };
let ranked: Ranked | null = null;
let drawn: { ranked: Ranked; version: number; value: unknown } | null = null;
/** Moves on with every forgetTrending: a ranking that was being read meanwhile is not kept. */
let generation = 0;

/** The ranking for `now`: the cached one when it is less than a minute old, else a fresh one. */
async function ranking(now: number, rank: (now: number) => Promise<number[]>): Promise<Ranked> {
  if (ranked && now >= ranked.at && now - ranked.at < TRENDING_TTL_MS) return ranked;
  const started = generation;
  const fresh = { ids: await rank(now), at: now };
  // A post came or went while it was read: answer with it, but do not keep it.
  if (generation === started) ranked = fresh;
  return fresh;
}

/** The ranked ids, from the cache when it is less than a minute old for `now`. */
export async function rankedTrending(now: number, rank: (now: number) => Promise<number[]>): Promise<number[]> {
  return (await ranking(now, rank)).ids;
}

/**
 * What a page draws from the ranking (the same for every viewer), computed once per ranking and
 * data version.
 */
export async function drawnTrending<T>(
  now: number,
  rank: (now: number) => Promise<number[]>,
  draw: (ids: number[]) => Promise<T>,
): Promise<T> {
  const from = await ranking(now, rank);
  const version = await dataVersion();
  if (drawn && drawn.ranked === from && drawn.version === version) return drawn.value as T;
  const value = await draw(from.ids);
  // Kept only while its ranking is still the cached one (not forgotten or replaced meanwhile).
  if (ranked === from) drawn = { ranked: from, version, value };
  return value;
}

/** Drop the cached ranking (a post came or went). */
export function forgetTrending(): void {
  ranked = null;
  drawn = null;
  generation++;
}

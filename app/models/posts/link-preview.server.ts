import { inArray } from "drizzle-orm";
import { linkPreviews } from "#db/schema";
import { hasPreview, type LinkMetadata } from "~/schemas/media-options";
import { db } from "~/utils/db.server";
import { FRESH_ERROR_MS, getLinkMetadata, normalizePreviewUrl } from "~/utils/link-metadata.server";
import { logger } from "~/utils/logger.server";
import { consumeLimit } from "~/utils/rate-limit.server";

/**
 * Link previews drawn by the server from what it already knows (issue 31, audit ux-2 N4/#12).
 *
 * A post normally carries its preview from publication on (ADR 0008), but one published while the
 * other site was slow, or before the preview was fetched at all, has none: its card showed the bare
 * URL to anyone without JavaScript, and a visitor's home is sent without scripts (ADR 0047). So a
 * page of posts fills those posts' previews from the per-URL cache (`link_previews`), one query for
 * the whole page, and never fetches while the page is drawn. A URL the cache does not know (or whose
 * failure is older than the retry time) is queued for a fetch off the request: at most
 * `WARM_AT_ONCE` at a time, `WARM_QUEUE_MAX` waiting, each URL once however many pages ask, through
 * `getLinkMetadata` (the SSRF guard, time and size limits, the per-URL cache) and counted against
 * one `linkPreviewsPerIp` bucket for the server's own page fetches. When it arrives, the store
 * copies it into the posts that lack it (a write, so the data version and every page validator
 * move on) and the next drawing shows it.
 */

type WithLink = { mediaUrl: string | null; urlMetadata: LinkMetadata | null };

/** The rate-limit key every fetch a page starts counts under (one bucket for the whole site). */
export const PAGE_WARM_KEY = "server:page-previews";
export const WARM_AT_ONCE = 2;
export const WARM_QUEUE_MAX = 32;

const keyOf = (url: string): string | null => {
  if (!/^https?:\/\//i.test(url)) return null;
  try {
    return normalizePreviewUrl(url);
  } catch {
    return null;
  }
};

/**
 * What the cache knows of these URLs, in one query: the preview of each URL that has one, and the
 * URLs worth fetching (never fetched, or failed longer ago than the retry time).
 */
export async function knownPreviews(
  urls: readonly string[],
  now = Date.now(),
): Promise<{ previews: Map<string, LinkMetadata>; unknown: string[] }> {
  const keys = new Map<string, string>();
  for (const url of urls) {
    const key = keyOf(url);
    if (key) keys.set(url, key);
  }
  const previews = new Map<string, LinkMetadata>();
  if (keys.size === 0) return { previews, unknown: [] };
  const rows = await db
    .select()
    .from(linkPreviews)
    .where(inArray(linkPreviews.url, [...new Set(keys.values())]));
  const byKey = new Map(rows.map((r) => [r.url, r]));
  const unknown: string[] = [];
  for (const [url, key] of keys) {
    const row = byKey.get(key);
    if (row && hasPreview(row.data)) previews.set(url, row.data);
    else if (!row || now - row.fetchedAt.getTime() >= FRESH_ERROR_MS) unknown.push(url);
  }
  return { previews, unknown };
}

/**
 * The posts, each post with a media URL and no stored preview given the cached one when there is
 * one (one query for the page; none when every post has its preview or no link); the others' URLs
 * queued for a fetch off the request.
 */
export async function withKnownPreviews<P extends WithLink>(posts: P[]): Promise<P[]> {
  const lacking = [...new Set(posts.flatMap((p) => (p.mediaUrl && !p.urlMetadata && keyOf(p.mediaUrl) ? [p.mediaUrl] : [])))];
  if (lacking.length === 0) return posts;
  const { previews, unknown } = await knownPreviews(lacking);
  warmPreviews(unknown);
  if (previews.size === 0) return posts;
  return posts.map((p) => {
    const known = p.mediaUrl && !p.urlMetadata ? previews.get(p.mediaUrl) : undefined;
    return known ? { ...p, urlMetadata: known } : p;
  });
}

type Fetcher = (url: string) => Promise<unknown>;
const defaultFetcher: Fetcher = (url) => getLinkMetadata(url, {}, { beforeFetch: () => consumeLimit("linkPreviewsPerIp", PAGE_WARM_KEY) });
let fetcher: Fetcher = defaultFetcher;
// Off under vitest (a test that wants it turns it on: setPreviewWarmer), so no other test's posts
// start fetches of made-up addresses in the background; LINK_PREVIEW_WARM=0 turns it off anywhere.
let warmingOn = !process.env.VITEST && process.env.LINK_PREVIEW_WARM !== "0";
const waiting: string[] = [];
const queuedKeys = new Set<string>();
let running = 0;

/** Tests: replace the fetch (null: the real one), or turn page-started fetches off. */
export function setPreviewWarmer(options: { fetch?: Fetcher | null; enabled?: boolean }) {
  if (options.fetch !== undefined) fetcher = options.fetch ?? defaultFetcher;
  if (options.enabled !== undefined) warmingOn = options.enabled;
}

/** Tests: how many fetches are queued or running. */
export const warmingCount = () => queuedKeys.size;

/** Queue fetches for these URLs, off the request: never awaited, deduplicated, bounded. */
export function warmPreviews(urls: readonly string[]): void {
  if (!warmingOn) return;
  for (const url of urls) {
    const key = keyOf(url);
    if (!key || queuedKeys.has(key) || waiting.length >= WARM_QUEUE_MAX) continue;
    queuedKeys.add(key);
    waiting.push(url);
  }
  if (waiting.length) setImmediate(pump);
}

function pump() {
  while (running < WARM_AT_ONCE && waiting.length) {
    const url = waiting.shift()!;
    running++;
    Promise.resolve()
      .then(() => fetcher(url))
      .catch((error: unknown) => logger.info({ err: error }, "link preview for a page not fetched"))
      .finally(() => {
        running--;
        queuedKeys.delete(keyOf(url)!);
        pump();
      });
  }
}

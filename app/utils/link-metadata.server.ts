import { and, eq, inArray, isNull } from "drizzle-orm";
import createMetascraper from "metascraper";
import metascraperDescription from "metascraper-description";
import metascraperImage from "metascraper-image";
import metascraperLogo from "metascraper-logo-favicon";
import metascraperPublisher from "metascraper-publisher";
import metascraperTitle from "metascraper-title";
import metascraperUrl from "metascraper-url";
import { fetch, type Agent, type Dispatcher } from "undici";
import { createGuardedAgent, type GuardOptions } from "./address-guard.server";
import { logger } from "./logger.server";
import { linkPreviews, posts, type LinkMetadata } from "#db/schema";
import { hasPreview, safeImageUrl } from "~/schemas/media";
import { toStorableText } from "~/schemas/text";
import { db, first } from "./db.server";
import { isHttpUrl } from "./urls";

// The guard lives in address-guard.server.ts (push endpoints use it too); these names stay importable from here.
export { BlockedAddressError, createGuardedAgent, isPublicAddress, type GuardOptions, type LookupFunction } from "./address-guard.server";

/**
 * Link previews (CONTRACT.md §4, docs/decisions/0008-media-storage-and-processing.md).
 *
 * The server fetches a page a member names, so the fetch must not become a way into the server's
 * own network (SSRF). Every connection goes through an undici Agent whose connector resolves the
 * name itself and refuses unless every address is public unicast (ipaddr.js `range()`); an IP
 * literal is checked before connecting and the socket's remote address once more after. Because
 * the check sits on the connection, it covers DNS answers and every redirect hop; redirects are
 * also followed by hand (at most 3) so each hop's scheme is checked. The whole fetch has a 5 s
 * timeout, the body a 1 MB cap, and only HTML is parsed. Failures are logged and answered as
 * `{ error }`; results are cached per URL in `link_previews`.
 */

export const PREVIEW_TIMEOUT_MS = 5_000;
export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_REDIRECTS = 3;
/** How long a fetched preview is reused; a failure is retried sooner. */
const FRESH_MS = 24 * 3_600_000;
export const FRESH_ERROR_MS = 10 * 60_000;

const USER_AGENT = "Mozilla/5.0 (compatible; WhitetailPulseBot/1.0; link preview)";

let defaultAgent: Agent | null = null;

export type FetchPageOptions = GuardOptions & {
  /** A guarded agent to use (tests); by default one shared agent for the process. */
  dispatcher?: Dispatcher;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
};

export class PreviewError extends Error {
  name = "PreviewError";
}

/**
 * Fetches an HTML page through the guard: redirects followed by hand (each hop must be http(s) and
 * connect to an allowed address), at most `maxBytes` of the body read (a longer page is cut: the
 * metadata lives in its head), only text/html accepted.
 */
export async function fetchHtmlPage(rawUrl: string, options: FetchPageOptions = {}): Promise<{ url: string; html: string }> {
  const timeoutMs = options.timeoutMs ?? PREVIEW_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  const ownAgent = options.dispatcher ? null : options.lookup || options.isAllowedAddress ? createGuardedAgent(options) : null;
  const dispatcher = options.dispatcher ?? ownAgent ?? (defaultAgent ??= createGuardedAgent());
  const signal = AbortSignal.timeout(timeoutMs);

  try {
    let url = new URL(rawUrl);
    for (let hop = 0; ; hop++) {
      if (!isHttpUrl(url.href)) throw new PreviewError(`Only http and https addresses can be previewed (${url.protocol})`);
      if (url.username || url.password) throw new PreviewError("Addresses with credentials are not previewed");
      const response = await fetch(url, {
        dispatcher,
        signal,
        redirect: "manual",
        headers: {
          "User-Agent": USER_AGENT,
          Accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
          "Accept-Language": "en-US,en;q=0.8",
        },
      });

      if (response.status >= 300 && response.status < 400 && response.headers.get("location")) {
        await response.body?.cancel().catch(() => undefined);
        if (hop >= maxRedirects) throw new PreviewError(`Too many redirects (more than ${maxRedirects})`);
        url = new URL(response.headers.get("location")!, url);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new PreviewError(`The page answered ${response.status}`);
      }
      const type = response.headers.get("content-type") ?? "";
      if (!/^\s*(text\/html|application\/xhtml\+xml)/i.test(type)) {
        await response.body?.cancel().catch(() => undefined);
        throw new PreviewError(`Not an HTML page (${type.split(";")[0] || "no content type"})`);
      }
      const html = await readCapped(response.body as ReadableStream<Uint8Array> | null, maxBytes, charsetOf(type));
      return { url: url.toString(), html };
    }
  } finally {
    if (ownAgent) await ownAgent.close().catch(() => undefined);
  }
}

function charsetOf(contentType: string): string {
  const match = /charset\s*=\s*"?([\w-]+)/i.exec(contentType);
  return match?.[1]?.toLowerCase() ?? "utf-8";
}

async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number, charset: string): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const room = maxBytes - size;
    chunks.push(value.byteLength > room ? value.subarray(0, room) : value);
    size += Math.min(value.byteLength, room);
    if (size >= maxBytes) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  return decoder.decode(Buffer.concat(chunks));
}

const metascraper = createMetascraper([
  metascraperTitle(),
  metascraperDescription(),
  metascraperImage(),
  metascraperPublisher(),
  metascraperUrl(),
  // Icons the page declares only: the rule's own favicon probing and Google lookup would fetch
  // other addresses outside the guard, so they are off and nothing is fetched to pick one.
  metascraperLogo({
    favicon: false,
    google: false,
    rootFavicon: false,
    pickFn: async (sizes: Array<{ url: string; size?: { priority?: number } }>) =>
      [...sizes].sort((a, b) => (b.size?.priority ?? 0) - (a.size?.priority ?? 0))[0]?.url,
  } as unknown as Parameters<typeof metascraperLogo>[0]),
]);

/** Whitespace collapsed, cut to `max`, and storable (no NUL, no half of a pair the cut left: ADR 0015). */
const clip = (value: unknown, max: number): string | null => {
  if (typeof value !== "string") return null;
  const text = toStorableText(value.replace(/\s+/g, " ").trim());
  if (!text) return null;
  return text.length > max ? `${toStorableText(text.slice(0, max - 1))}…` : text;
};

export function domainOf(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^www\./, "") || null;
  } catch {
    return null;
  }
}

/** SPEC.md §3 Link metadata from a page's HTML. `{ error }` when it has nothing to show. */
export async function extractMetadata(html: string, url: string): Promise<LinkMetadata> {
  const raw = await metascraper({ html, url, validateUrl: false });
  const metadata: LinkMetadata = {
    title: clip(raw.title, 300),
    description: clip(raw.description, 1000),
    image: safeImageUrl(raw.image),
    siteName: clip(raw.publisher, 100),
    domain: domainOf(raw.url ?? url) ?? domainOf(url),
    logo: safeImageUrl(raw.logo),
  };
  if (!hasPreview(metadata)) return { error: "No preview available for this page", domain: metadata.domain };
  return metadata;
}

/** Fetch and extract, never throwing: a failure is logged and becomes `{ error }`. */
export async function fetchLinkMetadata(url: string, options: FetchPageOptions = {}): Promise<LinkMetadata> {
  try {
    const page = await fetchHtmlPage(url, options);
    return await extractMetadata(page.html, page.url);
  } catch (error) {
    const reason = describeFailure(error);
    logger.info({ host: URL.canParse(url) ? new URL(url).host : undefined, reason }, "link preview unavailable");
    return { error: reason };
  }
}

function describeFailure(error: unknown): string {
  let e = error as { name?: string; message?: string; cause?: unknown } | undefined;
  // undici wraps connection failures: "fetch failed" with the connector's error as the cause.
  while (e?.cause && e.message === "fetch failed") e = e.cause as typeof e;
  if (e?.name === "BlockedAddressError") return "This address cannot be previewed";
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return "The page took too long to answer";
  if (e?.name === "PreviewError") return e.message ?? "No preview available";
  return "The page could not be fetched";
}

/** The cache key: the URL as the WHATWG parser writes it, without its fragment. */
export function normalizePreviewUrl(url: string): string {
  const parsed = new URL(url.trim());
  parsed.hash = "";
  return parsed.toString();
}

const inFlight = new Map<string, Promise<LinkMetadata>>();

/**
 * `beforeFetch` runs only when the server is about to fetch someone else's page (not for a cached or
 * in-flight preview): the per-member limit on outbound fetches (`linkPreviewsPerUser`) is counted
 * there, and a refusal it throws is thrown from `getLinkMetadata`.
 */
export type PreviewFetchHooks = { beforeFetch?: () => void | Promise<void> };

/**
 * The preview for a URL, from the cache when fresh (a day; a failure ten minutes), otherwise
 * fetched (once per process however many ask at the same time) and stored. A member's post reuses
 * the preview their editor already had the server fetch, without fetching again.
 */
export async function getLinkMetadata(
  url: string,
  options: FetchPageOptions = {},
  { beforeFetch }: PreviewFetchHooks = {},
): Promise<LinkMetadata> {
  let key: string;
  try {
    key = normalizePreviewUrl(url);
  } catch {
    return { error: "Invalid URL format" };
  }
  const cached = first(await db.select().from(linkPreviews).where(eq(linkPreviews.url, key)));
  if (cached) {
    const age = Date.now() - cached.fetchedAt.getTime();
    if (age < (cached.data.error ? FRESH_ERROR_MS : FRESH_MS)) return cached.data;
  }
  const pending = inFlight.get(key);
  if (pending) return pending;
  await beforeFetch?.();
  // Another request may have started the same fetch while this one read the cache.
  const started = inFlight.get(key);
  if (started) return started;
  const job = fetchLinkMetadata(key, options)
    .then(async (data) => {
      const fetchedAt = new Date();
      await db
        .insert(linkPreviews)
        .values({ url: key, data, fetchedAt })
        .onConflictDoUpdate({ target: linkPreviews.url, set: { data, fetchedAt } });
      if (hasPreview(data)) await giveToPostsWithout(data, [url, key]);
      return data;
    })
    .finally(() => inFlight.delete(key));
  inFlight.set(key, job);
  return job;
}

/**
 * A preview that arrived after its posts were published (the site was slow, or a page asked for it:
 * models/posts/link-preview.server.ts) is copied into the posts with that address and no preview, so
 * they carry it as if it had come in time. The write moves the data version, so every page that
 * showed the bare link is drawn again (page validators, the visitor and render caches). Posts are
 * looked for first: on PostgreSQL an UPDATE of no rows would still move the version.
 */
async function giveToPostsWithout(data: LinkMetadata, urls: string[]): Promise<void> {
  const lacking = and(isNull(posts.urlMetadata), inArray(posts.mediaUrl, [...new Set(urls)]));
  const ids = (await db.select({ id: posts.id }).from(posts).where(lacking)).map((r) => r.id);
  if (ids.length)
    await db
      .update(posts)
      .set({ urlMetadata: data })
      .where(and(lacking, inArray(posts.id, ids)));
}

/**
 * For a post being published: the preview of its media URL, or null when there is none or it
 * does not arrive within `timeoutMs` (publishing never waits long for someone else's site).
 */
export async function previewForPost(
  mediaUrl: string | null | undefined,
  timeoutMs = 3_000,
  hooks: PreviewFetchHooks = {},
): Promise<LinkMetadata | null> {
  if (!mediaUrl) return null;
  const timer = new Promise<null>((resolve) => setTimeout(resolve, timeoutMs, null).unref?.());
  const metadata = await Promise.race([getLinkMetadata(mediaUrl, {}, hooks).catch(() => null), timer]);
  return metadata && hasPreview(metadata) ? metadata : null;
}

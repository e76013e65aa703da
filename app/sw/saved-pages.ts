import { ExpirationPlugin } from "workbox-expiration";
import type { WorkboxPlugin } from "workbox-core/types";
import { pageOf, SAVED_AT_HEADER, SAVED_FOR_HEADER, sessionStillTrusted, VIEWER_HEADER, VISITOR } from "../offline/saved-pages";
import { forgetCard } from "./hunt-day-card";

/**
 * Whose saved pages these are (docs/decisions/0033-service-worker-saved-pages.md). Every document
 * and loader-data answer names its viewer (`X-Pulse-Viewer`: an opaque tag per member, `visitor`
 * otherwise). The worker keeps the pages of one viewer at a time: when an answer names another
 * viewer (a sign-in, a sign-out, an ended session), or the member signs out, every saved page is
 * deleted first. Each saved copy also carries the viewer it was drawn for, and a copy is only
 * served while that viewer is the current one, so a reply still in flight when the pages were
 * forgotten cannot bring one back.
 *
 * A member's pages also need a live session (docs/decisions/0053-saved-member-pages-need-a-
 * live-session.md): each answer from the network naming the current member records the time
 * (`/__pulse/confirmed`); offline, their saved copies are served only within MEMBER_OFFLINE_HOURS of
 * it, and past it every page is forgotten. A sign from the server that this device's session ended
 * (`sessionEnded`: an `/api` 401; `heardViewer`: the sign-in page or a form's answer drawn for a
 * visitor) forgets them at once (docs/decisions/0078).
 *
 * A page the server now refuses (403, 404 or 410: the post was removed by a moderator, hidden after
 * reports or deleted, its club made private, its author blocked you) is no longer saved: every copy
 * of it, the document and each route's loader data, is deleted when that answer comes back, so it is
 * not shown offline afterwards (issue 27, "gone … from the service worker's saved pages on the next
 * visit").
 */

export const PAGES_CACHE = "pages";
const META_CACHE = "pulse-meta";
const VIEWER_KEY = "/__pulse/viewer";
const CONFIRMED_KEY = "/__pulse/confirmed";

/** Pages and loader data: at most this many answers, none older than this. */
export const PAGE_LIMITS = { maxEntries: 80, maxAgeSeconds: 14 * 24 * 60 * 60 };

const expiration = new ExpirationPlugin({ ...PAGE_LIMITS, purgeOnQuotaError: true });

let viewer: Promise<string> | null = null;
/** Bumped each time the saved pages are forgotten: a reply to a request made before does not count. */
let generation = 0;

function currentViewer(): Promise<string> {
  viewer ??= caches
    .open(META_CACHE)
    .then((cache) => cache.match(VIEWER_KEY))
    .then((saved) => (saved ? saved.text() : VISITOR))
    .catch(() => VISITOR);
  return viewer;
}

/**
 * Delete every saved page (and its expiry records); `next` is the viewer from now on. The member's
 * hunt-day card (./hunt-day-card.ts) goes too, except when the 72-hour bound alone is the reason
 * (`{ bound: true }`): that copy is drawn for a visitor and kept 14 days (ADR 0090, 0095).
 */
export async function forgetPages(next: string = VISITOR, { bound = false }: { bound?: boolean } = {}) {
  generation += 1;
  if (!bound) await forgetCard(next);
  viewer = Promise.resolve(next);
  // The plugin forgets the caches it used since the worker started (and their expiry records);
  // the cache itself is deleted whether or not it was used since.
  await expiration.deleteCacheAndMetadata();
  await caches.delete(PAGES_CACHE);
  const meta = await caches.open(META_CACHE);
  await meta.delete(CONFIRMED_KEY);
  await meta.put(VIEWER_KEY, new Response(next));
}

/** The server just answered the current member as signed in: their saved pages may be shown a while longer. */
async function confirmSession() {
  await (await caches.open(META_CACHE)).put(CONFIRMED_KEY, new Response(String(Date.now())));
}

/** When the current member's session was last confirmed online (read each time: it is only asked offline). */
async function confirmedAt(): Promise<number | null> {
  const saved = await (await caches.open(META_CACHE)).match(CONFIRMED_KEY);
  return saved ? Number(await saved.text()) : null;
}

/** Something the server said shows this device's session has ended: forget the member's pages now. */
export async function sessionEnded() {
  if ((await currentViewer()) !== VISITOR) await forgetPages(VISITOR);
  // Past the 72-hour bound the viewer is already a visitor, but the card may still be kept.
  else await forgetCard(VISITOR);
}

/** How many times the saved pages were forgotten: a request notes it as it leaves (see `heardViewer`). */
export function pagesGeneration(): number {
  return generation;
}

/**
 * An answer the worker looked at without saving it (the sign-in page, its loader data) named its
 * viewer, `tag`: another viewer than the current one forgets every saved page, as a page's answer
 * does, and the current member's own confirms their session. `startedAt` is `pagesGeneration()`
 * when the request left: a reply to a request made before the pages were last forgotten says nothing.
 */
export async function heardViewer(tag: string, startedAt: number) {
  if (startedAt !== generation) return;
  const current = await currentViewer();
  if (tag !== current) await forgetPages(tag);
  else if (tag !== VISITOR) await confirmSession();
  // Drawn for a visitor: this device has no session, so no member's card is kept for it.
  else await forgetCard(VISITOR);
}

/**
 * The page cache is only looked in when the network failed or stalled: that is when the bound is
 * applied, even to a page never saved (the offline page is about to be shown), so past the bound the
 * member's pages leave the disk on the first visit without signal, not only when one of them is asked for.
 */
async function forgetIfUntrusted() {
  const current = await currentViewer();
  if (current !== VISITOR && !sessionStillTrusted(await confirmedAt(), Date.now())) await forgetPages(VISITOR, { bound: true });
}

/** Answers that say a page is not there (any more) for this viewer. */
const GONE_STATUSES = new Set([403, 404, 410]);

/** Delete every saved copy of the page `url` belongs to: its document and each route's loader data. */
async function forgetPage(url: string) {
  const { page } = pageOf(new URL(url));
  const cache = await caches.open(PAGES_CACHE);
  for (const key of await cache.keys()) if (pageOf(new URL(key.url)).page === page) await cache.delete(key);
}

/** A saved copy of this request that its current viewer may see, or undefined. */
export async function savedCopy(request: Request): Promise<Response | undefined> {
  const cache = await caches.open(PAGES_CACHE);
  const copy = await cache.match(request, { ignoreVary: true });
  return copy && (await servable(copy)) ? copy : undefined;
}

async function servable(copy: Response): Promise<boolean> {
  const current = await currentViewer();
  if (copy.headers.get(SAVED_FOR_HEADER) !== current) return false;
  if (current === VISITOR || sessionStillTrusted(await confirmedAt(), Date.now())) return true;
  // Nothing from the server has vouched for this member's session for too long: forget them all.
  await forgetPages(VISITOR, { bound: true });
  return false;
}

/**
 * The rules of the page cache, as a Workbox plugin:
 * - every answer from the network tells whose page it is; another viewer than the current one
 *   forgets every saved page first; the current member's own answer confirms their session;
 * - a page the server now refuses (403, 404, 410) has its saved copies deleted;
 * - only a 200 that may be stored (no `no-store`: settings, anything with an email or invite code)
 *   and that names its viewer is kept, stamped with the time and the viewer;
 * - a saved copy is served only to the viewer it was drawn for, and a member's only while their
 *   session was confirmed recently enough.
 */
export const savedPagesPlugin: WorkboxPlugin = {
  requestWillFetch: async ({ request, state }) => {
    if (state) state.generation = generation;
    return request;
  },
  fetchDidSucceed: async ({ request, response, state }) => {
    const tag = response.headers.get(VIEWER_HEADER);
    if (tag && state?.generation === generation && tag !== (await currentViewer())) {
      await forgetPages(tag);
      // This answer is the new viewer's own: it may be kept.
      state.generation = generation;
    }
    if (tag && tag !== VISITOR && state?.generation === generation && tag === (await currentViewer())) await confirmSession();
    // A page drawn for a visitor: this device's session (if it had one) is gone, and the member's card with it.
    if (tag === VISITOR && state?.generation === generation) await forgetCard(VISITOR);
    if (GONE_STATUSES.has(response.status)) await forgetPage(request.url);
    return response;
  },
  cacheWillUpdate: async ({ response, state }) => {
    const tag = response.headers.get(VIEWER_HEADER);
    if (response.status !== 200 || !tag || /\bno-store\b/i.test(response.headers.get("Cache-Control") ?? "")) return null;
    if (state?.generation !== generation || tag !== (await currentViewer())) return null;
    const headers = new Headers(response.headers);
    headers.set(SAVED_AT_HEADER, String(Date.now()));
    headers.set(SAVED_FOR_HEADER, tag);
    return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
  },
  cachedResponseWillBeUsed: async ({ cachedResponse }) => {
    if (cachedResponse) return (await servable(cachedResponse)) ? cachedResponse : null;
    await forgetIfUntrusted();
    return null;
  },
};

export const pageCachePlugins: WorkboxPlugin[] = [savedPagesPlugin, expiration];

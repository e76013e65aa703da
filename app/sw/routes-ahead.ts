import { browserSavesData } from "../offline/routes-ahead-message";

/**
 * The routes ahead (ADR 0088): the code of the pages a member is likely to open next (a post, the
 * home, writing a post, the bell, a club, a profile, settings…), listed at build time by
 * scripts/build-sw.ts, fetched in the background so that the first visit to each runs from this
 * device, also with no signal.
 *
 * Not as the worker installs: a page asks (app/offline/routes-ahead.ts) after its load event, once
 * hydrated, when the browser is idle, and not at all with data saver on. Then a few files at a time,
 * at low priority, each batch only after the pages have asked the worker for nothing for a while, so
 * a member who taps a link on a slow link is not queued behind them. A file already on this device
 * (in a worker cache, or in the browser's HTTP cache, which a plain fetch reads) costs no download.
 * The files carry their content's hash: each build has its own cache, and the other builds' are
 * deleted as a new worker activates. Only a page of the worker's own build asks, and the worker stops
 * between batches when a newer worker is waiting, which a browser would otherwise hold back until
 * this one had finished.
 */

declare const self: ServiceWorkerGlobalScope & { __ROUTES_AHEAD: { cache: string; files: string[] } };

const { cache: AHEAD_CACHE, files: AHEAD_FILES } = self.__ROUTES_AHEAD;
export { AHEAD_CACHE };
const AHEAD_CACHES = /^routes-ahead-/;

/** Files fetched at once. */
const BATCH = 3;
/** How long the pages must have asked for nothing before the next batch. */
export const QUIET_MS = 1_500;

let lastPageRequest = 0;
let running: Promise<void> | null = null;

/** A page asked the worker for something (any fetch event from a page): the next batch waits. */
export function notePageRequest() {
  lastPageRequest = Date.now();
}

/** Fetch what is missing of the routes ahead (one run at a time; a second ask joins it). */
export function fetchRoutesAhead(): Promise<void> {
  running ??= fetchMissing().finally(() => {
    running = null;
  });
  return running;
}

/** This build's file, if the routes ahead hold it. */
export async function aheadCopy(request: Request): Promise<Response | undefined> {
  return caches.match(request, { cacheName: AHEAD_CACHE });
}

/** Other builds' routes ahead (their files have other names): deleted as this worker activates. */
export async function forgetOtherBuildsAhead() {
  const keys = await caches.keys();
  await Promise.all(keys.filter((key) => AHEAD_CACHES.test(key) && key !== AHEAD_CACHE).map((key) => caches.delete(key)));
}

async function fetchMissing() {
  const missing: string[] = [];
  // Any of the worker's caches: the shell's precache, the files pages used, the routes ahead.
  for (const url of AHEAD_FILES) if (!(await caches.match(url))) missing.push(url);
  if (missing.length === 0) return;
  const cache = await caches.open(AHEAD_CACHE);
  for (let i = 0; i < missing.length; i += BATCH) {
    await quiet();
    // A newer build's worker waits for this one to finish: let it take over (it has its own list).
    if (browserSavesData(self.navigator) || self.registration.installing || self.registration.waiting) return;
    const fetched = await Promise.all(missing.slice(i, i + BATCH).map((url) => fetchInto(cache, url)));
    // No network (or the server refuses): stop; the next page load asks again.
    if (fetched.includes(false)) return;
  }
}

async function fetchInto(cache: Cache, url: string): Promise<boolean> {
  // The browser's HTTP cache answers a file it holds (they are cached for a year) without a download.
  // The files are the same for everyone: no cookie goes up with them (the uplink is the slow side).
  const request = new Request(url, { credentials: "omit", priority: "low" });
  const response = await fetch(request).catch(() => undefined);
  if (!response?.ok) return false;
  await cache.put(url, response);
  return true;
}

/** Resolves once no page has asked the worker for anything for QUIET_MS. */
async function quiet() {
  for (;;) {
    const wait = lastPageRequest + QUIET_MS - Date.now();
    if (wait <= 0) return;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

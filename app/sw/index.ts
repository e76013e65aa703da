import { clientsClaim } from "workbox-core";
import { CacheableResponsePlugin } from "workbox-cacheable-response";
import { ExpirationPlugin } from "workbox-expiration";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute, type PrecacheEntry } from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import { CacheFirst, NetworkFirst } from "workbox-strategies";
import type { RouteHandlerCallbackOptions } from "workbox-core/types";
import {
  answerEndsSession,
  answerWorthALook,
  DATA_PART,
  DOCUMENT_PART,
  isSignOut,
  olderDataRequest,
  pageOf,
  SAVED_AT_HEADER,
  VIEWER_HEADER,
  withSavedCopyNote,
  wholeDataRequest,
  type SavedCopyMessage,
  type SavePageMessage,
} from "../offline/saved-pages";
import { forgetPages, heardViewer, PAGES_CACHE, pageCachePlugins, pagesGeneration, savedCopy, sessionEnded } from "./saved-pages";
import { asksOnlyFor, manifestPaths, OPEN_SAVED_SCRIPT, openedFrom, openSavedScript, ROUTE_MANIFEST_CACHE } from "./open-saved-document";
import { openFromSavedData, openingFailed, routesForOpening } from "./open-saved";
import { forgetOutbox, listenForOutbox } from "./outbox";
import { isHuntDayPage, keepCard, keptCard } from "./hunt-day-card";
import { reloadDocumentAnswer } from "./single-fetch";
import { aheadCopy, fetchRoutesAhead, forgetOtherBuildsAhead, notePageRequest } from "./routes-ahead";
import { ROUTES_AHEAD_MESSAGE } from "../offline/routes-ahead-message";
import { forgetPushSubscription, listenForPush } from "./push";
import { listenForShares } from "./share-target";
import { SHARE_INBOX_CACHE } from "../offline/share-inbox";
import { ASSETS_PATH } from "../utils/assets-path";
import { isDataPath, pagePath } from "../utils/data-path";

/**
 * Whitetail Pulse's service worker (docs/decisions/0033-service-worker-saved-pages.md), bundled by
 * scripts/build-sw.ts after `remix build` and served at /sw.js?v=<build> (app/routes/sw[.]js.ts).
 *
 * - The shell is precached: the offline page, icon, web manifest, and this build's entry and root
 *   chunks and stylesheet (`self.__WB_MANIFEST`, filled in at build time).
 * - Other build assets are content-hashed: cache-first as they are used (route modules included,
 *   so a page seen before also runs offline). The code of the pages a member is likely to open next
 *   (the routes ahead, ./routes-ahead.ts) is fetched in the background after a page has loaded.
 * - Pages (navigations) and their loader data (single fetch's `/post/3.data`, what an in-app link
 *   fetches: every route's data in one answer; docs/decisions/0079) are network-first with a 3 s
 *   network timeout, kept per viewer (saved-pages.ts). A data request for some of a page's routes
 *   (`?_routes=`) may be answered offline from the page's data for all of them. A page read by
 *   tapping links (its data saved, no document) is opened on another page's saved document
 *   (open-saved.ts). A page nobody saw gets the offline page, whose "Try again" reloads the
 *   address asked for.
 * - A member's saved pages are shown offline only within 72 h of the last answer that confirmed
 *   their session; any answer the worker sees that says the session ended (an `/api` 401, a page or
 *   the sign-in page drawn for a visitor) forgets them at once (docs/decisions/0053, 0078).
 * - Nothing else is touched: files, media, other origins go to the network as usual; `/api` calls,
 *   the sign-in page and small form sends are passed through untouched, only looked at for a 401
 *   or their viewer.
 *
 * A new build's worker takes over at once; the page reloads once (app/offline/service-worker.ts).
 */

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: PrecacheEntry[] };

/** The shell, listed at build time. */
const precache = self.__WB_MANIFEST;
const OFFLINE_URL = "/offline.html";
/** This build's route manifest file (precached): every route, for opening a page from its saved data. */
const BUILD_MANIFEST = precache
  .map((entry) => (typeof entry === "string" ? entry : entry.url))
  .find((url) => url.startsWith(`${ASSETS_PATH}manifest-`) && url.endsWith(".js"));
/** How long a page waits for the network before a saved copy is shown instead. */
export const NETWORK_TIMEOUT_SECONDS = 3;
/** The hand-written worker's caches (pages-v1 held members' pages, /settings included). */
const RETIRED_CACHES = /^(pages-v1|assets-.*)$/;

/**
 * Loader data a build before single fetch saved (`?_data=` JSON): no page asks for it any more, and
 * this build's pages could not read it. Deleted as this worker takes over; the documents stay.
 */
async function forgetOlderData() {
  if (!(await caches.has(PAGES_CACHE))) return;
  const cache = await caches.open(PAGES_CACHE);
  for (const key of await cache.keys()) if (olderDataRequest(new URL(key.url))) await cache.delete(key);
}

self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(precache);

self.addEventListener("activate", (event) => {
  event.waitUntil(
    Promise.all([
      caches.keys().then((keys) => Promise.all(keys.filter((key) => RETIRED_CACHES.test(key)).map((key) => caches.delete(key)))),
      forgetOlderData(),
      forgetOtherBuildsAhead(),
    ]),
  );
});

// Whatever a page asks for (its document, data, scripts) holds back the routes ahead's next batch.
self.addEventListener("fetch", (event) => {
  if (event.clientId || event.resultingClientId) notePageRequest();
});

// Signing out forgets every saved page as the request leaves, whether or not the answer comes back
// (the answer also carries `Clear-Site-Data: "cache"` for the browser's own cache), and ends this
// browser's push subscription (the server drops it with the session; issue 26). The request itself
// goes to the network untouched. With JavaScript the sign-out form posts to `/logout.data`.
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (url.origin === self.location.origin && isSignOut(event.request.method, url.pathname)) {
    event.waitUntil(
      Promise.all([
        forgetPages(),
        forgetOutbox(),
        forgetPushSubscription(self.registration.pushManager),
        // A share still waiting for the create page (ADR 0092) is not left for the next person.
        caches.delete(SHARE_INBOX_CACHE),
      ]),
    );
  }
});

// Answers the worker looks at but never saves (`answerWorthALook`, docs/decisions/0078): `/api` reads
// and writes (a 401 says this device's session has ended: signed out elsewhere, expired), the
// sign-in page and its loader data (`/auth.data`), and a page's form sent with JavaScript (both name their viewer
// like every page: a member whose session ended elsewhere is a visitor now). Either forgets the
// member's saved pages before the page hears the answer, so whatever it does next finds nothing
// saved. No file is ever relayed (an upload's bytes go straight to the network, as before).
self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const worthALook = answerWorthALook({
    method: request.method,
    pathname: url.pathname,
    search: url.searchParams,
    navigate: request.mode === "navigate",
    contentType: request.headers.get("Content-Type"),
  });
  if (!worthALook) return;
  const started = pagesGeneration();
  event.respondWith(
    fetch(request).then(async (response) => {
      if (answerEndsSession(url.pathname, response.status)) await sessionEnded();
      const tag = response.headers.get(VIEWER_HEADER);
      if (tag) await heardViewer(tag, started);
      return response;
    }),
  );
});

// The outbox's Background Sync (./outbox.ts, docs/decisions/0034-outbox.md).
listenForOutbox();

// Web push: show what a push says and open its page on a tap (./push.ts, issue 26).
listenForPush();

// The manifest's share target: what a phone shares waits here and opens the create page (./share-target.ts, ADR 0092).
listenForShares();

self.addEventListener("message", (event) => {
  const message = event.data as { type?: string } | null;
  if (message?.type === "forget-pages") event.waitUntil(forgetPages());
  if (message?.type === ROUTES_AHEAD_MESSAGE) event.waitUntil(fetchRoutesAhead());
  if (message?.type === "save-page") event.waitUntil(savePage(event, message as SavePageMessage));
  if (message?.type === "saved-copy?" && event.source && "id" in event.source) {
    const answer = savedDocuments.get(event.source.id);
    savedDocuments.delete(event.source.id);
    if (answer) event.source.postMessage(answer);
  }
});

const assets = new CacheFirst({
  cacheName: "assets",
  plugins: [new CacheableResponsePlugin({ statuses: [200] }), new ExpirationPlugin({ maxEntries: 200, maxAgeSeconds: 30 * 24 * 60 * 60 })],
});
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith(ASSETS_PATH),
  async (options) => {
    try {
      return (await aheadCopy(options.request)) ?? (await assets.handle(options));
    } catch (error) {
      if (options.url.pathname.startsWith(`${ASSETS_PATH}routes/`)) return unreachableRouteModule();
      throw error;
    }
  },
);

/**
 * A route module this device never loaded, with no network. Remix would answer a failed import by
 * reloading the page the member is leaving, which looks like the link did nothing. This stand-in
 * loads, so Remix goes on to the loader data: a miss there sends the member to the page asked for
 * as a document (`reloadDocumentAnswer`), where they get its saved copy or the offline page. If the data
 * was saved after all, the page they asked for is reloaded shortly (the same outcome). Outside a
 * navigation (a page's own modules as it starts) the stand-in fails like the import would have:
 * the page as sent stays readable, without JavaScript.
 */
function unreachableRouteModule(): Response {
  const body = [
    // Loading a page's own modules (hydration, or a fetcher): fail as before, the page as sent stays.
    "const router = window.__reactRouterDataRouter;",
    'if (!router || router.state.navigation.state === "idle") throw new Error("This page was not saved on this device");',
    "export default function Unreachable() { return null; }",
    "setTimeout(() => location.reload(), 2000);",
  ].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store" } });
}

// React Router's route discovery (`/__manifest?paths=…&version=…`): the same for everyone, and needed for an
// in-app link to a seen page to work offline. A miss offline asks Remix to load the page as a
// document (which then gets its saved copy or the offline page), except for the page's own path
// and a page being opened from its saved data (./open-saved.ts).
const routeManifest = new NetworkFirst({
  cacheName: ROUTE_MANIFEST_CACHE,
  networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
  plugins: [new CacheableResponsePlugin({ statuses: [200] }), new ExpirationPlugin({ maxEntries: 50, maxAgeSeconds: 14 * 24 * 60 * 60 })],
});
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === "/__manifest",
  async (options) =>
    (await routeManifest.handle(options).catch(() => undefined)) ??
    // Before the own-page answer: the worker may still see the opening page under the address it asked for.
    routesForOpening((options.event as FetchEvent).clientId, manifestPaths(options.url)) ??
    (await nothingNewForOwnPage(options)) ??
    reloadDocument("/"),
);

// The script that opens a page from its saved data on another page's saved document (./open-saved.ts).
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === OPEN_SAVED_SCRIPT,
  async ({ url }) => {
    const from = openedFrom(url.searchParams.get("from"));
    return new Response(from ? openSavedScript(from) : "", {
      status: from ? 200 : 400,
      headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store" },
    });
  },
);

/**
 * Remix checks a dynamic path once before a form on it sends (a Follow on /profile/{name}). The
 * page already has its own routes, so with no network "nothing new" lets the send go on to the
 * outbox (ADR 0034); a reload in its place would drop what the member just did.
 */
async function nothingNewForOwnPage({ url, event }: RouteHandlerCallbackOptions): Promise<Response | undefined> {
  const client = await self.clients.get((event as FetchEvent).clientId);
  const paths = manifestPaths(url);
  if (!client || !asksOnlyFor(paths, new URL(client.url).pathname)) return undefined;
  return new Response("{}", { headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });
}

const pages = new NetworkFirst({
  cacheName: PAGES_CACHE,
  networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
  matchOptions: { ignoreVary: true },
  plugins: pageCachePlugins,
});

/**
 * The first page of a visit loaded before this worker controlled it: save it and the build files
 * it loaded (they come from the browser's cache), so it opens offline like any page seen later.
 */
async function savePage(event: ExtendableMessageEvent, { page, assets: files }: SavePageMessage) {
  const url = new URL(page, self.location.origin);
  if (url.origin !== self.location.origin || !isSitePage(url)) return;
  const saves: Promise<unknown>[] = [
    pages
      .handle({ event, request: new Request(url, { credentials: "same-origin" }) })
      .then((response) => (isHuntDayPage(url) ? keepCard(pageOf(url).page, response) : undefined)),
  ];
  for (const file of files.slice(0, 100)) {
    const asset = new URL(file, self.location.origin);
    if (asset.origin === self.location.origin && asset.pathname.startsWith(ASSETS_PATH))
      saves.push(assets.handle({ event, request: asset.href }));
  }
  await Promise.allSettled(saves);
}

/** The site's own pages (and their data): never `/api`, build files, media, sign-in or sign-out. */
function isSitePage(url: URL) {
  return url.origin === self.location.origin && !/^\/(api|assets|media|auth|logout)(\/|$)/.test(pagePath(url.pathname));
}

/** A page (a navigation) or its loader data (`/post/3.data`, what an in-app link fetches). */
function isPage({ url, request }: { url: URL; request: Request }) {
  return isSitePage(url) && (request.mode === "navigate" || isDataPath(url.pathname));
}

/**
 * A saved copy of a page's data for this request: its own, or else (a request for some of the
 * page's routes, `?_routes=`) the one for every route of the page, which holds theirs.
 */
async function savedData(request: Request, part: string): Promise<Response | undefined> {
  const own = await savedCopy(request);
  if (own || part === DOCUMENT_PART || part === DATA_PART) return own;
  return savedCopy(new Request(wholeDataRequest(new URL(request.url))));
}

registerRoute(isPage, async ({ event, request, url }: RouteHandlerCallbackOptions) => {
  const { page, part } = pageOf(url);
  let response = await pages.handle({ event, request }).catch(() => undefined);
  // A server error or a proxy's timeout is no better than no answer when a saved copy exists.
  if (response && (response.status >= 500 || response.status === 408) && !response.headers.has(SAVED_AT_HEADER)) {
    response = (await savedData(request, part)) ?? response;
  }
  if (!response && part !== DOCUMENT_PART && part !== DATA_PART) response = await savedData(request, part);
  // A member's hunt-day card from the network: keep the visitor-drawn copy for 14 days (./hunt-day-card.ts).
  if (response && isHuntDayPage(new URL(page, url))) (event as FetchEvent).waitUntil(keepCard(page, response).catch(() => undefined));
  if (!response && part === DOCUMENT_PART && isHuntDayPage(url)) {
    // Past the 72-hour bound the member's own copy is gone: the card drawn for a visitor, if kept.
    const card = await keptCard(page);
    if (card) {
      const savedAt = Number(card.headers.get(SAVED_AT_HEADER));
      tell(event as FetchEvent, { type: "saved-copy", page, part, savedAt });
      return notedCopy(card, savedAt);
    }
  }
  if (!response && part === DOCUMENT_PART) {
    // Read by tapping links, so its loader data is here but no document: open it on another's.
    const opened = await openFromSavedData(page, (event as FetchEvent).resultingClientId, BUILD_MANIFEST);
    if (!opened) return offlinePage();
    tell(event as FetchEvent, { type: "saved-copy", page: opened.from, part, savedAt: opened.savedAt });
    return opened.response;
  }
  if (!response) {
    openingFailed((event as FetchEvent).clientId);
    return reloadDocumentAnswer(page);
  }
  const saved = Number(response.headers.get(SAVED_AT_HEADER));
  tell(event as FetchEvent, { type: "saved-copy", page, part, savedAt: saved > 0 ? saved : null });
  return part === DOCUMENT_PART && saved > 0 ? notedCopy(response, saved) : response;
});

/** A saved document, with the "saved copy" note written in when the page has no scripts to draw it. */
async function notedCopy(response: Response, savedAt: number): Promise<Response> {
  if (!response.headers.get("Content-Type")?.startsWith("text/html")) return response;
  const html = await response.clone().text();
  const noted = withSavedCopyNote(html, savedAt, Date.now());
  if (noted === html) return response;
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  headers.delete("Content-Encoding");
  return new Response(noted, { status: response.status, statusText: response.statusText, headers });
}

async function offlinePage(): Promise<Response> {
  return (await matchPrecache(OFFLINE_URL)) ?? Response.error();
}

/**
 * Route discovery with no network and nothing kept: Remix is told to load `page` as a document
 * instead (its answer for a manifest of another build), so the member gets the page's saved copy or
 * the offline page with a "Try again" for that address. Loader data nobody saved gets the same, as
 * a single fetch redirect (./single-fetch.ts `reloadDocumentAnswer`).
 */
function reloadDocument(page: string): Response {
  return new Response(null, { status: 204, headers: { "X-Remix-Redirect": page, "X-Remix-Reload-Document": "true" } });
}

/** Documents drawn from a saved copy, by the client they became; the page asks once it runs. */
const savedDocuments = new Map<string, SavedCopyMessage>();

/** Let the page know whether what it is about to show came from a saved copy. */
function tell(event: FetchEvent, message: SavedCopyMessage) {
  if (message.part === DOCUMENT_PART) {
    if (message.savedAt === null || !event.resultingClientId) return;
    savedDocuments.set(event.resultingClientId, message);
    // A page that never asks (its scripts did not load) leaves nothing behind for long.
    setTimeout(() => savedDocuments.delete(event.resultingClientId), 60_000);
    return;
  }
  event.waitUntil(self.clients.get(event.clientId).then((client) => client?.postMessage(message)));
}

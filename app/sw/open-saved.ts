import { matchPrecache } from "workbox-precaching";
import { DATA_PART, DOCUMENT_PART, pageOf, SAVED_AT_HEADER } from "../offline/saved-pages";
import { PAGES_CACHE, savedCopy } from "./saved-pages";
import { routesOfData } from "./single-fetch";
import { asksOnlyFor } from "./open-saved-document";
import {
  buildVersionOf,
  parseBuildManifest,
  ROUTE_MANIFEST_CACHE,
  routesToOpen,
  withOpenScript,
  type DiscoveredRoute,
} from "./open-saved-document";

/**
 * Opening a page by its address (a reload, a typed or bookmarked address) with no signal, when the
 * member read it by tapping a link: the worker has the page's loader data (`/post/3.data`, every
 * route's in one answer) but no document of it (ux-2 N18, issue 31; docs/decisions/0033-service-
 * worker-saved-pages.md, 0079-single-fetch.md).
 *
 * The worker answers with another page's saved document (the newest one that runs the app) and a
 * small script of its own before the app's scripts: it puts that page's address back in the
 * address bar while the app starts on it, hides the page, then has the app navigate, in place, to
 * the address asked for, as a tapped link would. That navigation finds the route modules and the
 * loader data on the device, so the page appears with its "Saved copy from …" note; the address
 * bar ends on the page asked for.
 *
 * It is only tried when every part of that navigation is on the device (its routes, from this
 * build's precached manifest or a kept discovery answer; their modules; and the page's data for
 * every route, which the navigation asks for in one request: the routes it names are the ones
 * checked), so it cannot fall back into reloading itself; if it fails anyway, the next try for that
 * page is the offline page.
 */

/** Clients opened this way: the page they are opening and its routes (route discovery is answered from them). */
const opening = new Map<string, { page: string; routes: DiscoveredRoute[] }>();
/** Pages whose opening failed lately (ms): their next document miss gets the offline page. */
const failed = new Map<string, number>();
const FAILED_FOR_MS = 30_000;

/**
 * The routes of build `version` this device knows: all of them when it is this worker's build (its
 * manifest file is precached, `buildManifest`), and those of every route discovery answer kept.
 */
async function knownRoutes(version: string, buildManifest: string | undefined): Promise<Map<string, DiscoveredRoute>> {
  const routes = new Map<string, DiscoveredRoute>();
  const file = buildManifest ? await matchPrecache(buildManifest) : undefined;
  const own = file ? parseBuildManifest(await file.text()) : null;
  if (own?.version === version) for (const route of Object.values(own.routes)) routes.set(route.id, route);
  const cache = await caches.open(ROUTE_MANIFEST_CACHE);
  for (const key of await cache.keys()) {
    if (new URL(key.url).searchParams.get("version") !== version) continue;
    const answer = (await (await cache.match(key))?.json().catch(() => null)) as Record<string, DiscoveredRoute> | null;
    for (const route of Object.values(answer ?? {})) if (route && typeof route.id === "string") routes.set(route.id, route);
  }
  return routes;
}

/** The saved documents that may open another page (they run the app): newest first, read one at a time. */
async function* donors(page: string): AsyncGenerator<{ page: string; html: string; savedAt: number; version: string; headers: Headers }> {
  const cache = await caches.open(PAGES_CACHE);
  const copies = [];
  for (const key of await cache.keys()) {
    const of = pageOf(new URL(key.url));
    if (of.part !== DOCUMENT_PART || of.page === page) continue;
    const copy = await savedCopy(key);
    if (copy?.headers.get("Content-Type")?.startsWith("text/html"))
      copies.push({ page: of.page, copy, savedAt: Number(copy.headers.get(SAVED_AT_HEADER)) });
  }
  for (const { page: from, copy, savedAt } of copies.sort((a, b) => b.savedAt - a.savedAt)) {
    const html = await copy.text();
    const version = buildVersionOf(html);
    if (version) yield { page: from, html, version, savedAt, headers: copy.headers };
  }
}

/**
 * A document that opens `page` from its saved loader data, or undefined (no data, nothing to open
 * it on, or a part missing). `clientId` is the page it will become.
 */
export async function openFromSavedData(
  page: string,
  clientId: string,
  buildManifest: string | undefined,
): Promise<{ response: Response; from: string; savedAt: number } | undefined> {
  const failedAt = failed.get(page);
  if (failedAt !== undefined) {
    failed.delete(page);
    if (Date.now() - failedAt < FAILED_FOR_MS) return undefined;
  }
  const cache = await caches.open(PAGES_CACHE);
  const parts = new Set<string>();
  for (const key of await cache.keys()) {
    const of = pageOf(new URL(key.url));
    if (of.page !== page || of.part !== DATA_PART) continue;
    const copy = await savedCopy(key);
    for (const route of (copy && routesOfData(await copy.text())) ?? []) parts.add(route);
  }
  if (parts.size === 0) return undefined;
  for await (const donor of donors(page)) {
    const open = routesToOpen(parts, await knownRoutes(donor.version, buildManifest));
    if (!open) continue;
    const cached = await Promise.all(open.modules.map((file) => caches.match(file)));
    if (cached.some((answer) => !answer)) continue;
    const html = withOpenScript(donor.html, donor.page);
    if (!html) continue;
    if (clientId) opening.set(clientId, { page, routes: open.routes });
    const headers = new Headers(donor.headers);
    headers.delete("Content-Length");
    headers.delete("Content-Encoding");
    return { response: new Response(html, { status: 200, headers }), from: donor.page, savedAt: donor.savedAt };
  }
  return undefined;
}

/**
 * Route discovery for the page a client is opening (`paths` is just that page), with no network:
 * the routes found on the device when it was opened. Anything else: undefined.
 */
export function routesForOpening(clientId: string, paths: string[]): Response | undefined {
  const open = opening.get(clientId);
  if (!open || !asksOnlyFor(paths, new URL(open.page, "http://x").pathname)) return undefined;
  return new Response(JSON.stringify(Object.fromEntries(open.routes.map((route) => [route.id, route]))), {
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}

/** Loader data a client being opened asked for and the device lacks: don't try that page this way again soon. */
export function openingFailed(clientId: string) {
  const open = opening.get(clientId);
  if (open) failed.set(open.page, Date.now());
  opening.delete(clientId);
}

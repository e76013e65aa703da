import type { HeadersFunction } from "react-router";
import { pagePath } from "~/utils/data-path";
import { sentSessionToken } from "./session.server";

/**
 * Who may keep an answer (CONTRACT.md §6 "Validators and caching", security review L6). One rule,
 * applied in one place for every route: documents and loader data (single fetch's `.data` answers)
 * in entry.server.tsx, `/api/*` GETs in `apiLoader`.
 *
 * - A loader whose answer holds an email or an invite code declares it with `NO_STORE` (the settings
 *   page, /join/{code}, the invites tab, /api/auth/user, …): the page is `private, no-store`, whoever
 *   asks. A page route whose loader or action may do so also exports `headers = keepNoStore`, so
 *   its `.data` answer says it too (below). A route does not have to remember anything else.
 * - Otherwise a signed-in member's answer (or one that sets a cookie) is `private, no-cache`: the
 *   browser may keep it but asks again before each use, and no shared cache stores it.
 * - A visitor's successful answer may be kept by a shared cache (docs/decisions/0032-validators-and-
 *   shared-caching.md): `public, max-age=0, s-maxage=10, stale-while-revalidate=60`. The browser asks
 *   again each time (a 304 when nothing changed, conditional.server.ts); a reverse proxy answers from
 *   its copy for 10 s and serves it for a minute more while it fetches a new one. Any other answer of
 *   a visitor's (an error, a redirect) is `no-cache`.
 * - Every one of these answers varies with the Cookie header (visitor or member) and Save-Data.
 */

export const NO_STORE_VALUE = "private, no-store";
export const MEMBER_VALUE = "private, no-cache";
export const VISITOR_VALUE = "no-cache";
export const VISITOR_PUBLIC_VALUE = "public, max-age=0, s-maxage=10, stale-while-revalidate=60";
export const VARY_VALUE = "Cookie, Save-Data";

/**
 * Pages whose answer reads the Referer: the post page's "← Back" goes where the reader came from
 * (Beyond SPEC #5). Their validator covers the Referer and caches keep one copy per Referer.
 */
const READS_REFERER = /^\/post\/\d+\/?$/;
/** Does the answer to this path (a page's, or its `.data`: both are drawn for the same Referer) read the Referer? */
export const readsReferer = (path: string): boolean => READS_REFERER.test(pagePath(path));

/** The Vary of an answer to this path. */
export const varyFor = (path: string): string => (readsReferer(path) ? `${VARY_VALUE}, Referer` : VARY_VALUE);

/** `json(data, NO_STORE)`: this answer holds an email or an invite code. */
export const NO_STORE = { headers: { "Cache-Control": NO_STORE_VALUE } };

/**
 * The `headers` export of a page route whose loader or action may answer `NO_STORE` (docs/decisions/
 * 0079-single-fetch.md). With single fetch, a `.data` answer (what a link or a form sends with
 * JavaScript) carries only the headers that the matched routes' `headers` exports return (Remix's
 * getDocumentHeaders): a loader's own Cache-Control never reaches it, so without this export the
 * settings page's data, with the member's email, was answered `private, no-cache`. This passes on
 * `no-store` from the route's loader, action or error answer, and from the routes above it (a route
 * with a `headers` export starts afresh). Documents read every loader's headers themselves
 * (`declaredCacheControl`), so for them it changes nothing.
 */
export const keepNoStore: HeadersFunction = ({ loaderHeaders, actionHeaders, errorHeaders, parentHeaders }) => {
  const declared = [loaderHeaders, actionHeaders, errorHeaders, parentHeaders].map((headers) => headers?.get("Cache-Control"));
  const headers = new Headers();
  if (declared.some((value) => value && /\bno-store\b/i.test(value))) headers.set("Cache-Control", NO_STORE_VALUE);
  return headers;
};

/**
 * On a sign-out's answer: the browser drops what its HTTP cache holds for the site (the member's
 * `private, no-cache` pages, which Back would otherwise show). docs/decisions/0033.
 */
export const CLEAR_CACHE = { "Clear-Site-Data": '"cache"' };

/** The Cache-Control of an answer, from who asked and what the loaders declared. */
export function cacheControlFor(privateAnswer: boolean, declared: Iterable<string | null | undefined>, status = 200): string {
  for (const value of declared) if (value && /\bno-store\b/i.test(value)) return NO_STORE_VALUE;
  if (privateAnswer) return MEMBER_VALUE;
  return status === 200 ? VISITOR_PUBLIC_VALUE : VISITOR_VALUE;
}

/**
 * Set the answer's Cache-Control. `declared` are the Cache-Control values the answer's loaders set
 * (for a document, every matched route's; for JSON, the answer's own).
 */
export async function applyCacheControl(request: Request, headers: Headers, declared: Iterable<string | null | undefined>, status: number) {
  // A signed session token makes the answer private (an ended session counts: that errs on the
  // private side), as does an answer that sets a cookie.
  const privateAnswer = headers.has("Set-Cookie") || (await sentSessionToken(request));
  headers.set("Cache-Control", cacheControlFor(privateAnswer, declared, status));
  headers.set("Vary", varyFor(new URL(request.url).pathname));
}

/** The Cache-Control values the loaders and action of a document request set. */
export function declaredCacheControl(context: {
  loaderHeaders?: Record<string, Headers>;
  actionHeaders?: Record<string, Headers>;
}): (string | null)[] {
  const all = [...Object.values(context.loaderHeaders ?? {}), ...Object.values(context.actionHeaders ?? {})];
  return all.map((headers) => headers.get("Cache-Control"));
}

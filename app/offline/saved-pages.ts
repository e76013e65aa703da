import { isDataPath, pagePath } from "~/utils/data-path";
import { distance } from "~/utils/time-ago";

/**
 * What the service worker (app/sw/) and the page agree on about saved copies of pages
 * (docs/decisions/0033-service-worker-saved-pages.md). No worker or DOM globals: both sides import it.
 */

/** Set by the server on every document and loader-data (`.data`) answer: whose page this is (an opaque tag). */
export const VIEWER_HEADER = "X-Pulse-Viewer";
/** The viewer tag of a visitor (and of an ended session). */
export const VISITOR = "visitor";
/** Set by the worker on the copy it keeps: when it was saved (ms since the epoch). */
export const SAVED_AT_HEADER = "X-Pulse-Saved-At";
/** Set by the worker on the copy it keeps: the viewer it was drawn for. */
export const SAVED_FOR_HEADER = "X-Pulse-Saved-For";

/** Worker → page: this part of `page` came from the network (`savedAt` null) or from a copy saved then. */
export type SavedCopyMessage = { type: "saved-copy"; page: string; part: string; savedAt: number | null };
/** Page → worker: was this document drawn from a saved copy? (answered with a SavedCopyMessage). */
export type AskSavedCopyMessage = { type: "saved-copy?" };
/** Page → worker: save this page and the build files it loaded (before the worker controlled it). */
export type SavePageMessage = { type: "save-page"; page: string; assets: string[] };
/** Page → worker: forget every saved page (a member signed out). */
export type ForgetPagesMessage = { type: "forget-pages" };

/** The look of the "saved copy" note (components/layout/saved-copy-note.tsx, and the worker's for plain pages). */
export const SAVED_COPY_BADGE_CLASS = "inline-block rounded-full bg-bark-900/90 px-3 py-1 text-xs text-white shadow";

/** What the note says: "Saved copy from 5 minutes ago". */
export function savedCopyText(savedAt: number, now: number): string {
  return `Saved copy from ${distance(new Date(savedAt), new Date(now))} ago`;
}

/**
 * A document sent without the app's scripts (docs/decisions/0047) cannot draw the note itself: the
 * worker writes it into the copy it serves, in the empty status line every page carries. Any other
 * document is returned as it is (React draws its note, and a changed document would not hydrate).
 */
export function withSavedCopyNote(html: string, savedAt: number, now: number): string {
  if (!/<html[^>]*\sdata-scripts="none"/.test(html)) return html;
  const text = savedCopyText(savedAt, now).replace(/&/g, "&amp;").replace(/</g, "&lt;");
  return html.replace(
    /(<p\b[^>]*\bdata-testid="saved-copy-note"[^>]*>)(<\/p>)/,
    `$1<span class="${SAVED_COPY_BADGE_CLASS}">${text}</span>$2`,
  );
}

/** The part of a page a whole document is. */
export const DOCUMENT_PART = "document";
/**
 * The part of a page its data request for every route is (single fetch's `/post/3.data`, what a link
 * fetches). One that names its routes (`?_routes=root`, when a route kept its data) is that list.
 */
export const DATA_PART = "data";
/** Single fetch's list of the routes whose data a request asks for (none: every route of the page). */
export const ROUTES_PARAM = "_routes";

/**
 * Where the worker's opening script (sw/open-saved-document.ts) leaves, on another page's saved
 * document, the address to open there from its saved data: a property of `window` (not of the
 * document, which React draws anew when the saved copy does not hydrate as it is). The app reads
 * it once it has started (offline/open-saved-target.ts) and navigates with React Router's own API.
 */
export const OPEN_SAVED_TARGET = "__pulseOpenSaved";

/**
 * The page a request belongs to, as the address bar shows it, and which part of it the request is: a
 * data request (`/post/3.data`, `/_root.data?_routes=root`; docs/decisions/0079-single-fetch.md)
 * without its `.data`, Remix's `_routes` and a bare `index`.
 */
export function pageOf(url: URL): { page: string; part: string } {
  if (!isDataPath(url.pathname)) return { page: url.pathname + url.search, part: DOCUMENT_PART };
  const params = new URLSearchParams(url.search);
  const part = params.get(ROUTES_PARAM) || DATA_PART;
  params.delete(ROUTES_PARAM);
  if (params.getAll("index").every((value) => value === "")) params.delete("index");
  const search = params.toString();
  return { page: pagePath(url.pathname) + (search ? `?${search}` : ""), part };
}

/**
 * The data request for every route of the page a data request belongs to (`_routes` left out): its
 * saved answer holds the routes any narrower request asks for, and more, which Remix passes over.
 */
export function wholeDataRequest(url: URL): URL {
  const whole = new URL(url);
  whole.searchParams.delete(ROUTES_PARAM);
  return whole;
}

/** A loader-data request of the build before single fetch (`?_data=`): never answered from a saved copy again. */
export const olderDataRequest = (url: URL): boolean => url.searchParams.has("_data");

/** The oldest saved time among a page's parts, or null when every part came from the network. */
export function oldestSaved(parts: Map<string, number | null> | undefined): number | null {
  let oldest: number | null = null;
  for (const savedAt of parts?.values() ?? []) if (savedAt !== null && (oldest === null || savedAt < oldest)) oldest = savedAt;
  return oldest;
}

/**
 * How long a member's saved pages may be shown offline after the worker last heard, online, that
 * their session is live (docs/decisions/0053-saved-member-pages-need-a-live-session.md): a
 * Friday-to-Monday weekend in camp with no signal, with a margin. Past it the pages are forgotten,
 * so a shared device whose member was signed out elsewhere stops showing them.
 */
export const MEMBER_OFFLINE_HOURS = 72;

/**
 * May a member's saved pages still be shown, offline, at `now`? `confirmedAt` is when the worker
 * last saw an answer from the server for that member (ms, or null: never). A clock that went back
 * past the confirmation by more than the bound counts as unconfirmed too.
 */
export function sessionStillTrusted(confirmedAt: number | null, now: number): boolean {
  if (confirmedAt === null || !Number.isFinite(confirmedAt)) return false;
  return Math.abs(now - confirmedAt) <= MEMBER_OFFLINE_HOURS * 3_600_000;
}

/**
 * Does this answer from the server say the device's session has ended? A 401 from the JSON API,
 * except the sign-in call itself (a wrong pair says nothing about a session).
 */
export function answerEndsSession(pathname: string, status: number): boolean {
  return status === 401 && /^\/api\//.test(pathname) && !/^\/api\/auth\/login\/?$/.test(pathname);
}

/**
 * Is this request a sign-out (the page's form, `/logout`, or `/logout.data` with JavaScript; the
 * API's `/api/auth/logout`)? The worker forgets every saved page as it leaves.
 */
export function isSignOut(method: string, pathname: string): boolean {
  return method === "POST" && /^\/(api\/auth\/)?logout$/.test(pagePath(pathname));
}

/**
 * Which requests the worker passes to the network itself, without saving anything, to look at the
 * answer for a sign that this device's session ended (an `/api` 401, a viewer named `visitor`;
 * docs/decisions/0078): the pages and their loader data are looked at already (the page cache's
 * rules), so these are the rest that can say so.
 * - `/api` reads and the sign-in page (`/auth`) with its loader data (`/auth.data`): GET and HEAD,
 *   navigations too (a typed `/api` address, the data-export form, a member sent to sign in).
 * - A form sent from a page with JavaScript (an action's `.data` answer, or an older page's
 *   `?_data=`: a 401 there reloads nothing after it), only when its body is a small form or JSON:
 *   never a file (multipart), so no upload is streamed through the worker and its progress stays
 *   true. Never sign-out (forgotten as it leaves, and its `Clear-Site-Data` answer stays the
 *   browser's own), a form posted as a navigation (its answer is a redirect the worker cannot read)
 *   nor an `/api` write (the outbox's: relayed, its page and Background Sync sends raced
 *   differently; the page reports a 401 instead).
 */
export function answerWorthALook(request: {
  method: string;
  pathname: string;
  search: URLSearchParams;
  navigate: boolean;
  contentType: string | null;
}): boolean {
  const { method, search, navigate, contentType } = request;
  const pathname = pagePath(request.pathname);
  const api = /^\/api\//.test(pathname);
  if (method === "GET" || method === "HEAD") return api || /^\/auth(\/|$)/.test(pathname);
  const script = isDataPath(request.pathname) || search.has("_data");
  if (navigate || api || pathname === "/logout" || !script || contentType === null) return false;
  return /^\s*(application\/x-www-form-urlencoded|application\/json)\s*(;|$)/i.test(contentType);
}

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { isProduction } from "~/utils/env.server";
import { isBrowserLaunch, isCrossSite, isSafeMethod, SHARE_PATH } from "~/web/origin.server";
import { originOf } from "~/web/params.server";
import { BODY_TOO_LARGE, declaredBodyTooLarge, dropUnreadBodyAfter } from "~/web/request-body.server";

/**
 * The HTTP edge: what the server decides about a request before the app sees it, as the server's
 * second middleware (node-server.server.ts; docs/decisions/0003-csrf-origin-check.md,
 * 0014-http-edge.md, 0073-a-server-of-our-own.md). One place, every route:
 *
 * - a request target that is not a path (absolute form `GET http://…`, `OPTIONS *`) is 400, and so is
 *   a `Host` that is not a host name (either would otherwise throw while the request is built);
 * - an `/api/*` path with broken percent-encoding is a JSON 400 (express answers an HTML page), and a
 *   NUL byte anywhere in the path or query is a 400 (PostgreSQL refuses it in text);
 * - a body whose declared length is over its cap is a JSON 413 (request-body.server.ts), and what a
 *   handler leaves unread is dropped, never buffered;
 * - a cross-site non-GET request is a JSON 403 (for a page, Remix's own check would answer an empty
 *   500 before any action runs). Actions keep their own check (withPageErrors/apiAction), which is
 *   what the route-level tests exercise. The exception is a POST whose address is its whole
 *   credential (`TOKEN_POSTS`): a mail client's one-click unsubscribe (RFC 8058) comes from its
 *   provider, with no cookie and perhaps the provider's Origin, which the app's request goes without
 *   (`isTokenPost`). Nor is the share target's POST when the browser itself started it from another
 *   app's share sheet (`isShareLaunch`, ADR 0092): it carries `Origin: null` or none, and
 *   `Sec-Fetch-Site: none`, which no page can send;
 * - every answer gets the headers of `edgeHeaders`.
 * The 304s, the visitor cache and the peer address come later, in node-server.server.ts.
 */

type EdgeRequest = { method?: string; url?: string; headers: IncomingHttpHeaders };
export type EdgeRefusal = { status: 400 | 403 | 413; error: string };

const API_PATH = /^\/api(\/|$)/;
/** A NUL byte in a request target, percent-encoded or (from a lax client) as it is. */
const NUL = /%00|\0/i;
/** Posts authorized by a signed token in the path, never by a cookie: another site may send them. */
const TOKEN_POSTS = /^\/unsubscribe\/[^/]+$/;

/** Headers for every answer: `nosniff` on the JSON surface, HSTS in production. */
export function edgeHeaders(path: string, production = isProduction): Record<string, string> {
  const headers: Record<string, string> = {};
  // Documents and /media set nosniff themselves; the JSON surface gets it here, errors included.
  if (API_PATH.test(path)) headers["X-Content-Type-Options"] = "nosniff";
  // Browsers ignore it over plain http; behind TLS it keeps members on https for a year.
  if (production) headers["Strict-Transport-Security"] = "max-age=31536000";
  return headers;
}

/** What the edge answers itself, or null to let the request through. */
export function edgeRefusal(req: EdgeRequest): EdgeRefusal | null {
  // `GET http://host/path` (absolute form, meant for proxies) and `OPTIONS *` are legal HTTP/1.1, but
  // this server serves paths: Remix would glue the target onto the host and throw (security-2 N17).
  if (!(req.url ?? "/").startsWith("/")) return { status: 400, error: "The request target must be a path" };
  const host = req.headers.host;
  if (typeof host !== "string" || originOf("http", host) === null) {
    return { status: 400, error: "The Host header is not a host name" };
  }
  const path = pathOf(req);
  if (API_PATH.test(path) && !decodes(path)) return { status: 400, error: "The address has a broken percent-encoding" };
  // PostgreSQL refuses a NUL in text: a route or query value holding one answered 500 there (and
  // 200/404 on SQLite; security-3 P9). No address of ours has one, so it is refused on both engines.
  if (NUL.test(req.url ?? "")) return { status: 400, error: "The address has a NUL character" };
  if (!isSafeMethod(req.method ?? "GET") && !TOKEN_POSTS.test(path) && !isShareLaunch(req) && isCrossSite(probe(req)))
    return { status: 403, error: "Cross-site request refused" };
  if (declaredBodyTooLarge(req.headers)) return { status: 413, error: BODY_TOO_LARGE };
  return null;
}

/**
 * The edge as the server's second middleware (node-server.server.ts): what a handler leaves unread
 * is dropped after the answer, every answer gets `edgeHeaders`, and a refusal is answered here.
 */
export function httpEdge(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  dropUnreadBodyAfter(req, res);
  let refusal: EdgeRefusal | null;
  try {
    for (const [name, value] of Object.entries(edgeHeaders(pathOf(req)))) res.setHeader(name, value);
    refusal = edgeRefusal(req);
  } catch {
    refusal = { status: 400, error: "The request could not be read" };
  }
  if (!refusal) return next();
  res.writeHead(refusal.status, {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
    Connection: "close",
  });
  res.end(JSON.stringify({ error: refusal.error }));
}

/**
 * A POST to a `TOKEN_POSTS` address may come from another site (a mail provider's one-click
 * unsubscribe): its Origin says nothing the token does not, and Remix's own cross-site check would
 * answer it with an empty 500 before the action runs, so the app's request goes without it
 * (node-server.server.ts `fetchRequest`). The route reads no cookie.
 */
export function isTokenPost(req: EdgeRequest): boolean {
  return !isSafeMethod(req.method ?? "GET") && TOKEN_POSTS.test(pathOf(req));
}

/**
 * The share target's POST opened by the browser from another app's share sheet (origin.server.ts
 * `isBrowserLaunch`, docs/decisions/0092-share-target.md): not cross-site, and its opaque Origin,
 * which would make Remix refuse it before the action runs, is left out of the app's request.
 */
export function isShareLaunch(req: EdgeRequest): boolean {
  if (isSafeMethod(req.method ?? "GET") || pathOf(req) !== SHARE_PATH) return false;
  const headers = new Headers();
  for (const name of ["origin", "sec-fetch-site"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  return isBrowserLaunch(headers);
}

function pathOf(req: EdgeRequest): string {
  return (req.url ?? "/").split("?")[0] ?? "/";
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** The request as the CSRF check reads it: only the headers it looks at. */
function probe(req: EdgeRequest): Request {
  const headers = new Headers();
  for (const name of ["origin", "referer", "host", "x-forwarded-proto"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  return new Request("http://localhost/", { method: "POST", headers });
}

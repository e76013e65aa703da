import { env } from "~/utils/env.server";
import { AppError } from "~/utils/errors";

/**
 * What a request says about itself, read once here so every route reads it the same way.
 */

/** A numeric route id: `/post/abc`, `/clubs/0`, `/api/posts/1e3` are a 404, never a crash. */
export function idParam(value: string | undefined, notFoundMessage = "Not found"): number {
  if (!value || !/^[1-9][0-9]{0,15}$/.test(value)) throw new AppError(404, notFoundMessage);
  return Number(value);
}

/**
 * The entry a chain of `trustProxy` reverse proxies vouches for in a comma-separated forwarding
 * header (`X-Forwarded-Proto`, `X-Forwarded-For`): the Nth from the right, since each proxy appends
 * and anything further left came from the client. With no trusted proxy, none. A list shorter than
 * N (proxies that replace the header rather than append) gives its leftmost entry.
 */
export function forwardedBy(header: string | null, trustProxy: number): string | undefined {
  if (trustProxy <= 0 || !header) return undefined;
  const entries = header.split(",").map((entry) => entry.trim());
  return entries[Math.max(0, entries.length - trustProxy)] || undefined;
}

/**
 * The site's origin (scheme, host, port) as a visitor sees it: for links members copy (share,
 * invites) and for the CSRF check. The host always comes from `Host`, which proxies pass on;
 * `X-Forwarded-Host` is never trusted (any client can send it, and a link built from it would point
 * members at someone else's site). The scheme is the request's own, or, behind `TRUST_PROXY`
 * TLS-terminating proxies (CONTRACT.md §6), the `X-Forwarded-Proto` they set.
 */
export function publicOrigin(request: Request, trustProxy = env.TRUST_PROXY): string {
  const url = new URL(request.url);
  const forwarded = forwardedBy(request.headers.get("X-Forwarded-Proto"), trustProxy)?.toLowerCase();
  const proto = forwarded === "https" || forwarded === "http" ? forwarded : url.protocol.replace(":", "");
  return originOf(proto, request.headers.get("Host") ?? url.host) ?? url.origin;
}

/** `proto://host` as a normalised origin, or null when `host` is not a host (a path, a user, spaces…). */
export function originOf(proto: string, host: string): string | null {
  if (!host || /[/\\?#@\s]/.test(host)) return null;
  try {
    return new URL(`${proto}://${host}`).origin;
  } catch {
    return null;
  }
}

/**
 * Did the browser's JavaScript send this request (a Remix fetcher or a client navigation), rather
 * than a plain HTML form post or link? Remix strips its `?_data=` marker from `request.url` before a
 * loader or action runs, so the URL cannot tell. Browsers label every request instead: a form post
 * or link is `Sec-Fetch-Mode: navigate`, a fetch() is `cors` / `same-origin`. Without the header
 * (curl, very old browsers) the request is treated as a plain form post: it gets the redirect, which
 * a fetcher also handles (by navigating), so nothing breaks.
 */
export function isScriptRequest(request: Request): boolean {
  const mode = request.headers.get("Sec-Fetch-Mode");
  return mode !== null && mode !== "navigate";
}

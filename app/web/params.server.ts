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
 * The site's address as a visitor sees it, for links members copy (share, invites). Behind a
 * TLS-terminating proxy the scheme comes from the first `X-Forwarded-Proto`; the host always comes
 * from `Host`, which the proxy passes on. `X-Forwarded-Host` is never trusted: any client can send
 * it, and a link built from it would point members at someone else's site.
 */
export function publicOrigin(request: Request): string {
  const url = new URL(request.url);
  const forwarded = request.headers.get("X-Forwarded-Proto")?.split(",")[0]?.trim().toLowerCase();
  const proto = forwarded === "https" || forwarded === "http" ? forwarded : url.protocol.replace(":", "");
  const host = request.headers.get("Host") ?? url.host;
  return `${proto}://${host}`;
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

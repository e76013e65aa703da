import { forbidden } from "~/utils/errors";
import { publicOrigin } from "./params.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/**
 * CSRF defence (CONTRACT.md §2, docs/decisions/0003-csrf-origin-check.md, 0014): a state-changing
 * request whose Origin (or, lacking it, Referer) is another origin (scheme, host and port) than the
 * site's as the visitor sees it (`publicOrigin`: `Host`, never `X-Forwarded-Host`; the scheme from
 * `X-Forwarded-Proto` only behind `TRUST_PROXY` proxies) is refused. A request with neither header
 * (curl, server-to-server) is not a browser cross-site request and passes; SameSite=Lax keeps the
 * session cookie off cross-site sub-requests as a second layer.
 */
export function isCrossSite(request: Request, trustProxy?: number): boolean {
  if (isSafeMethod(request.method)) return false;
  const source = request.headers.get("Origin") ?? request.headers.get("Referer");
  if (!source) return false;
  if (source === "null") return true;
  let sourceOrigin: string;
  try {
    sourceOrigin = new URL(source).origin;
  } catch {
    return true;
  }
  return sourceOrigin !== publicOrigin(request, trustProxy);
}

export function assertSameOrigin(request: Request): void {
  if (isCrossSite(request)) throw forbidden("Cross-site request refused");
}

/** The share target's address (the web app manifest's `share_target.action`, ADR 0092). */
export const SHARE_PATH = "/share";

/**
 * A POST the browser started itself, not a page: `Sec-Fetch-Site: none` (which no page can set), with
 * no Origin or an opaque one (`null`). That is how an installed app's share target is opened from
 * another app's share sheet (docs/decisions/0092-share-target.md); a cross-site page's form says
 * `Sec-Fetch-Site: cross-site` and its own Origin, and stays refused.
 */
export function isBrowserLaunch(headers: Headers): boolean {
  const origin = headers.get("Origin");
  return headers.get("Sec-Fetch-Site") === "none" && (origin === null || origin === "null");
}

/** The share target's cross-site check: same-site as ever, or launched by the browser itself. */
export function isCrossSiteShare(request: Request, trustProxy?: number): boolean {
  return !isBrowserLaunch(request.headers) && isCrossSite(request, trustProxy);
}

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

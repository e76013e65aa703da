import { forbidden } from "./errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF defence (CONTRACT.md §2, docs/decisions/0003-csrf-origin-check.md): a state-changing request
 * whose Origin (or, lacking it, Referer) names another host is refused. Hosts are compared rather than
 * full origins so a TLS-terminating proxy in front of the app does not trip it. A request with neither
 * header (curl, server-to-server) is not a browser cross-site request and passes; SameSite=Lax keeps
 * the session cookie off cross-site sub-requests as a second layer.
 */
export function isCrossSite(request: Request): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  const source = request.headers.get("Origin") ?? request.headers.get("Referer");
  if (!source) return false;
  if (source === "null") return true;
  let sourceHost: string;
  try {
    sourceHost = new URL(source).host;
  } catch {
    return true;
  }
  const host = request.headers.get("X-Forwarded-Host") ?? request.headers.get("Host") ?? new URL(request.url).host;
  return sourceHost.toLowerCase() !== host.toLowerCase();
}

export function assertSameOrigin(request: Request): void {
  if (isCrossSite(request)) throw forbidden("Cross-site request refused");
}

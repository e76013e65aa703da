import { forbidden } from "~/utils/errors";
import { publicOrigin } from "./params.server";

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
  // The site's host by the one rule every link uses (publicOrigin): Host, never X-Forwarded-Host.
  const host = new URL(publicOrigin(request)).host;
  return sourceHost.toLowerCase() !== host.toLowerCase();
}

export function assertSameOrigin(request: Request): void {
  if (isCrossSite(request)) throw forbidden("Cross-site request refused");
}

/**
 * remix-serve gives the app no middleware hook, and for a cross-site POST to a page Remix's own
 * check answers an empty 500 before any action runs. CONTRACT.md §2 wants a 403 for every
 * cross-site non-GET request, so the guard also sits in front of the HTTP server's request event:
 * one place, every route, before Remix or express see the request
 * (docs/decisions/0003-csrf-origin-check.md). Actions keep their own check (withPageErrors/apiAction),
 * which is what the route-level tests exercise.
 */
export async function installHttpOriginGuard() {
  const http = await import("node:http");
  const proto = http.Server.prototype as unknown as { emit: (event: string, ...args: unknown[]) => boolean; __originGuard?: boolean };
  if (proto.__originGuard) return;
  proto.__originGuard = true;
  const emit = proto.emit;
  proto.emit = function guardedEmit(this: unknown, event: string, ...args: unknown[]) {
    if (event === "request") {
      const [req, res] = args as [import("node:http").IncomingMessage, import("node:http").ServerResponse];
      const headers = new Headers();
      for (const name of ["origin", "referer", "host"]) {
        const value = req.headers[name];
        if (typeof value === "string") headers.set(name, value);
      }
      const probe = new Request(`http://${req.headers.host ?? "localhost"}/`, { method: "POST", headers });
      if (req.method && !SAFE_METHODS.has(req.method.toUpperCase()) && isCrossSite(probe)) {
        res.writeHead(403, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
        res.end(JSON.stringify({ error: "Cross-site request refused" }));
        req.resume();
        return true;
      }
    }
    return emit.call(this, event, ...args);
  };
}

import http from "node:http";
import { env } from "~/utils/env.server";

/**
 * How long the HTTP server waits for a slow client (security review L14,
 * docs/decisions/0023-slow-client-timeouts.md). Node makes a server with its defaults
 * (headers 60 s, a whole request 300 s, no idle limit), so a few hundred clients dripping a byte at a
 * time hold it for minutes. The limits:
 *
 * - `headersMs`: the request line and headers must arrive within this (Node's `headersTimeout`);
 * - `requestMs`: the body of an ordinary request (JSON, forms) must be complete within this after the
 *   headers, else 408 and the connection is closed;
 * - `uploadMs`: the hard bound for any request, uploads (multipart, tus chunks) included (Node's `requestTimeout`):
 *   a 50 MB photo over a 200 kbit/s rural uplink takes about 35 minutes, so uploads get a long total;
 * - `idleMs`: a connection where no byte moves either way for this long is closed (Node's socket
 *   timeout). This is what ends a stalled upload, and a client that stops reading an answer;
 * - `keepAliveMs`: how long an idle kept-alive connection waits for its next request.
 */
export type ServerTimeouts = {
  headersMs: number;
  requestMs: number;
  uploadMs: number;
  idleMs: number;
  keepAliveMs: number;
};

export const timeoutsFromEnv = (): ServerTimeouts => ({
  headersMs: env.HEADERS_TIMEOUT_MS,
  requestMs: env.REQUEST_TIMEOUT_MS,
  uploadMs: env.UPLOAD_TIMEOUT_MS,
  idleMs: env.IDLE_TIMEOUT_MS,
  keepAliveMs: env.KEEP_ALIVE_TIMEOUT_MS,
});

/**
 * An upload gets `uploadMs`: a multipart form, or a chunk of a resumable (tus) upload — a `PATCH` of
 * `application/offset+octet-stream` to `/api/uploads/…`, up to a few MB over the same slow links
 * (security-2 N9).
 */
export function isUpload(req: Pick<http.IncomingMessage, "method" | "url" | "headers">): boolean {
  const type = req.headers["content-type"] ?? "";
  if (/^multipart\/form-data\b/i.test(type)) return true;
  return req.method === "PATCH" && /^\/api\/uploads\/[^/?]+/.test(req.url ?? "") && /^application\/offset\+octet-stream\b/i.test(type);
}

/** Apply the limits to one server. Call before it listens (the expiry check starts on `listening`). */
export function applyServerTimeouts(server: http.Server, t: ServerTimeouts) {
  server.headersTimeout = t.headersMs;
  server.requestTimeout = t.uploadMs;
  server.keepAliveTimeout = t.keepAliveMs;
  server.timeout = t.idleMs;
  // Node checks headersTimeout and requestTimeout on this interval (30 s by default, which would
  // let a dripping client stay up to 30 s past its limit).
  const interval = Math.min(t.headersMs, t.uploadMs) / 4;
  (server as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = Math.max(100, Math.min(1_000, interval));
  server.prependListener("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.complete || isUpload(req)) return;
    const timer = setTimeout(() => {
      if (req.complete) return;
      if (res.headersSent) {
        req.socket.destroy();
        return;
      }
      res.writeHead(408, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", Connection: "close" });
      res.end(JSON.stringify({ error: "The request took too long to arrive" }), () => req.socket.destroy());
    }, t.requestMs);
    timer.unref();
    const clear = () => clearTimeout(timer);
    req.once("end", clear);
    res.once("close", clear);
  });
}

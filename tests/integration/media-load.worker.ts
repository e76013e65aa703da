/**
 * A server process for tests/integration/media-work.test.ts: an HTTP server on 127.0.0.1 (a port
 * the system picks) in front of the real route modules `POST /api/upload` and
 * `GET /api/posts/trending`, with its own SQLite connection (DATABASE_PATH and UPLOAD_DIR from the
 * parent). Image work runs in this process, as it does in remix-serve, so a stalled event loop
 * shows in the trending answers' times. It signs two members up and prints one JSON line
 * `{"port":n,"cookie":"…","otherCookie":"…"}`; it exits when its stdin closes (the parent ended).
 * Like remix-serve, it closes a connection idle for IDLE_TIMEOUT_MS, and a request's signal aborts
 * when its client is gone; `/test/hold` and `/test/release` hold the image queue for a test.
 *
 *   node --import tsx tests/integration/media-load.worker.ts
 */
import http from "node:http";
import { Readable } from "node:stream";
import { action as uploadAction } from "~/routes/api.upload";
import { loader as trendingLoader } from "~/routes/api.posts.trending";
import { env } from "~/utils/env.server";
import { imageQueue, IMAGE_QUEUE } from "~/utils/media/media-processing.server";
import { createMember, routeArgs } from "#tests/fixtures/members";

/** Test controls: `POST /test/hold` takes every running place of the image queue until `POST /test/release`. */
let release: (() => void) | null = null;
function control(url: string): unknown {
  if (url === "/test/hold" && !release) {
    const gate = new Promise<void>((resolve) => (release = resolve));
    for (let i = 0; i < IMAGE_QUEUE.concurrency; i++) void imageQueue.run(() => gate, { key: `test-gate:${i}`, maxWaitMs: Infinity });
  } else if (url === "/test/release") {
    release?.();
    release = null;
  }
  return imageQueue.load;
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  if (req.url?.startsWith("/test/")) {
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(control(req.url)));
    return;
  }
  // As @remix-run/express does: the request's signal aborts when the answer can no longer be sent.
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  try {
    const body = req.method === "POST" ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body,
      duplex: "half",
      signal: controller.signal,
    } as RequestInit);
    const handler = req.url === "/api/upload" ? uploadAction : trendingLoader;
    const response = (await handler(routeArgs(request))) as Response;
    const retryAfter = response.headers.get("Retry-After");
    res.writeHead(response.status, {
      "Content-Type": response.headers.get("Content-Type") ?? "text/plain",
      ...(retryAfter ? { "Retry-After": retryAfter } : {}),
    });
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
}

const server = http.createServer((req, res) => void handle(req, res));

// The idle timeout remix-serve's server gets (server-timeouts.server.ts): a connection where no byte moves is closed.
server.timeout = env.IDLE_TIMEOUT_MS;

const member = await createMember();
const other = await createMember();
server.listen(0, "127.0.0.1", () => {
  const address = server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ port: address.port, cookie: member.cookie, otherCookie: other.cookie })}\n`);
});
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();

/**
 * A server process for tests/integration/media-work.test.ts: an HTTP server on 127.0.0.1 (a port
 * the system picks) in front of the real route modules `POST /api/upload` and
 * `GET /api/posts/trending`, with its own SQLite connection (DATABASE_PATH and UPLOAD_DIR from the
 * parent). Image work runs in this process, as it does in remix-serve, so a stalled event loop
 * shows in the trending answers' times. It signs a member up and prints one JSON line
 * `{"port":n,"cookie":"…"}`; it exits when its stdin closes (the parent ended).
 *
 *   node --import tsx tests/integration/media-load.worker.ts
 */
import http from "node:http";
import { Readable } from "node:stream";
import { action as uploadAction } from "~/routes/api.upload";
import { loader as trendingLoader } from "~/routes/api.posts.trending";
import { createMember } from "#tests/fixtures/members";

const server = http.createServer(async (req, res) => {
  try {
    const body = req.method === "POST" ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body,
      duplex: "half",
    } as RequestInit);
    const handler = req.url === "/api/upload" ? uploadAction : trendingLoader;
    const response = (await handler({ request, params: {}, context: {} })) as Response;
    res.writeHead(response.status, { "Content-Type": response.headers.get("Content-Type") ?? "text/plain" });
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
});

const member = await createMember();
server.listen(0, "127.0.0.1", () => {
  const address = server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ port: address.port, cookie: member.cookie })}\n`);
});
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();

import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyServerTimeouts, type ServerTimeouts } from "./server-timeouts.server";

/**
 * Issue 11, "Slow clients" (security review L14): dripping clients are closed within the limits and a
 * normal request still answers. A plain http server given the limits as the site's server is
 * (node-server.server.ts `startServer`), small limits, 127.0.0.1 only; the test takes a few seconds.
 */

const LIMITS: ServerTimeouts = { headersMs: 600, requestMs: 800, uploadMs: 3_000, idleMs: 1_200, keepAliveMs: 500 };

let server: http.Server;
let port: number;

beforeAll(async () => {
  // Like the app: read the whole body, then answer.
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.end("ok"));
  });
  applyServerTimeouts(server, LIMITS);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

type Drip = { closedAt: Promise<number>; answer: () => string; stop: () => void };

/** A client that sends `head` and then one byte of `drip` every 200 ms (or nothing, when `drip` is empty). */
function dripper(head: string, drip: string, start: number): Drip {
  const socket = net.connect({ host: "127.0.0.1", port });
  let answer = "";
  socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
  socket.on("error", () => undefined);
  socket.write(head);
  let i = 0;
  const timer = drip ? setInterval(() => socket.writable && socket.write(drip[i++ % drip.length]!), 200) : undefined;
  const closedAt = new Promise<number>((resolve) =>
    socket.on("close", () => {
      clearInterval(timer);
      resolve(Date.now() - start);
    }),
  );
  return { closedAt, answer: () => answer, stop: () => (clearInterval(timer), socket.destroy()) };
}

function get(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, agent: false }, (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

describe("slow clients", () => {
  it("the limits are applied to a server when it starts listening", () => {
    expect(server.headersTimeout).toBe(LIMITS.headersMs);
    expect(server.requestTimeout).toBe(LIMITS.uploadMs);
    expect(server.keepAliveTimeout).toBe(LIMITS.keepAliveMs);
    expect(server.timeout).toBe(LIMITS.idleMs);
  });

  it("closes dripping headers, dripping bodies and stalled uploads; a steady upload may take longer; others are served", async () => {
    const start = Date.now();
    const headers = Array.from({ length: 150 }, () => dripper("GET / HTTP/1.1\r\nHost: x\r\n", "X-Drip: 1\r\n", start));
    const bodies = Array.from({ length: 30 }, () =>
      dripper("POST /api/posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n", "{", start),
    );
    const multipart =
      "POST /create HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 50000000\r\n\r\n--b\r\n";
    // A resumable (tus) chunk is an upload too (security-2 N9): slow links must not cut it at 30 s.
    const tusChunk =
      "PATCH /api/uploads/abc HTTP/1.1\r\nHost: x\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n" +
      "Content-Type: application/offset+octet-stream\r\nContent-Length: 5000000\r\n\r\n";
    const uploads = [
      ...Array.from({ length: 5 }, () => dripper(multipart, "x", start)),
      ...Array.from({ length: 3 }, () => dripper(tusChunk, "x", start)),
    ];
    const stalled = Array.from({ length: 5 }, () => dripper(multipart, "", start));
    try {
      // While they hang on, an ordinary request is answered.
      const normal = await get("/");
      expect(normal).toEqual({ status: 200, body: "ok" });

      const closed = async (drips: Drip[]) => Promise.all(drips.map((d) => d.closedAt));
      // Headers: 0.6 s; plain bodies: 0.8 s after their headers; stalled uploads: 1.2 s idle.
      // The bounds are generous (a loaded CI machine); Node's defaults would hold them 60–300 s.
      expect(Math.max(...(await closed(headers)))).toBeLessThan(4_000);
      expect(Math.max(...(await closed(bodies)))).toBeLessThan(4_000);
      expect(bodies.every((b) => b.answer().startsWith("HTTP/1.1 408"))).toBe(true);
      expect(Math.max(...(await closed(stalled)))).toBeLessThan(4_000);

      // A steady upload outlives the ordinary request limit, and ends at the upload limit.
      const uploadClosed = await closed(uploads);
      expect(Math.min(...uploadClosed)).toBeGreaterThan(LIMITS.requestMs + 600);
      expect(Math.max(...uploadClosed)).toBeLessThan(7_000);

      expect(await get("/")).toEqual({ status: 200, body: "ok" });
    } finally {
      for (const d of [...headers, ...bodies, ...uploads, ...stalled]) d.stop();
    }
  });
});

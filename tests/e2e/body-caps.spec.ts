import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { declareOnly } from "../fixtures/http";
import { expect, test } from "./fixtures";
import { SERVER_BUILD } from "../../scripts/build-dirs";

/**
 * CONTRACT.md §6, issue 11 (security.md H1): three parallel 200 MB chunked bodies to
 * /api/auth/login, /auth and a post page, from a visitor, raise the server's memory by well under
 * 250 MB and are answered 413/400 (or cut off) within seconds. The built server is started on its
 * own port and database so its RSS can be read from /proc. The test stops by itself: a request
 * ends when answered or cut off, after 8 s at the latest, and all of them are abandoned as soon as
 * the server grows by the limit.
 */

const MB = 1024 * 1024;
const BODY_BYTES = 200 * MB;
const RSS_LIMIT = 250 * MB;
const ANSWER_WITHIN_MS = 8_000;

function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) * 1024;
}

type Outcome = { path: string; status: number | "cut off" | "no answer"; sent: number; ms: number; openAfterAnswerMs?: number };

/**
 * POST a chunked body of `total` bytes, made as it is written, until the server answers or cuts it
 * off; with `keepSending`, go on writing after the answer until the server closes the connection.
 */
function sendChunked(
  port: number,
  target: string,
  [contentType, head]: readonly [string, string],
  total: number,
  { abort, keepSending = false }: { abort: AbortSignal; keepSending?: boolean },
) {
  return new Promise<Outcome>((resolve) => {
    const started = Date.now();
    let sent = 0;
    let done = false;
    let answer: { status: number; at: number } | undefined;
    const req = http.request({
      host: "127.0.0.1",
      port,
      path: target,
      method: "POST",
      headers: { "Content-Type": contentType, "Transfer-Encoding": "chunked" },
    });
    const finish = (status: Outcome["status"]) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      const outcome: Outcome = { path: target, status: answer?.status ?? status, sent, ms: Date.now() - started };
      if (answer) outcome.openAfterAnswerMs = Date.now() - answer.at;
      resolve(outcome);
    };
    const timer = setTimeout(() => finish("no answer"), ANSWER_WITHIN_MS);
    abort.addEventListener("abort", () => finish("no answer"));
    req.on("response", (res) => {
      res.resume();
      answer = { status: res.statusCode ?? 0, at: Date.now() };
      if (!keepSending) finish(answer.status);
    });
    req.on("error", () => finish("cut off"));
    req.on("close", () => finish("cut off"));
    const filler = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      while (!done && sent < total) {
        const piece = sent === 0 ? Buffer.from(head) : filler;
        sent += piece.byteLength;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      if (!done) req.end();
    };
    pump();
  });
}

test.describe("request bodies are capped while they stream", () => {
  // One server on a fixed port for the whole describe: its tests share one worker, never two
  // workers each starting a server on the same port.
  test.describe.configure({ mode: "serial" });
  test.skip(({ js }) => js, "no browser involved: run once");
  const port = Number(process.env.E2E_PORT ?? 3100) + 60;
  const build = SERVER_BUILD;
  let server: ChildProcess | undefined;
  let dataDir = "";

  test.beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "body-caps-"));
    server = spawn(process.execPath, ["server.js", build], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        NODE_ENV: "production",
        DATABASE_PATH: path.join(dataDir, "app.db"),
        UPLOAD_DIR: path.join(dataDir, "uploads"),
        SESSION_SECRET: "body-caps-session-secret-0123456789abcdef",
        RATE_LIMITS: "off",
        SEED_DEMO: "0",
      },
      stdio: "ignore",
    });
    // Up to 30 s, as startServer (fixtures.ts) waits: a production start took over 10 s on a loaded machine.
    for (let i = 0; i < 300; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/auth/user`)).status === 401) return;
      } catch {
        /* not up yet */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("server did not start");
  });

  test.afterAll(() => {
    server?.kill();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("three parallel 200 MB chunked bodies: answered or cut off quickly, memory barely moves", async () => {
    test.setTimeout(40_000);
    const pid = server!.pid!;
    const targets = [
      ["/api/auth/login", "application/json", '{"username":"someone","password":"'],
      ["/auth", "application/x-www-form-urlencoded", "intent=login&username=someone&password="],
      // The post page reads its form before it looks the post up: no post needs to exist.
      ["/post/1", "application/x-www-form-urlencoded", "intent=comment&content="],
    ] as const;
    // Warm up every route once, so the baseline includes the loaded code.
    const warm = new AbortController();
    for (const [target, ...body] of targets) await sendChunked(port, target, body, 1024, { abort: warm.signal });
    const baseline = rssOf(pid);

    let peak = baseline;
    const abort = new AbortController();
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssOf(pid));
      if (peak - baseline > RSS_LIMIT) abort.abort();
    }, 50);
    const outcomes = await Promise.all(
      targets.map(([target, ...body]) => sendChunked(port, target, body, BODY_BYTES, { abort: abort.signal })),
    );
    await new Promise((r) => setTimeout(r, 300));
    clearInterval(sampler);
    peak = Math.max(peak, rssOf(pid));

    const report = JSON.stringify({ outcomes, riseMB: Math.round((peak - baseline) / MB) });
    await test.info().attach("outcomes", { body: report, contentType: "application/json" });
    for (const outcome of outcomes) {
      expect([413, 400, "cut off"], report).toContain(outcome.status);
      expect(outcome.ms, report).toBeLessThan(ANSWER_WITHIN_MS);
    }
    expect(peak - baseline, report).toBeLessThan(RSS_LIMIT / 2);
    // The server still answers afterwards.
    expect((await fetch(`http://127.0.0.1:${port}/api/auth/user`)).status).toBe(401);
  });

  test("a client that goes on sending after its 413 is disconnected within seconds", async () => {
    const form = ["application/x-www-form-urlencoded", "intent=login&username=someone&password="] as const;
    const outcome = await sendChunked(port, "/auth", form, BODY_BYTES, { abort: new AbortController().signal, keepSending: true });
    expect(outcome.status, JSON.stringify(outcome)).toBe(413);
    expect(outcome.openAfterAnswerMs, JSON.stringify(outcome)).toBeLessThan(3_000);
  });

  test("a declared Content-Length over the cap for its type is 413 before the body is read", async () => {
    expect(await declareOnly(port, "/api/auth/login", "application/json", 300 * 1024)).toBe(413);
    expect(await declareOnly(port, "/auth", "application/x-www-form-urlencoded", 300 * MB)).toBe(413);
    expect(await declareOnly(port, "/post/1", "application/x-www-form-urlencoded", 2 * MB)).toBe(413);
    // Multipart may carry 20 files of 50 MB: only more than that is refused up front.
    expect(await declareOnly(port, "/create", "multipart/form-data; boundary=x", 1100 * MB)).toBe(413);
    expect((await fetch(`http://127.0.0.1:${port}/api/auth/user`)).status).toBe(401);
  });
});

import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import { expect, startServer, test, uniqueName } from "./fixtures";

/**
 * CONTRACT.md §6 "Client address" through the real server (server.js, its own database, 127.0.0.1
 * only, rate limits on, TRUST_PROXY=0): the per-address limits count the socket's address, which
 * the HTTP edge hands the app (ADR 0019). Every 127.x address is loopback on Linux, so two clients
 * on two addresses are two local sockets.
 */
test.describe("the client's address is the socket's", () => {
  // One server on a fixed port for the whole describe: its tests share one worker, never two
  // workers each starting a server on the same port.
  test.describe.configure({ mode: "serial" });
  test.skip(({ js }) => js, "no browser involved: run once");
  let server: ChildProcess | undefined;
  const port = Number(process.env.E2E_PORT ?? 3100) + 52;
  const dataDir = `${process.env.E2E_DATA_DIR ?? `tmp/e2e-${Number(process.env.E2E_PORT ?? 3100)}`}-address`;

  test.beforeAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    server = await startServer(port, dataDir, { HOST: "127.0.0.1", RATE_LIMITS: "on", TRUST_PROXY: "0" });
  });

  test.afterAll(() => {
    server?.kill();
  });

  /**
   * The limits count in fixed windows (ADR 0004: 15 minutes for sign-ins, an hour for sign-ups), so
   * attempts that straddle a window's edge count in two, and a right password went through after
   * ten failures once in CI. Each test starts with at least `margin` of its window left (waiting at
   * most `margin` for the next one).
   */
  async function clearOfWindowEdge(windowMs: number, margin: number) {
    const left = windowMs - (Date.now() % windowMs);
    if (left < margin) await new Promise((resolve) => setTimeout(resolve, left + 1_000));
  }

  /** A JSON request from the local address `from`, bounded by a timeout. */
  function post(from: string, path: string, body: unknown, headers: Record<string, string> = {}, method = "POST") {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const payload = body === null ? undefined : JSON.stringify(body);
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          path,
          method,
          localAddress: from,
          timeout: 10_000,
          headers: {
            Origin: `http://127.0.0.1:${port}`,
            ...(payload ? { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(payload)) } : {}),
            ...headers,
          },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on("error", reject).on("timeout", () => req.destroy(new Error("timed out")));
      req.end(payload);
    });
  }

  const account = () => {
    const username = uniqueName("addr");
    return { username, displayName: "Address Test", email: `${username}@example.com`, password: "secret123" };
  };

  test("a new X-Forwarded-For (or a forged address header) does not get past the registration limit; another client is unaffected", async () => {
    await clearOfWindowEdge(60 * 60_000, 15_000);
    for (let i = 0; i < 20; i++) {
      const res = await post("127.0.0.2", "/api/auth/register", account(), { "X-Forwarded-For": `198.51.100.${i}` });
      expect(res.status, res.body).toBe(201);
    }
    expect((await post("127.0.0.2", "/api/auth/register", account(), { "X-Forwarded-For": "198.51.100.99" })).status).toBe(429);
    expect((await post("127.0.0.2", "/api/auth/register", account(), { "X-Pulse-Peer-Address": "203.0.113.1" })).status).toBe(429);
    expect((await post("127.0.0.3", "/api/auth/register", account())).status).toBe(201);
  });

  test("failed sign-ins from one client do not lock a member out who signs in from another", async () => {
    await clearOfWindowEdge(15 * 60_000, 15_000);
    const member = account();
    expect((await post("127.0.0.4", "/api/auth/register", member)).status).toBe(201);
    for (let i = 0; i < 10; i++)
      expect((await post("127.0.0.5", "/api/auth/login", { username: uniqueName("nobody"), password: "wrong-pass" })).status).toBe(401);
    expect((await post("127.0.0.5", "/api/auth/login", { username: member.username, password: member.password })).status).toBe(429);
    expect((await post("127.0.0.4", "/api/auth/login", { username: member.username, password: member.password })).status).toBe(200);
  });

  test("a local client that writes a new X-Forwarded-For each time is still counted by its socket: 429 after 10 failed sign-ins (security-2 N5)", async () => {
    await clearOfWindowEdge(15 * 60_000, 15_000);
    const answers: number[] = [];
    for (let i = 0; i < 14; i++) {
      const res = await post(
        "127.0.0.7",
        "/api/auth/login",
        { username: uniqueName("nobody"), password: "wrong-pass" },
        { "X-Forwarded-For": `198.51.100.${i}` },
      );
      answers.push(res.status);
    }
    expect(answers).toEqual([...Array<number>(10).fill(401), 429, 429, 429, 429]);
  });
});

test.describe("behind a proxy the server listens on loopback unless HOST says otherwise (security-2 N5)", () => {
  test.skip(({ js }) => js, "no browser involved: run once");
  const port = Number(process.env.E2E_PORT ?? 3100) + 53;
  const dataDir = `${process.env.E2E_DATA_DIR ?? `tmp/e2e-${Number(process.env.E2E_PORT ?? 3100)}`}-listen`;

  test("TRUST_PROXY=1 with no HOST: 127.0.0.1, and one start-up line says where and why", async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    let output = "";
    const env = { TRUST_PROXY: "1", HOST: "" };
    const server = await startServer(port, dataDir, env, { onOutput: (text) => (output += text) });
    try {
      await expect.poll(() => output, { timeout: 10_000 }).toContain(`Listening on http://127.0.0.1:${port} (TRUST_PROXY=1 and HOST unset`);
      // …and it does: bound to 127.0.0.1 alone, it takes no connection on 127.0.0.2 (loopback too).
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      await expect(fetch(`http://127.0.0.2:${port}/healthz`)).rejects.toThrow();
    } finally {
      server.kill();
    }
  });
});

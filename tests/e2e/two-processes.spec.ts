import type { ChildProcess } from "node:child_process";
import { expect, startServer, suiteDatabaseUrl, test, uniqueName } from "./fixtures";

/**
 * CONTRACT.md §1: two processes on two ports with the same DATABASE_PATH serve one site. A second
 * server is started beside the suite's own, on the same database file and secret.
 */
test.describe("two processes, one database", () => {
  // One server on a fixed port for the whole describe: its tests share one worker, never two
  // workers each starting a server on the same port.
  test.describe.configure({ mode: "serial" });
  test.skip(({ js }) => js, "no browser involved: run once");
  let second: ChildProcess | undefined;
  const port = Number(process.env.E2E_PORT ?? 3100) + 50;

  test.beforeAll(async () => {
    const configPort = Number(process.env.E2E_PORT ?? 3100);
    const dataDir = process.env.E2E_DATA_DIR ?? `tmp/e2e-${configPort}`;
    second = await startServer(port, dataDir, { RATE_LIMITS: "on" });
  });

  test.afterAll(() => {
    second?.kill();
  });

  test("a session made on one process works on the other, and so do sign-in limits", async ({ request, baseURL }) => {
    const username = uniqueName("twin");
    const registered = await request.post("/api/auth/register", {
      data: { username, displayName: "Twin Process", email: `${username}@example.com`, password: "secret123" },
      headers: { Origin: baseURL! },
    });
    expect(registered.status()).toBe(201);
    const cookie = registered.headers()["set-cookie"]!.split(";")[0]!;
    const other = `http://localhost:${port}`;
    const me = await fetch(`${other}/api/auth/user`, { headers: { Cookie: cookie } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { username: string }).username).toBe(username);

    // The second process counts sign-in failures in the shared database: by the 11th they are
    // refused. (On PostgreSQL every server of the suite shares one database, and other specs'
    // servers with limits on may have used some of this address's allowance in the same window:
    // the refusal may come sooner, never later.)
    const statuses: number[] = [];
    for (let i = 0; i < 10 && !statuses.includes(429); i++) {
      const res = await fetch(`${other}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: other },
        body: JSON.stringify({ username, password: "wrong-pass" }),
      });
      statuses.push(res.status);
    }
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    if (!suiteDatabaseUrl) expect(statuses).toEqual(Array(10).fill(401));
    const locked = await fetch(`${other}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: other },
      body: JSON.stringify({ username, password: "secret123" }),
    });
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  test("a logout on one process ends the session on the other (ADR 0017)", async ({ request, baseURL }) => {
    const username = uniqueName("twin");
    const registered = await request.post("/api/auth/register", {
      data: { username, displayName: "Twin Process", email: `${username}@example.com`, password: "secret123" },
      headers: { Origin: baseURL! },
    });
    expect(registered.status()).toBe(201);
    const cookie = registered.headers()["set-cookie"]!.split(";")[0]!;
    const other = `http://localhost:${port}`;
    expect((await fetch(`${other}/api/auth/user`, { headers: { Cookie: cookie } })).status).toBe(200);
    const out = await fetch(`${other}/api/auth/logout`, { method: "POST", headers: { Cookie: cookie, Origin: other } });
    expect(out.status).toBe(204);
    expect((await fetch(`${baseURL}/api/auth/user`, { headers: { Cookie: cookie } })).status).toBe(401);
  });
});

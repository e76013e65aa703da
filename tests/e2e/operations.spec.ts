import { execFile, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { engine, expect, startServer, suiteDatabaseUrl, test, uniqueName } from "./fixtures";

/**
 * Running the site for real (issue 15, CONTRACT.md §6, docs/decisions/0040-health-logs-backups-
 * shutdown.md), against production servers of the suite's build on E2E_PORT+1..+4: the health check,
 * the JSON log on stdout, a clean stop under write load, and the restore drill. No browser involved.
 * On PostgreSQL (playwright.pg.config.ts) each server gets a database of its own on the suite's
 * cluster, as it gets a data directory of its own on SQLite (their write loads must not move the
 * suite's data version under other specs), and the drill restores a `pg_dump` into a new, empty one.
 */
test.describe("operations", () => {
  // Real servers start (up to three per test) and operator commands run: slow on a loaded machine.
  test.describe.configure({ mode: "serial", timeout: 120_000 });
  test.skip(({ js }) => js, "no browser involved: run once");

  const base = Number(process.env.E2E_PORT ?? 3100);
  const dataRoot = path.resolve(process.env.E2E_DATA_DIR ?? `tmp/e2e-${base}`, "operations");
  const servers: ChildProcess[] = [];

  /** Data directory → that server's own database (the PostgreSQL run). */
  const databases = new Map<string, string>();

  test.afterAll(async () => {
    for (const server of servers) if (server.exitCode === null) server.kill("SIGKILL");
    for (const url of databases.values()) await onAdmin(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
  });

  /** On PostgreSQL: a new, empty database for the server on `dir`, beside the suite's. */
  async function freshDatabase(dir: string, name: string) {
    if (!suiteDatabaseUrl) return;
    const url = new URL(suiteDatabaseUrl);
    url.pathname = `${url.pathname}_${name.replace(/\W/g, "_")}`;
    const database = url.pathname.slice(1);
    await onAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await onAdmin(`CREATE DATABASE ${database}`);
    databases.set(dir, url.toString());
  }

  /** The ids of the posts in the database of the server on `dir`. */
  async function postIds(dir: string): Promise<Set<number>> {
    const url = databases.get(dir);
    if (url) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return new Set(((await client.query("SELECT id FROM posts")).rows as { id: number }[]).map((r) => Number(r.id)));
      } finally {
        await client.end();
      }
    }
    const db = new Database(path.join(dir, "app.db"), { readonly: true });
    try {
      return new Set((db.prepare("SELECT id FROM posts").all() as { id: number }[]).map((r) => r.id));
    } finally {
      db.close();
    }
  }

  /** A fresh data directory and a server on it, its output collected. */
  async function serve(offset: number, name: string, env: Record<string, string> = {}) {
    const dir = path.join(dataRoot, name);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    await freshDatabase(dir, name);
    return serveOn(offset, dir, env);
  }
  async function serveOn(offset: number, dir: string, env: Record<string, string> = {}) {
    let output = "";
    // E2E_PORT+11…+14: clear of every other spec's own servers. At +1…+4 the restore drill's server
    // shared +4 with password-reset.spec's (JS off), which may run at the same time in the other
    // worker: the sign-in then reached the wrong site (401 on PostgreSQL, twice).
    const port = base + 10 + offset;
    const server = await startServer(
      port,
      dir,
      { RATE_LIMITS: "off", ...databaseOf(dir), ...env },
      { onOutput: (text) => (output += text) },
    );
    servers.push(server);
    const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
    return { server, dir, url: `http://127.0.0.1:${port}`, output: () => output, exited };
  }

  const send = (url: string, pathname: string, init: RequestInit & { json?: unknown; cookie?: string } = {}) => {
    const headers = new Headers(init.headers);
    if (init.json !== undefined) headers.set("Content-Type", "application/json");
    if (init.cookie) headers.set("Cookie", init.cookie);
    if (init.method && init.method !== "GET") headers.set("Origin", url);
    const go = () =>
      fetch(`${url}${pathname}`, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
    // A GET may meet a kept-alive connection the server closed while this machine was busy: once more.
    return init.method && init.method !== "GET" ? go() : go().catch(go);
  };

  async function member(url: string) {
    const username = uniqueName("ops");
    const account = { username, displayName: "Ops Hunter", email: `${username}@example.org`, password: "Pw-never-logged-42" };
    const res = await send(url, "/api/auth/register", { method: "POST", json: account });
    expect(res.status).toBe(201);
    return { ...account, cookie: res.headers.get("set-cookie")!.split(";")[0]! };
  }

  /** Clients that post one after another until the server stops answering or `until` says stop. */
  function writeLoad(url: string, cookie: string, clients: number, until: () => boolean) {
    const acknowledged: number[] = [];
    let n = 0;
    const client = async () => {
      while (!until()) {
        try {
          const res = await send(url, "/api/posts", {
            method: "POST",
            cookie,
            json: { title: `Load ${n}`, content: `Written under load, number ${n++}.` },
          });
          if (res.status !== 201) return;
          acknowledged.push(((await res.json()) as { id: number }).id);
        } catch {
          return; // refused or cut: not acknowledged
        }
      }
    };
    const done = Promise.all(Array.from({ length: clients }, client));
    return { acknowledged, done };
  }

  /** An operator command, run while this process goes on (the write load keeps sending meanwhile). */
  const tsx = (script: string, args: string[], env: Record<string, string>) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ["--import", "tsx", `scripts/${script}.ts`, ...args],
        { env: { ...process.env, NODE_ENV: "production", SESSION_SECRET: "e2e-session-secret-0123456789abcdef", ...env }, timeout: 60_000 },
        (_error, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
      );
    });

  /** The database of the server on `dir`, as its settings: its own on PostgreSQL, else its SQLite file. */
  function databaseOf(dir: string): Record<string, string> {
    const url = databases.get(dir);
    return url ? { DATABASE_URL: url } : { DATABASE_PATH: path.join(dir, "app.db") };
  }

  /** On PostgreSQL: runs `statement` on the cluster's admin database (PG_TEST_URL). */
  async function onAdmin(statement: string) {
    const client = new pg.Client({ connectionString: process.env.PG_TEST_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }

  const integrity = (file: string) => {
    const db = new Database(file, { readonly: true });
    const result = db.pragma("integrity_check", { simple: true });
    db.close();
    return result;
  };

  test("GET /healthz answers from the database; the log is JSON lines with no cookie, password, token or email", async () => {
    const site = await serve(1, "logs");
    const health = await send(site.url, "/healthz");
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, database: expect.stringMatching(/^(sqlite|postgres)$/) });
    expect(health.headers.get("cache-control")).toBe("no-store");
    expect(health.headers.get("set-cookie")).toBeNull();
    expect(health.headers.get("etag")).toBeNull();

    const m = await member(site.url);
    const login = await send(site.url, "/api/auth/login", { method: "POST", json: { username: m.username, password: m.password } });
    expect(login.status).toBe(200);
    const cookieValue = m.cookie.split("=")[1]!;
    expect((await send(site.url, "/settings", { cookie: m.cookie })).status).toBe(200);
    const reset = await tsx("reset-password", [m.username, "--origin", site.url], databaseOf(site.dir));
    const link = reset.stdout.match(/https?:\/\/\S+\/reset-password\/(\S+)/);
    expect(link, reset.stderr).not.toBeNull();
    await send(site.url, new URL(link![0]).pathname);
    await send(site.url, `/search?q=${encodeURIComponent(m.email)}`);
    await new Promise((r) => setTimeout(r, 300));

    const lines = site
      .output()
      .split("\n")
      .filter((l) => l);
    // Every line is JSON: the server writes no plain-text access or start-up line.
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const requests = entries.filter((e) => e.msg === "request");
    expect(requests).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: "GET", path: "/healthz", status: 200, ms: expect.any(Number) }),
        expect.objectContaining({ method: "POST", path: "/api/auth/login", status: 200 }),
        expect.objectContaining({ method: "GET", path: "/settings", status: 200, member: expect.any(Number) }),
        expect.objectContaining({ method: "GET", path: "/reset-password/:token", status: 200 }),
        expect.objectContaining({ method: "GET", path: "/search?q" }),
      ]),
    );
    const text = site.output();
    for (const secret of [m.password, m.email, cookieValue, link![1]!, encodeURIComponent(m.email)]) expect(text).not.toContain(secret);
  });

  test("SIGTERM under write load: in-flight requests finish, every acknowledged write is kept, exit 0", async () => {
    const site = await serve(2, "shutdown");
    const m = await member(site.url);
    let stop = false;
    const load = writeLoad(site.url, m.cookie, 4, () => stop);
    setTimeout(() => (stop = true), 15_000); // bound the load whatever happens

    // A request still arriving when the signal comes: its body ends a second after.
    let finishBody: () => void = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"title":"In flight","content":"Sent while the server was asked to stop.'));
        finishBody = () => {
          controller.enqueue(new TextEncoder().encode('"}'));
          controller.close();
        };
      },
    });
    const inFlight = fetch(`${site.url}/api/posts`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: site.url, Cookie: m.cookie },
      body,
      duplex: "half",
    } as RequestInit);
    // Up to 20 s: on a loaded two-core machine the PostgreSQL run took over 7 s for 20 posts.
    await expect.poll(() => load.acknowledged.length, { timeout: 20_000 }).toBeGreaterThan(20);

    site.server.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    // No new connections once the signal is taken.
    await expect(fetch(`${site.url}/healthz`)).rejects.toThrow();
    finishBody();
    const late = await inFlight;
    expect(late.status).toBe(201);
    const lateId = ((await late.json()) as { id: number }).id;

    expect(await site.exited).toBe(0);
    // It stopped while the clients were still sending: kept-alive connections took no new requests.
    expect(stop).toBe(false);
    stop = true;
    await load.done;

    if (engine === "sqlite") {
      // Checkpointed on the way out: nothing left in the write-ahead log.
      const file = path.join(site.dir, "app.db");
      expect(fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0).toBe(0);
    }
    const stored = await postIds(site.dir);
    const missing = [...load.acknowledged, lateId].filter((id) => !stored.has(id));
    expect(missing).toEqual([]);
    expect(site.output()).toMatch(/"msg":"shutting down"[\s\S]*"msg":"stopped"/);
  });

  test("restore drill: write under load, back up, restore into a fresh path, start the site on it, see the data", async () => {
    const live = await serve(3, "drill-live");
    const m = await member(live.url);
    let stop = false;
    const load = writeLoad(live.url, m.cookie, 3, () => stop);
    setTimeout(() => (stop = true), 20_000);
    // Up to 20 s: on a loaded two-core machine the PostgreSQL run took over 7 s for 20 posts.
    await expect.poll(() => load.acknowledged.length, { timeout: 20_000 }).toBeGreaterThan(20);
    const beforeBackup = [...load.acknowledged];

    const backupDir = path.join(live.dir, "backups");
    const backup = await tsx("backup", [], { ...databaseOf(live.dir), BACKUP_DIR: backupDir });
    expect(backup.status, backup.stderr).toBe(0);
    // The members kept writing while the backup was taken.
    expect(load.acknowledged.length).toBeGreaterThan(beforeBackup.length);
    stop = true;
    await load.done;
    // SQLite: a copy of the file (.db); PostgreSQL: a pg_dump archive.
    const [file] = fs.readdirSync(backupDir).filter((f) => f.startsWith("app-"));
    expect(file).toMatch(engine === "sqlite" ? /^app-\d{8}T\d{9}Z\.db$/ : /^app-\d{8}T\d{9}Z\.\w+$/);

    const fresh = path.join(dataRoot, "drill-restored");
    fs.rmSync(fresh, { recursive: true, force: true });
    // On PostgreSQL, into a new, empty database of the same cluster (restore refuses any other).
    await freshDatabase(fresh, "drill-restored");
    const restore = await tsx("restore", [path.join(backupDir, file!)], databaseOf(fresh));
    expect(restore.status, restore.stderr).toBe(0);
    if (engine === "sqlite") expect(integrity(path.join(fresh, "app.db"))).toBe("ok");

    fs.mkdirSync(fresh, { recursive: true });
    const restored = await serveOn(4, fresh);
    const health = await send(restored.url, "/healthz");
    expect(await health.json()).toMatchObject({ ok: true, database: expect.stringMatching(/^(sqlite|postgres)$/) });
    // The member can sign in on the restored site, and every post acknowledged before the backup is there.
    const login = await send(restored.url, "/api/auth/login", { method: "POST", json: { username: m.username, password: m.password } });
    expect(login.status).toBe(200);
    for (const id of [beforeBackup[0]!, beforeBackup[beforeBackup.length - 1]!]) {
      const post = await send(restored.url, `/api/posts/${id}`);
      expect(post.status).toBe(200);
      expect(((await post.json()) as { title: string }).title).toMatch(/^Load \d+$/);
    }
    const ids = await postIds(fresh);
    expect(beforeBackup.filter((id) => !ids.has(id))).toEqual([]);
  });
});

/**
 * What the bench starts: seeded databases, the app (`server.js` on a production build), a bare
 * Node server sending fixed bytes (the ceiling the app is compared with), and the shipped nginx
 * config in front of the app (scripts/nginx-local.ts). 127.0.0.1 only; every child is stopped when
 * the bench exits, however it exits.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { SERVER_BUILD as BUILD_SERVER } from "../build-dirs";
import { request } from "./load";

export const ROOT = process.cwd();
export const SERVER_BUILD = process.env.BENCH_SERVER_BUILD ?? BUILD_SERVER;
/** Where the seeded databases and scratch files go (BENCH_DIR, default tmp/bench): one per concurrent run. */
export const BENCH_DIR = path.resolve(ROOT, process.env.BENCH_DIR ?? "tmp/bench");

/**
 * Ports: BENCH_PORT and the next 9 when set (app servers from BENCH_PORT, bare ones from +2,
 * nginx from +5), otherwise ones the system picks.
 */
export async function benchPort(offset: number): Promise<number> {
  if (process.env.BENCH_PORT) return Number(process.env.BENCH_PORT) + offset;
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export function seed(file: string, users: number, posts: number) {
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${file}${suffix}`, { force: true });
  const started = Date.now();
  const res = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), ["db/seed.ts", "--users", String(users), "--posts", String(posts)], {
    env: { ...process.env, DATABASE_PATH: file, NODE_ENV: "development" },
    encoding: "utf8",
    timeout: 600_000,
  });
  if (res.status !== 0) throw new Error(`seed failed: ${res.stderr || res.stdout}`);
  console.log(`  ${res.stdout.trim()} (wall ${((Date.now() - started) / 1000).toFixed(1)}s)`);
}

const children = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of children) if (child.pid && child.exitCode === null) child.kill("SIGTERM");
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));

export type Running = { port: number; pid: number; stop: () => Promise<void> };

async function supervise(child: ChildProcess, port: number, ready: string): Promise<Running> {
  children.add(child);
  let stderr = "";
  child.stderr?.on("data", (d) => (stderr += d));
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    try {
      if ((await request(port, ready)).status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > until) throw new Error(`server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    port,
    pid: child.pid ?? 0,
    stop: () =>
      new Promise<void>((resolve) => {
        children.delete(child);
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

/** The app on `file`, as deployed behind one proxy (TRUST_PROXY=1), rate limits off; `env` on top (S3, or DATABASE_URL for PostgreSQL). */
export async function startApp(file: string, port: number, env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, [path.join(ROOT, "server.js"), SERVER_BUILD], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      DATABASE_PATH: file,
      UPLOAD_DIR: path.join(path.dirname(file), "uploads"),
      SESSION_SECRET: "bench-session-secret-0123456789abcdef",
      RATE_LIMITS: "off",
      SEED_DEMO: "0",
      TRUST_PROXY: "1",
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return supervise(child, port, "/api/posts/trending");
}

/**
 * A bare Node server in its own process that answers every request with `body` (the app's home
 * page, as the app sent it) and the same Content-Type: what Node itself costs per request, the
 * ceiling the app's figures are ratios of.
 */
export async function startBare(body: Buffer, port: number): Promise<Running> {
  const file = path.join(BENCH_DIR, `bare-${port}.html`);
  fs.writeFileSync(file, body);
  const script = `
    const body = require("node:fs").readFileSync(${JSON.stringify(file)});
    require("node:http").createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
      res.end(body);
    }).listen(${port}, "127.0.0.1");`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "ignore", "pipe"] });
  return supervise(child, port, "/");
}

/** Signs in seeded member `userId` (1 by default) at the app; the session cookie. `file`: the seeded SQLite file (a PostgreSQL copy has the same members). */
export async function signIn(port: number, file: string, userId = 1): Promise<string> {
  const Database = (await import("better-sqlite3")).default;
  const db = new Database(file, { readonly: true });
  const { username } = db.prepare(`SELECT username FROM users WHERE id = ?`).get(userId) as { username: string };
  db.close();
  const res = await request(
    port,
    "/api/auth/login",
    { "Content-Type": "application/json", Origin: `http://127.0.0.1:${port}` },
    "POST",
    JSON.stringify({ username, password: "whitetail" }),
  );
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.body.toString()}`);
  return ([] as string[])
    .concat(res.headers["set-cookie"] ?? [])
    .map((c) => c.split(";")[0])
    .join("; ");
}

/**
 * `n` public posts' ids among the seeded ones (id ≤ `seeded`), spread at random: what the write rows
 * like and comment on. Not the posts the write rows added to the file since: a PostgreSQL copy,
 * made before them, does not have those.
 */
export async function publicPostIds(file: string, n: number, seeded: number): Promise<number[]> {
  const Database = (await import("better-sqlite3")).default;
  const db = new Database(file, { readonly: true });
  const ids = (
    db.prepare(`SELECT id FROM posts WHERE club_id IS NULL AND id <= ? ORDER BY random() LIMIT ?`).all(seeded, n) as { id: number }[]
  ).map((r) => r.id);
  db.close();
  return ids;
}

/** Ids the per-page figures need: the most discussed public post and the biggest public club. */
export async function sampleIds(file: string): Promise<{ postId: number; clubId: number }> {
  const Database = (await import("better-sqlite3")).default;
  const db = new Database(file, { readonly: true });
  const post = db.prepare(`SELECT id FROM posts WHERE club_id IS NULL ORDER BY comments_count DESC, id DESC LIMIT 1`).get() as {
    id: number;
  };
  const club = db.prepare(`SELECT id FROM clubs WHERE is_private = 0 ORDER BY member_count DESC, id LIMIT 1`).get() as { id: number };
  db.close();
  return { postId: post.id, clubId: club.id };
}

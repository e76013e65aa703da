/**
 * npm run bench — the posts benchmark (issue 3, "Scale and speed"). Builds nothing: run
 * `npm run build` first (or point BENCH_SERVER_BUILD at another server build, e.g. tmp/b1/index.js).
 *
 * For a 1k-post and a 100k-post database (seeded fresh into tmp/ with db/seed.ts), it starts
 * `remix-serve` on a spare port on 127.0.0.1 and measures, with a small bounded load loop (keep-alive,
 * BENCH_CONCURRENCY requests in flight, BENCH_REQUESTS requests or BENCH_SECONDS per endpoint,
 * whichever ends first): req/s, p50 and p99 for the home page signed out and signed in,
 * /api/posts for each sort, two searches, trending and a post page. It prints the home page's
 * first-load weight (HTML, CSS and JS, raw and gzipped; asset URLs read from the HTML) and
 * EXPLAIN QUERY PLAN of every feed query, flagging a full scan of posts or a temp B-tree sort over
 * an unbounded set. Ends with the budget check: p50 of /api/posts?sortBy=popular at 100k within
 * 1.5x of 1k, measured with both servers running and requests alternating between them (so other
 * work on the machine hits both alike), one in flight (the server's own cost) and, for
 * information, BENCH_CONCURRENCY in flight.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import zlib from "node:zlib";

const ROOT = process.cwd();
const SERVER_BUILD = process.env.BENCH_SERVER_BUILD ?? "build/index.js";
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const MAX_REQUESTS = Number(process.env.BENCH_REQUESTS ?? 600);
const MAX_SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const WARMUP = 25;
const SCALES = [
  { name: "1k", users: 200, posts: 1_000 },
  { name: "100k", users: 2_000, posts: 100_000 },
];

// ---------------------------------------------------------------------------------------------
// EXPLAIN mode: `tsx scripts/bench.ts --explain <db>` runs in a child so the app's database module
// opens that file.

type PlanCheck = { label: string; detail: string[]; problems: string[] };

async function explainMode(file: string) {
  process.env.DATABASE_PATH = file;
  const { planFeed, TRENDING_SQL, SEARCH_DRIVES_BELOW } = await import("../app/models/feed.server");
  const { sqlite } = await import("../app/utils/db.server");
  const viewer = { id: 1 };
  const cases: Array<[string, Parameters<typeof planFeed>[1]]> = [];
  for (const sortBy of ["recent", "popular", "discussed", "oldest"] as const) {
    cases.push([`home sortBy=${sortBy}`, { sortBy }]);
    cases.push([`home type=video sortBy=${sortBy}`, { sortBy, type: "video" }]);
  }
  cases.push(["home sortBy=popular, 2nd page (cursor)", { sortBy: "popular", cursor: Buffer.from("popular.3.500").toString("base64url") }]);
  cases.push(["search 'deer' (dense)", { search: "deer" }]);
  cases.push(["search 'deer' sortBy=popular", { search: "deer", sortBy: "popular" }]);
  cases.push(["search 'cedar swamp' sortBy=popular", { search: "cedar swamp", sortBy: "popular" }]);
  cases.push(["search '#BowHunting' sortBy=popular", { search: "#BowHunting", sortBy: "popular" }]);
  cases.push(["search 'zzyzx' (rare)", { search: "zzyzx" }]);
  cases.push(["following (member 1)", { following: true }]);
  cases.push(["author 1's posts", { authorId: 1 }]);
  cases.push(["club 1's posts", { clubId: 1 }]);

  const out: PlanCheck[] = [];
  const check = (label: string, sql: string, params: Record<string, unknown>, boundedSort: boolean) => {
    const rows = sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { id: number; parent: number; detail: string }[];
    const detail = rows.map((r) => r.detail);
    const problems: string[] = [];
    for (const d of detail) {
      if (/^SCAN (p|posts)( |$)/.test(d) && !/USING (COVERING )?INDEX/.test(d)) problems.push(`full scan: ${d}`);
    }
    // The outermost ORDER BY is the last temp B-tree line at parent 0.
    const outerSort = rows.some((r) => r.parent === 0 && r.detail === "USE TEMP B-TREE FOR ORDER BY");
    if (outerSort && !boundedSort) problems.push("temp B-tree for the sort over an unbounded set");
    out.push({ label, detail, problems });
  };
  for (const [label, query] of cases) {
    const plan = planFeed(viewer, query);
    // A temp B-tree sort is accepted only where the set it sorts is bounded by construction: a
    // search with at most SEARCH_DRIVES_BELOW matches, a few followed members' posts, one author's
    // or one club's posts.
    const bounded =
      plan.sql.includes("NOT INDEXED") ||
      plan.sql.includes("INDEXED BY posts_author_recent") ||
      query.authorId !== undefined ||
      query.clubId !== undefined;
    check(`${label}${bounded ? " [bounded sort]" : ""}`, plan.sql, plan.params, bounded);
  }
  check(
    "trending (candidates: newest 1000 + top 100 liked + top 100 discussed) [bounded sort]",
    TRENDING_SQL,
    { now: Date.now(), viewer: 1 },
    true,
  );
  process.stdout.write(JSON.stringify({ checks: out, searchDrivesBelow: SEARCH_DRIVES_BELOW }));
}

// ---------------------------------------------------------------------------------------------
// Load generation

type Result = { label: string; status: number; requests: number; rps: number; p50: number; p99: number; errors: number };

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function request(port: number, urlPath: string, headers: Record<string, string> = {}, method = "GET", body?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: urlPath,
        method,
        agent,
        headers: { ...headers, ...(body ? { "Content-Length": Buffer.byteLength(body) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout: ${urlPath}`)));
    req.on("error", reject);
    if (body) req.write(body);
    req.end();
  });
}

/**
 * The same URL on two servers, request by request in alternation (each worker sends one to A, then
 * one to B), so both sets of latencies sample the same moments of machine load.
 */
async function loadPair(portA: number, portB: number, urlPath: string, pairs: number, concurrency: number) {
  for (let i = 0; i < WARMUP; i++) {
    await request(portA, urlPath);
    await request(portB, urlPath);
  }
  const a: number[] = [];
  const b: number[] = [];
  let issued = 0;
  const deadline = performance.now() + 4 * MAX_SECONDS * 1000;
  const time = async (port: number, into: number[]) => {
    const t0 = performance.now();
    await request(port, urlPath);
    into.push(performance.now() - t0);
  };
  const worker = async (flip: boolean) => {
    while (issued < pairs && performance.now() < deadline) {
      issued += 1;
      if (flip) {
        await time(portB, b);
        await time(portA, a);
      } else {
        await time(portA, a);
        await time(portB, b);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, i) => worker(i % 2 === 1)));
  a.sort((x, y) => x - y);
  b.sort((x, y) => x - y);
  return { a: percentile(a, 50), b: percentile(b, 50), pairs: a.length };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function load(
  port: number,
  label: string,
  urlPath: string,
  headers: Record<string, string> = {},
  maxRequests = MAX_REQUESTS,
): Promise<Result> {
  let status = 0;
  for (let i = 0; i < WARMUP; i++) status = (await request(port, urlPath, headers)).status;
  const latencies: number[] = [];
  let errors = 0;
  let issued = 0;
  const started = performance.now();
  const deadline = started + MAX_SECONDS * 1000;
  const worker = async () => {
    while (issued < maxRequests && performance.now() < deadline) {
      issued += 1;
      const t0 = performance.now();
      try {
        const res = await request(port, urlPath, headers);
        if (res.status >= 400) errors += 1;
      } catch {
        errors += 1;
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    label,
    status,
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
  };
}

// ---------------------------------------------------------------------------------------------
// Server and data

function sparePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

function seed(file: string, users: number, posts: number) {
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${file}${suffix}`, { force: true });
  const started = Date.now();
  const res = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), ["db/seed.ts", "--users", String(users), "--posts", String(posts)], {
    env: { ...process.env, DATABASE_PATH: file, NODE_ENV: "development" },
    encoding: "utf8",
  });
  if (res.status !== 0) throw new Error(`seed failed: ${res.stderr || res.stdout}`);
  console.log(`  ${res.stdout.trim()} (wall ${((Date.now() - started) / 1000).toFixed(1)}s)`);
}

const children = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of children) if (child.pid && child.exitCode === null) child.kill("SIGTERM");
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));

async function startServer(file: string): Promise<{ port: number; stop: () => Promise<void> }> {
  const port = await sparePort();
  const child = spawn(path.join(ROOT, "node_modules/.bin/remix-serve"), [SERVER_BUILD], {
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
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.add(child);
  let stderr = "";
  child.stderr?.on("data", (d) => (stderr += d));
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    try {
      const res = await request(port, "/api/posts/trending");
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > until) throw new Error(`server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        children.delete(child);
      }),
  };
}

async function signIn(port: number, file: string): Promise<string> {
  const Database = (await import("better-sqlite3")).default;
  const db = new Database(file, { readonly: true });
  const { username } = db.prepare(`SELECT username FROM users WHERE id = 1`).get() as { username: string };
  db.close();
  const res = await request(
    port,
    "/api/auth/login",
    { "Content-Type": "application/json", Origin: `http://127.0.0.1:${port}` },
    "POST",
    JSON.stringify({ username, password: "whitetail" }),
  );
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.body.toString()}`);
  const cookie = ([] as string[])
    .concat(res.headers["set-cookie"] ?? [])
    .map((c) => c.split(";")[0])
    .join("; ");
  return cookie;
}

async function pageWeight(port: number) {
  const html = await request(port, "/");
  const text = html.body.toString("utf8");
  const css = new Set<string>();
  const js = new Set<string>();
  for (const m of text.matchAll(/<link[^>]+rel="stylesheet"[^>]*href="([^"]+)"/g)) css.add(m[1]!);
  for (const m of text.matchAll(/<link[^>]+href="([^"]+)"[^>]*rel="stylesheet"/g)) css.add(m[1]!);
  for (const m of text.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g)) js.add(m[1]!);
  for (const m of text.matchAll(/<script[^>]+src="([^"]+)"/g)) js.add(m[1]!);
  for (const m of text.matchAll(/import\s*(?:[^"';]*?from\s*)?["'](\/[^"']+\.js)["']/g)) js.add(m[1]!);
  const sizeOf = async (urls: Set<string>) => {
    let raw = 0;
    let gz = 0;
    for (const url of urls) {
      const res = await request(port, url, { "Accept-Encoding": "identity" });
      if (res.status !== 200) continue;
      raw += res.body.length;
      gz += zlib.gzipSync(res.body, { level: 6 }).length;
    }
    return { files: urls.size, raw, gz };
  };
  return {
    html: { files: 1, raw: html.body.length, gz: zlib.gzipSync(html.body, { level: 6 }).length },
    css: await sizeOf(css),
    js: await sizeOf(js),
  };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
const fmt = (r: Result) =>
  `  ${r.label.padEnd(44)} ${String(r.status).padStart(3)}  ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  (${r.requests} req${r.errors ? `, ${r.errors} errors` : ""})`;

type Scale = (typeof SCALES)[number];
type Prepared = {
  scale: Scale;
  file: string;
  checks: PlanCheck[];
  port: number;
  cookie: string;
  postId: number;
  stop: () => Promise<void>;
};

/** Seed, explain and start one scale's server. */
async function prepare(scale: Scale): Promise<Prepared> {
  const file = path.join(ROOT, "tmp", "bench", `posts-${scale.name}.db`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  console.log(`${scale.name} posts (${scale.users} members):`);
  seed(file, scale.users, scale.posts);
  const explained = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/bench.ts", "--explain", file], {
    env: { ...process.env, NODE_ENV: "development" },
    encoding: "utf8",
  });
  if (explained.status !== 0) throw new Error(`explain failed: ${explained.stderr}`);
  const { checks } = JSON.parse(explained.stdout.slice(explained.stdout.indexOf("{"))) as { checks: PlanCheck[] };
  const server = await startServer(file);
  const cookie = await signIn(server.port, file);
  const Database = (await import("better-sqlite3")).default;
  const db = new Database(file, { readonly: true });
  const { id: postId } = db.prepare(`SELECT id FROM posts WHERE club_id IS NULL ORDER BY comments_count DESC, id DESC LIMIT 1`).get() as {
    id: number;
  };
  db.close();
  return { scale, file, checks, port: server.port, cookie, postId, stop: server.stop };
}

function printPlans(p: Prepared): number {
  console.log(`\n== EXPLAIN QUERY PLAN of the feed queries at ${p.scale.name} posts`);
  let bad = 0;
  for (const c of p.checks) {
    console.log(`  ${c.problems.length ? "FAIL" : "ok  "} ${c.label}`);
    for (const d of c.detail) console.log(`         ${d}`);
    for (const problem of c.problems) console.log(`         !! ${problem}`);
    bad += c.problems.length ? 1 : 0;
  }
  return bad;
}

async function main() {
  if (process.argv[2] === "--explain") return explainMode(process.argv[3]!);
  if (!fs.existsSync(SERVER_BUILD)) {
    console.error(`No server build at ${SERVER_BUILD}. Run \`npm run build\` first (or set BENCH_SERVER_BUILD).`);
    process.exit(1);
  }
  const started = Date.now();
  console.log(
    `Benchmark: server ${SERVER_BUILD}, ${CONCURRENCY} in flight, up to ${MAX_REQUESTS} requests or ${MAX_SECONDS}s per endpoint, 127.0.0.1 only.`,
  );
  const prepared: Prepared[] = [];
  try {
    for (const scale of SCALES) prepared.push(await prepare(scale));
    // Both servers run side by side and each endpoint is measured at both scales back to back, so
    // both see the same machine (other work on a shared machine moves absolute figures a lot).
    const targets = (p: Prepared): Array<[string, string, Record<string, string>]> => [
      ["GET / (signed out)", "/", {}],
      ["GET / (signed in)", "/", { Cookie: p.cookie }],
      ["GET /api/posts?sortBy=recent", "/api/posts?sortBy=recent", {}],
      ["GET /api/posts?sortBy=popular", "/api/posts?sortBy=popular", {}],
      ["GET /api/posts?sortBy=discussed", "/api/posts?sortBy=discussed", {}],
      ["GET /api/posts?sortBy=oldest", "/api/posts?sortBy=oldest", {}],
      ["GET /api/posts?sortBy=popular (signed in)", "/api/posts?sortBy=popular", { Cookie: p.cookie }],
      ["GET /api/posts?search=deer&sortBy=popular", "/api/posts?search=deer&sortBy=popular", {}],
      ["GET /api/posts?search=%23BowHunting", "/api/posts?search=%23BowHunting", {}],
      ["GET /api/posts/trending", "/api/posts/trending", {}],
      ["GET /post/{most discussed post}", `/post/${p.postId}`, {}],
    ];
    const results = new Map<string, Result[]>(prepared.map((p) => [p.scale.name, []]));
    const count = targets(prepared[0]!).length;
    for (let i = 0; i < count; i++) {
      for (const p of prepared) {
        const [label, url, headers] = targets(p)[i]!;
        results.get(p.scale.name)!.push(await load(p.port, label, url, headers));
      }
    }
    for (const p of prepared) {
      console.log(`\n== ${p.scale.name} posts (${p.scale.users} members)`);
      for (const r of results.get(p.scale.name)!) console.log(fmt(r));
      const weight = await pageWeight(p.port);
      console.log(
        `  first load of /: HTML ${kb(weight.html.raw)} (${kb(weight.html.gz)} gz), CSS ${weight.css.files} file(s) ${kb(weight.css.raw)} (${kb(weight.css.gz)} gz), ` +
          `JS ${weight.js.files} file(s) ${kb(weight.js.raw)} (${kb(weight.js.gz)} gz); total ${kb(weight.html.gz + weight.css.gz + weight.js.gz)} gz`,
      );
    }
    let badPlans = 0;
    for (const p of prepared) badPlans += printPlans(p);

    // The budget: popular-sort p50 at 100k vs 1k, request by request in alternation. One request
    // in flight measures what a request costs the server; with several in flight on a shared
    // 2-core machine, queueing behind other processes dominates (printed too, for information).
    const [p1k, p100k] = prepared;
    console.log(`\n== Budgets`);
    for (const concurrency of [1, CONCURRENCY]) {
      const pair = await loadPair(p1k!.port, p100k!.port, "/api/posts?sortBy=popular", 600, concurrency);
      const r = pair.b / pair.a;
      console.log(
        `  /api/posts?sortBy=popular p50, ${pair.pairs} alternating request pairs, ${concurrency} in flight: 1k ${pair.a.toFixed(1)} ms, 100k ${pair.b.toFixed(1)} ms, ratio ${r.toFixed(2)}` +
          (concurrency === 1 ? ` (budget 1.5): ${r <= 1.5 ? "PASS" : "FAIL"}` : " (for information)"),
      );
    }
    console.log(`  feed query plans without a full scan of posts or an unbounded sort: ${badPlans === 0 ? "PASS" : `FAIL (${badPlans})`}`);
    console.log(`  total time ${((Date.now() - started) / 1000).toFixed(0)}s`);
  } finally {
    for (const p of prepared) await p.stop();
    agent.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

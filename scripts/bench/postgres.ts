/**
 * The bench's PostgreSQL side (issue 25): a throw-away cluster, each scale's seeded SQLite file
 * copied into a database of its own (the same rows, ids and counters, so both engines answer the
 * same pages), and the two-node write row (two app processes on one database, 16 writers at once).
 *
 * Which server: PG_TEST_URL when set (an admin URL; the bench creates and drops its databases there),
 * otherwise a cluster of its own started with scripts/pg-local.sh on BENCH_PG_PORT (default 55470)
 * when PostgreSQL 15 is installed (/usr/lib/postgresql/15/bin, or PG_BIN), stopped at the end.
 * Neither: the PostgreSQL rows are skipped, and the bench says so. 127.0.0.1 only.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { request, type Answer } from "./load";

pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type PgServer = { adminUrl: string; stop: () => void; note: string };

/** The PostgreSQL server the bench uses, or why there is none. */
export function startPostgres(root: string): PgServer | string {
  if (process.env.PG_TEST_URL) return { adminUrl: process.env.PG_TEST_URL, stop: () => {}, note: "PG_TEST_URL" };
  const bin = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
  if (!fs.existsSync(path.join(bin, "pg_ctl"))) return `PostgreSQL 15 is not installed (no ${bin}/pg_ctl; PG_TEST_URL unset)`;
  const port = process.env.BENCH_PG_PORT ?? "55470";
  const script = path.join(root, "scripts/pg-local.sh");
  const started = spawnSync("bash", [script, "start", port], { encoding: "utf8", timeout: 120_000 });
  if (started.status !== 0) return `PostgreSQL did not start on port ${port}: ${(started.stderr || started.stdout).trim()}`;
  return {
    adminUrl: started.stdout.trim(),
    stop: () => void spawnSync("bash", [script, "stop", port], { timeout: 60_000 }),
    note: `a throw-away cluster on 127.0.0.1:${port} (scripts/pg-local.sh)`,
  };
}

const dbUrl = (adminUrl: string, name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** Tables the app's schema has; SQLite's own (FTS5 shadow tables, migrations, the data-version row: a sequence on PostgreSQL) are not copied. */
const SKIP = /^(sqlite_|posts_fts|__drizzle|data_version$)/;

/**
 * A fresh database `name` with the app's PostgreSQL schema (db/migrations-pg) holding every row of
 * the SQLite file: foreign keys and the data-version triggers off while loading (a replica session),
 * the indexes that back no constraint built after it, identities moved past the largest ids, then
 * ANALYZE (PostgreSQL plans from its statistics). Its URL.
 */
export async function copyToPostgres(adminUrl: string, name: string, file: string, root: string): Promise<string> {
  const started = Date.now();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = dbUrl(adminUrl, name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const Database = (await import("better-sqlite3")).default;
  const lite = new Database(file, { readonly: true });
  let rows = 0;
  try {
    await migrate(drizzle(client), { migrationsFolder: path.join(root, "db/migrations-pg") });
    // Indexes that back no constraint are dropped while loading and built again after: one sort per
    // index instead of a million inserts into each (the GIN index on the search vector above all).
    const indexes = (
      await client.query<{ name: string; def: string }>(
        `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
         WHERE i.schemaname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
      )
    ).rows;
    for (const { name: index } of indexes) await client.query(`DROP INDEX "${index}"`);
    await client.query("SET session_replication_role = replica");
    const tables = (lite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[])
      .map((t) => t.name)
      .filter((t) => !SKIP.test(t));
    for (const table of tables) {
      const pgColumns = (
        await client.query<{ column_name: string; data_type: string }>(
          `SELECT column_name, data_type FROM information_schema.columns
           WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER'`,
          [table],
        )
      ).rows;
      if (pgColumns.length === 0) throw new Error(`table ${table} is not in the PostgreSQL schema`);
      const liteColumns = new Set(
        (lite.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map((c) => c.name),
      );
      const columns = pgColumns.filter((c) => liteColumns.has(c.column_name));
      const booleans = columns.filter((c) => c.data_type === "boolean").map((c) => c.column_name);
      const jsons = columns.filter((c) => c.data_type === "jsonb" || c.data_type === "json").map((c) => c.column_name);
      const list = columns.map((c) => `"${c.column_name}"`).join(", ");
      const insert = `INSERT INTO "${table}" (${list}) SELECT ${list} FROM json_populate_recordset(NULL::"${table}", $1::json)`;
      let batch: Record<string, unknown>[] = [];
      const flush = async () => {
        if (batch.length) await client.query(insert, [JSON.stringify(batch)]);
        rows += batch.length;
        batch = [];
      };
      for (const row of lite.prepare(`SELECT ${list} FROM "${table}"`).iterate() as Iterable<Record<string, unknown>>) {
        for (const c of booleans) if (row[c] !== null) row[c] = Boolean(row[c]);
        for (const c of jsons) if (typeof row[c] === "string") row[c] = JSON.parse(row[c]);
        batch.push(row);
        if (batch.length >= 5000) await flush();
      }
      await flush();
      if (columns.some((c) => c.column_name === "id" && (c.data_type === "integer" || c.data_type === "bigint")))
        await client.query(
          `SELECT setval(pg_get_serial_sequence($1::text, 'id'), (SELECT max(id) FROM "${table}"))
           WHERE pg_get_serial_sequence($1::text, 'id') IS NOT NULL AND EXISTS (SELECT 1 FROM "${table}")`,
          [table],
        );
    }
    await client.query("SET session_replication_role = DEFAULT");
    await client.query("SET maintenance_work_mem = '256MB'");
    for (const { def } of indexes) await client.query(def);
    await client.query("ANALYZE");
  } finally {
    lite.close();
    await client.end();
  }
  console.log(`  copied to PostgreSQL database ${name}: ${rows} rows, ANALYZE (wall ${((Date.now() - started) / 1000).toFixed(1)}s)`);
  return url;
}

export async function dropDatabase(adminUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export type WriteResult = {
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  rps: number;
  kinds: Record<string, number>;
  sample: string[];
  /** The ids of the comments answered 201: each must be in the database afterwards (CONTRACT.md §11). */
  acknowledgedComments: number[];
};

/**
 * Writers at once against `ports` (worker i talks to ports[i % ports.length], signed in as
 * cookies[i]), each a mix of new posts, comments and likes/unlikes on posts 1..maxPostId, until
 * `maxRequests` are sent or `seconds` pass. Counts every answer that is not 2xx/3xx, and every error.
 */
export async function writeMix(
  ports: number[],
  cookies: string[],
  postIds: number[],
  maxRequests: number,
  seconds: number,
): Promise<WriteResult> {
  let issued = 0;
  let answered = 0;
  let errors = 0;
  const statuses: Record<string, number> = {};
  const kinds: Record<string, number> = {};
  const sample: string[] = [];
  const acknowledgedComments: number[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const worker = async (i: number) => {
    const port = ports[i % ports.length]!;
    const json = { "Content-Type": "application/json", Origin: `http://127.0.0.1:${port}`, Cookie: cookies[i % cookies.length]! };
    let n = 0;
    while (issued < maxRequests && performance.now() < deadline) {
      issued += 1;
      n += 1;
      const postId = postIds[Math.floor(Math.random() * postIds.length)]!;
      const pick = n % 4;
      const [kind, method, urlPath, body] =
        pick === 0
          ? [
              "post",
              "POST",
              "/api/posts",
              JSON.stringify({
                title: `Bench writer ${i} post ${n}`,
                content: `Written by the bench's writer ${i}, round ${n}: deer at dawn.`,
                type: "opinion",
              }),
            ]
          : pick === 1
            ? ["comment", "POST", `/api/posts/${postId}/comments`, JSON.stringify({ content: `Writer ${i} comment ${n}` })]
            : ["like", pick === 2 ? "POST" : "DELETE", `/api/posts/${postId}/like`, undefined];
      kinds[kind] = (kinds[kind] ?? 0) + 1;
      let res: Answer | null = null;
      try {
        res = await request(port, urlPath, json, method, body);
      } catch (error) {
        errors += 1;
        answered += 1;
        if (sample.length < 5) sample.push(`${method} ${urlPath}: ${(error as Error).message}`);
        continue;
      }
      answered += 1;
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status < 200 || res.status >= 400) {
        errors += 1;
        if (sample.length < 5) sample.push(`${method} ${urlPath}: ${res.status} ${res.body.toString().slice(0, 160)}`);
      } else if (kind === "comment" && res.status === 201) {
        const { id } = JSON.parse(res.body.toString()) as { id?: unknown };
        if (typeof id === "number") acknowledgedComments.push(id);
        else if (sample.length < 5) sample.push(`${method} ${urlPath}: 201 without an id`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(ports.length, cookies.length) }, (_, i) => worker(i)));
  const elapsed = (performance.now() - started) / 1000;
  return { requests: answered, errors, statuses, rps: answered / elapsed, kinds, sample, acknowledgedComments };
}

/** How many of `ids` are not in the comments table: acknowledged and lost. */
export async function lostComments(ids: number[], where: { file: string } | { url: string }): Promise<number> {
  if (ids.length === 0) return 0;
  if ("url" in where) {
    const client = new pg.Client({ connectionString: where.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM comments WHERE id = ANY($1::int[])", [ids]);
      return ids.length - Number(rows[0]!.n);
    } finally {
      await client.end();
    }
  }
  const Database = (await import("better-sqlite3")).default;
  const sqlite = new Database(where.file, { readonly: true });
  try {
    const row = sqlite
      .prepare("SELECT count(*) AS n FROM comments WHERE id IN (SELECT value FROM json_each(?))")
      .get(JSON.stringify(ids)) as {
      n: number;
    };
    return ids.length - row.n;
  } finally {
    sqlite.close();
  }
}

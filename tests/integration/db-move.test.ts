import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveSqliteToPostgres, movedTables, MoveRefused } from "~/utils/operations/db-move.server";
import { databaseUrl } from "#tests/setup/postgres";

/**
 * `npm run db:move` (CONTRACT.md §9, app/utils/operations/db-move.server.ts): a SQLite site built by the app's
 * own models (the demo seed, sessions, an idempotency key, a club, posts with #hashtags and an
 * upload, likes, comments) moved into a PostgreSQL database of the test's own, made from PG_TEST_URL
 * and dropped afterwards. The app's side runs in db-move.worker.ts processes, one engine each.
 */
const PG = process.env.PG_TEST_URL;
const root = path.resolve(__dirname, "../..");
const run = promisify(execFile);

type WorkerAnswer = { ok: boolean; error?: string } & Record<string, unknown>;

async function worker(args: string[], env: Record<string, string>): Promise<WorkerAnswer> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", path.join(root, "tests/integration/db-move.worker.ts"), ...args], {
    cwd: root,
    env: { ...process.env, TEST_DATABASE_URL: "", DATABASE_URL: "", ...env },
    timeout: 120_000,
  }).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`worker ${args[0]} failed: ${error.stdout ?? ""} ${error.stderr ?? ""}`);
  });
  const answer = JSON.parse(stdout.trim().split("\n").pop()!) as WorkerAnswer;
  if (!answer.ok) throw new Error(`worker ${args[0]}: ${answer.error}`);
  return answer;
}

/** Every table's rows keyed by primary key, values as plain comparable JSON (booleans as 0/1, JSON columns parsed). */
function comparable(value: unknown, jsonColumn: boolean): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (jsonColumn) return typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  if (typeof value === "bigint") return Number(value);
  return value;
}

if (!PG) {
  it.skip("PostgreSQL not available (PG_TEST_URL unset)", () => {});
} else {
  describe("npm run db:move: SQLite site → empty PostgreSQL", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "whitetail-move-"));
    const sqliteFile = path.join(dir, "site.db");
    const prefix = `whitetail_move_${process.pid}_${randomBytes(3).toString("hex")}`;
    const target = databaseUrl(PG, prefix);
    const admin = new pg.Client({ connectionString: PG });
    const clients: pg.Client[] = [];
    let built: { userId: number; postId: number };

    async function connect(url: string) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      clients.push(client);
      return client;
    }
    async function newDatabase(suffix: string) {
      await admin.query(`CREATE DATABASE "${prefix}${suffix}"`);
      return databaseUrl(PG!, `${prefix}${suffix}`);
    }
    /** Everything a refusal must leave as it was: every table's rows and every sequence's position. */
    async function snapshot(client: pg.Client) {
      const { rows: tables } = await client.query<{ name: string }>(
        "SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1",
      );
      const state: Record<string, unknown> = {};
      for (const { name } of tables) {
        state[name] = (await client.query(`SELECT * FROM ${name} ORDER BY 1`)).rows;
      }
      const { rows: sequences } = await client.query("SELECT sequencename, last_value FROM pg_sequences ORDER BY 1");
      state["(sequences)"] = sequences;
      return state;
    }

    beforeAll(async () => {
      await admin.connect();
      await admin.query(`CREATE DATABASE "${prefix}"`);
      built = (await worker(["build"], { DATABASE_PATH: sqliteFile, UPLOAD_DIR: path.join(dir, "uploads") })) as unknown as typeof built;
    }, 180_000);

    afterAll(async () => {
      for (const client of clients) await client.end().catch(() => {});
      const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${prefix}%`]);
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      await admin.end();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it("refuses while another process has the SQLite file open, and when it is missing; PostgreSQL untouched", async () => {
      const open = new Database(sqliteFile);
      open.pragma("journal_mode = WAL");
      try {
        await expect(moveSqliteToPostgres({ from: sqliteFile, to: target, lockTimeoutMs: 200 })).rejects.toThrow(
          /in use by another process \(is the site still running\?\)/,
        );
      } finally {
        open.close();
      }
      await expect(moveSqliteToPostgres({ from: path.join(dir, "missing.db"), to: target })).rejects.toThrow(/No SQLite database at/);
      expect(fs.existsSync(path.join(dir, "missing.db"))).toBe(false);
      const client = await connect(target);
      expect((await client.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).rows[0].n).toBe(0);
    });

    it("copies every row with the same ids and values, moves the identities past them, and search finds the same posts", async () => {
      const result = await moveSqliteToPostgres({ from: sqliteFile, to: target, batchRows: 7 });
      expect(result.ok).toBe(true);

      const source = new Database(sqliteFile, { readonly: true });
      const client = await connect(target);
      try {
        // Every table of the schema, counted on both sides, and the site had rows in the ones that matter.
        const tables = movedTables();
        expect(result.tables.map((t) => t.table).sort()).toEqual(tables.map((t) => t.name).sort());
        for (const table of tables) {
          const sqliteRows = (source.prepare(`SELECT count(*) AS n FROM "${table.name}"`).get() as { n: number }).n;
          const pgRows = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table.name}"`)).rows[0]!.n;
          expect(pgRows, table.name).toBe(sqliteRows);
          expect(result.tables.find((t) => t.table === table.name)).toEqual({ table: table.name, sqlite: sqliteRows, postgres: pgRows });
        }
        for (const name of [
          "users",
          "sessions",
          "idempotency_keys",
          "clubs",
          "club_members",
          "posts",
          "post_tags",
          "likes",
          "comments",
          "media",
          "rate_limits",
          "link_previews",
        ]) {
          expect(result.tables.find((t) => t.table === name)!.postgres, name).toBeGreaterThan(0);
        }

        // Field by field, every row of every table: ids, ms times, booleans, JSON.
        for (const table of tables) {
          const columns = table.columns.map((c) => c.name);
          const json = new Set(table.columns.filter((c) => c.pg.getSQLType() === "jsonb").map((c) => c.name));
          const key = (row: Record<string, unknown>) => JSON.stringify(table.orderBy.map((c) => row[c]));
          const list = columns.map((c) => `"${c}"`).join(", ");
          const sqliteRows = source.prepare(`SELECT ${list} FROM "${table.name}"`).all() as Record<string, unknown>[];
          const pgRows = new Map(
            (await client.query<Record<string, unknown>>(`SELECT ${list} FROM "${table.name}"`)).rows.map((row) => [key(row), row]),
          );
          for (const row of sqliteRows) {
            const moved = pgRows.get(key(row));
            expect(moved, `${table.name} ${key(row)}`).toBeDefined();
            for (const c of columns) {
              expect(comparable(moved![c], json.has(c)), `${table.name}.${c} ${key(row)}`).toEqual(comparable(row[c], json.has(c)));
            }
          }
        }
        // The kinds really differ on the two sides (what the comparison above had to bridge).
        const member = (await client.query("SELECT data_saver, created_at FROM users WHERE id = $1", [built.userId])).rows[0];
        expect(member.data_saver).toBe(true);
        expect(member.created_at).toBe(
          (source.prepare("SELECT created_at FROM users WHERE id = ?").get(built.userId) as { created_at: number }).created_at,
        );
        const post = (await client.query("SELECT tags, search IS NOT NULL AS indexed FROM posts WHERE id = $1", [built.postId])).rows[0];
        expect(post).toEqual({ tags: ["bowhunting", "rut"], indexed: true });

        // The data version never goes below the site's.
        const sqliteVersion = (source.prepare("SELECT version FROM data_version").get() as { version: number }).version;
        const pgVersion = (await client.query<{ v: number }>("SELECT last_value AS v FROM data_version")).rows[0]!.v;
        expect(pgVersion).toBeGreaterThanOrEqual(sqliteVersion);

        // Every identity is past its table's largest id.
        for (const table of tables) {
          for (const column of table.identities) {
            const { rows } = await client.query<{ next: number; max: number }>(
              `SELECT (SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM ${
                (await client.query<{ s: string }>("SELECT pg_get_serial_sequence($1, $2) AS s", [`"${table.name}"`, column])).rows[0]!.s
              }) AS next, coalesce(max("${column}"), 0) AS max FROM "${table.name}"`,
            );
            expect(rows[0]!.next, `${table.name}.${column}`).toBeGreaterThan(rows[0]!.max);
          }
        }
      } finally {
        source.close();
      }

      // Search through the app's own model on each engine: a stemmed word and #hashtags.
      const queries = ["ridge", "#BowHunting", "#bowhunting", "hunting", "brassicas"];
      const onSqlite = await worker(["search", String(built.userId), ...queries], { DATABASE_PATH: sqliteFile });
      const onPostgres = await worker(["search", String(built.userId), ...queries], { DATABASE_URL: target });
      expect(onSqlite.engine).toBe("sqlite");
      expect(onPostgres.engine).toBe("postgres");
      const found = onSqlite.found as Record<string, number[]>;
      expect(found.ridge).toContain(built.postId);
      expect(found["#BowHunting"]).toContain(built.postId);
      for (const q of queries) expect(found[q]!.length, q).toBeGreaterThan(0);
      expect(onPostgres.found).toEqual(found);

      // The app writes on the copy: new sessions and posts get new ids (no unique violation).
      const wrote = await worker(["write", String(built.userId)], { DATABASE_URL: target });
      const client2 = await connect(target);
      const maxes = (
        await client2.query<{ p: number; s: number }>("SELECT (SELECT max(id) FROM posts) AS p, (SELECT max(id) FROM sessions) AS s")
      ).rows[0]!;
      expect(wrote.postId).toBe(maxes.p);
      expect(wrote.sessionId).toBe(maxes.s);
      expect(wrote.postId as number).toBeGreaterThan(built.postId);
    }, 240_000);

    it("refuses a target that is not empty, in one line with exit code 1, and changes nothing", async () => {
      const client = await connect(target);
      const before = await snapshot(client);
      await expect(moveSqliteToPostgres({ from: sqliteFile, to: target })).rejects.toThrow(MoveRefused);
      await expect(moveSqliteToPostgres({ from: sqliteFile, to: target })).rejects.toThrow(/is not empty \(rows in users, /);

      // A database of something else with rows in a table of the app's name: refused before any migration.
      const other = await newDatabase("_other");
      const otherClient = await connect(other);
      await otherClient.query("CREATE TABLE users (id integer, name text); INSERT INTO users VALUES (1, 'someone')");
      const otherBefore = await snapshot(otherClient);
      const cli = await run(
        process.execPath,
        ["--import", "tsx", path.join(root, "scripts/db-move.ts"), "--from", sqliteFile, "--to", other],
        {
          cwd: root,
          env: { ...process.env, DATABASE_URL: "" },
          timeout: 120_000,
        },
      ).then(
        () => ({ code: 0, stderr: "" }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
      expect(cli.code).toBe(1);
      expect(cli.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(/^Refused: The PostgreSQL database .* is not empty \(rows in users\)/),
      ]);
      expect(await snapshot(otherClient)).toEqual(otherBefore);
      expect(await snapshot(client)).toEqual(before);
    }, 180_000);
  });
}

import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { is, type Column } from "drizzle-orm";
import { getTableConfig as pgTableConfig, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import pg from "pg";
import * as pgSchema from "#db/schema-pg";
import * as sqliteSchema from "#db/schema-sqlite";
import { migratePostgres } from "../db/db-postgres.server";

/**
 * The move of a stopped SQLite site into an empty PostgreSQL database (`npm run db:move`,
 * CONTRACT.md §9, docs/deploy/postgres-move.md). Nothing here knows a table by name: the tables,
 * their columns, the order foreign keys need and the identity columns all come from the two drizzle
 * schemas (db/schema-sqlite.ts and db/schema-pg.ts, which is built from it: docs/database.md), so a table a
 * later migration adds moves without anyone remembering to list it.
 *
 * 1. The SQLite file must exist, be at the schema this code expects, and be closed by every other
 *    process: the move opens it in exclusive locking mode and takes an exclusive transaction with a
 *    short busy timeout. In WAL mode (the app's) every open connection, even an idle one, holds a
 *    shared lock for its whole life, so a site that is still running (or a script with the file
 *    open) makes this fail, and the move refuses. The lock is held until the move ends, so the site
 *    cannot start and write behind the copy's back either.
 * 2. The target must be empty: no table of the app's (every table in db/schema-pg.ts) exists with a
 *    row in it. A new database, or one the app has only migrated, is empty. Checked before anything
 *    is changed, so a refusal changes nothing.
 * 3. The target is migrated as the app does at start-up (migratePostgres).
 * 4. One PostgreSQL transaction: the app's tables locked against writers, emptiness checked again,
 *    every table's rows in foreign-key order, in INSERTs of many rows each, with the same ids; each identity
 *    moved past its table's largest id; the data version moved to at least SQLite's; then the rows
 *    counted on both sides. Any error or a count that differs rolls it all back.
 *
 * Values are converted by the columns' kinds, through drizzle's own mappings: a SQLite value is read
 * as the SQLite column maps it (0/1 → boolean, JSON text → value, ms → Date), and written as the
 * PostgreSQL column maps that (boolean, jsonb, ms in a bigint). The search vector (posts.search) is a
 * stored generated column and fills itself.
 */

/** A move that must not start (or could not); the message is one line for the operator. */
export class MoveRefused extends Error {
  override name = "MoveRefused";
}

export type TableCount = { table: string; sqlite: number; postgres: number };

export type MoveResult = {
  tables: TableCount[];
  totalSqlite: number;
  totalPostgres: number;
  /** Every table's counts agree (when not, nothing was committed). */
  ok: boolean;
  elapsedMs: number;
  /** The identity sequences moved past their tables' largest ids, as `table.column`. */
  sequences: string[];
};

export type MoveOptions = {
  /** The SQLite file (DATABASE_PATH). */
  from: string;
  /** postgres://user:password@host:port/database */
  to: string;
  /** Rows per INSERT. */
  batchRows?: number;
  /** How long to wait for the SQLite write lock before deciding the site is still running. */
  lockTimeoutMs?: number;
  /** Progress lines (one per table). */
  progress?: (line: string) => void;
};

type Pair = {
  name: string;
  pg: PgTable;
  /** SQL column name → the two engines' columns, in the PostgreSQL table's column order. */
  columns: { name: string; pg: Column; sqlite: Column }[];
  /** Columns whose values an identity sequence hands out. */
  identities: string[];
  /** Tables this one's foreign keys point to. */
  references: string[];
  orderBy: string[];
};

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The app's tables on both engines, paired by SQL name, parents before children. */
export function movedTables(): Pair[] {
  const sqliteTables = new Map<string, SQLiteTable>();
  for (const value of Object.values(sqliteSchema)) {
    if (is(value, SQLiteTable)) sqliteTables.set(sqliteTableConfig(value).name, value);
  }
  const pairs: Pair[] = [];
  for (const value of Object.values(pgSchema)) {
    if (!is(value, PgTable)) continue;
    const config = pgTableConfig(value);
    const sqliteTable = sqliteTables.get(config.name);
    if (!sqliteTable) throw new Error(`Table ${config.name} is in db/schema-pg.ts but not in db/schema-sqlite.ts`);
    const sqliteConfig = sqliteTableConfig(sqliteTable);
    const sqliteColumns = new Map(sqliteConfig.columns.map((c) => [c.name, c]));
    const columns = config.columns
      .filter((c) => !c.generated)
      .map((c) => {
        const other = sqliteColumns.get(c.name);
        if (!other) throw new Error(`Column ${config.name}.${c.name} is in db/schema-pg.ts but not in db/schema-sqlite.ts`);
        return { name: c.name, pg: c, sqlite: other };
      });
    const primary =
      sqliteConfig.primaryKeys[0]?.columns.map((c) => c.name) ?? sqliteConfig.columns.filter((c) => c.primary).map((c) => c.name);
    pairs.push({
      name: config.name,
      pg: value,
      columns,
      identities: config.columns.filter((c) => c.generatedIdentity || c.columnType === "PgSerial").map((c) => c.name),
      references: config.foreignKeys.map((fk) => pgTableConfig(fk.reference().foreignTable).name).filter((name) => name !== config.name),
      orderBy: primary,
    });
  }
  // Parents first (Kahn's algorithm, keeping the schema's order among tables that are free).
  const ordered: Pair[] = [];
  const placed = new Set<string>();
  let pending = pairs;
  while (pending.length) {
    const ready = pending.filter((p) => p.references.every((r) => placed.has(r)));
    if (!ready.length) throw new Error(`Foreign keys form a cycle among ${pending.map((p) => p.name).join(", ")}`);
    for (const p of ready) {
      ordered.push(p);
      placed.add(p.name);
    }
    pending = pending.filter((p) => !placed.has(p.name));
  }
  return ordered;
}

/** Where a postgres:// URL points, without its password (for messages). */
export function describeTarget(url: string): string {
  try {
    const where = new URL(url);
    return `${where.hostname}:${where.port || 5432}${where.pathname}`;
  } catch {
    return "(not a URL)";
  }
}

/** Open the SQLite file for the move: it must exist, be closed by everyone else, and be at this code's schema. */
function openSource(file: string, lockTimeoutMs: number): Database.Database {
  if (!fs.existsSync(file)) throw new MoveRefused(`No SQLite database at ${file} (DATABASE_PATH): nothing to move.`);
  const source = new Database(file, { fileMustExist: true, timeout: lockTimeoutMs });
  try {
    // Exclusive locking mode, then an exclusive transaction: refused while any other connection has
    // the file open (see the module comment), and held until the move closes the file.
    source.pragma("locking_mode = EXCLUSIVE");
    try {
      source.exec("BEGIN EXCLUSIVE");
    } catch (error) {
      if ((error as { code?: string }).code?.startsWith("SQLITE_BUSY")) {
        throw new MoveRefused(
          `The SQLite database at ${file} is in use by another process (is the site still running?). Stop the site, then move.`,
        );
      }
      throw error;
    }
    const migrated = source.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
    if (!migrated) throw new MoveRefused(`${file} is not a Whitetail Pulse database (it has no migration log).`);
    const journal = JSON.parse(fs.readFileSync(path.resolve(process.cwd(), "db/migrations/meta/_journal.json"), "utf8")) as {
      entries: { when: number }[];
    };
    const latest = Math.max(...journal.entries.map((e) => e.when));
    const applied = (source.prepare("SELECT max(created_at) AS at FROM __drizzle_migrations").get() as { at: number | null }).at ?? 0;
    if (Number(applied) < latest) {
      throw new MoveRefused(
        `The SQLite database at ${file} is at an older schema than this version of the app: start the site once on this version (it migrates at start-up), stop it, then move.`,
      );
    }
    return source;
  } catch (error) {
    source.close();
    throw error;
  }
}

/** The app's tables in the target that exist and hold at least one row. */
async function tablesWithRows(client: pg.ClientBase, pairs: Pair[]): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    "SELECT name FROM unnest($1::text[]) AS name WHERE to_regclass(quote_ident(name)) IS NOT NULL",
    [pairs.map((p) => p.name)],
  );
  const found: string[] = [];
  for (const { name } of rows) {
    const result = await client.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${quote(name)}) AS any`);
    if (result.rows[0]?.any) found.push(name);
  }
  return found;
}

function refuseIfNotEmpty(found: string[], target: string) {
  if (found.length) {
    throw new MoveRefused(
      `The PostgreSQL database ${target} is not empty (rows in ${found.join(", ")}); the move only fills an empty database. Nothing was changed.`,
    );
  }
}

/**
 * Copy one table's rows, `batchRows` per INSERT. Each INSERT passes one array per column and unnests
 * them (`INSERT … SELECT * FROM unnest($1::integer[], $2::text[], …)`): a few parameters whatever
 * the batch, so PostgreSQL parses and plans a short statement instead of a VALUES list of thousands.
 * Returns the rows copied.
 */
async function copyTable(source: Database.Database, client: pg.ClientBase, pair: Pair, batchRows: number): Promise<number> {
  const names = pair.columns.map((c) => quote(c.name));
  const read = source
    .prepare(
      `SELECT ${names.join(", ")} FROM ${quote(pair.name)}${pair.orderBy.length ? ` ORDER BY ${pair.orderBy.map(quote).join(", ")}` : ""}`,
    )
    .raw(true);
  const text =
    `INSERT INTO ${quote(pair.name)} (${names.join(", ")}) ` +
    `SELECT * FROM unnest(${pair.columns.map((c, i) => `$${i + 1}::${c.pg.getSQLType()}[]`).join(", ")})`;
  const empty = () => pair.columns.map((): unknown[] => []);
  let arrays = empty();
  let inBatch = 0;
  let copied = 0;
  const flush = async () => {
    if (!inBatch) return;
    await client.query(text, arrays);
    copied += inBatch;
    arrays = empty();
    inBatch = 0;
  };
  for (const row of read.iterate() as Iterable<unknown[]>) {
    for (let c = 0; c < pair.columns.length; c++) {
      const raw = row[c];
      if (raw === null || raw === undefined) {
        arrays[c]!.push(null);
        continue;
      }
      const { sqlite, pg: target, name } = pair.columns[c]!;
      try {
        arrays[c]!.push(target.mapToDriverValue(sqlite.mapFromDriverValue(raw)));
      } catch (error) {
        throw new Error(`Cannot convert ${pair.name}.${name} value ${JSON.stringify(raw)}: ${(error as Error).message}`, { cause: error });
      }
    }
    if (++inBatch === batchRows) await flush();
  }
  await flush();
  return copied;
}

/** The move itself (see the module comment). Throws MoveRefused when it must not start. */
export async function moveSqliteToPostgres(options: MoveOptions): Promise<MoveResult> {
  const started = performance.now();
  const { from, to, batchRows = 1000, lockTimeoutMs = 2000, progress = () => {} } = options;
  const target = describeTarget(to);
  if (!/^postgres(?:ql)?:\/\//.test(to)) throw new MoveRefused(`--to must be a postgres://user:password@host:port/database address.`);
  const pairs = movedTables();
  const source = openSource(from, lockTimeoutMs);
  try {
    const client = new pg.Client({ connectionString: to, connectionTimeoutMillis: 10_000 });
    try {
      await client.connect();
    } catch (error) {
      throw new MoveRefused(`Cannot reach the PostgreSQL database ${target}: ${(error as Error).message}`);
    }
    try {
      // Refuse before anything changes, then migrate as start-up does.
      refuseIfNotEmpty(await tablesWithRows(client, pairs), target);
      await migratePostgres(client);

      await client.query("BEGIN");
      try {
        // No app node may write while the rows go in; then the target must still be empty.
        await client.query(`LOCK TABLE ${pairs.map((p) => quote(p.name)).join(", ")} IN SHARE ROW EXCLUSIVE MODE`);
        refuseIfNotEmpty(await tablesWithRows(client, pairs), target);

        for (const pair of pairs) {
          const t0 = performance.now();
          const copied = await copyTable(source, client, pair, batchRows);
          progress(`${pair.name}: ${copied} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        }

        // Each identity past its table's largest id: the next row gets max + 1 (1 on an empty table).
        const sequences: string[] = [];
        for (const pair of pairs) {
          for (const column of pair.identities) {
            const { rows } = await client.query<{ seq: string | null }>("SELECT pg_get_serial_sequence($1, $2) AS seq", [
              quote(pair.name),
              column,
            ]);
            const seq = rows[0]?.seq;
            if (!seq) throw new Error(`${pair.name}.${column} has no identity sequence in the target`);
            await client.query(`SELECT setval($1::regclass, coalesce(max(${quote(column)}), 0) + 1, false) FROM ${quote(pair.name)}`, [
              seq,
            ]);
            sequences.push(`${pair.name}.${column}`);
          }
        }

        // The data version never goes below the site's (validators compare it).
        const version = source.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'data_version'").get()
          ? ((source.prepare("SELECT version FROM data_version WHERE id = 1").get() as { version: number } | undefined)?.version ?? 0)
          : 0;
        const hasVersion = await client.query<{ ok: boolean }>("SELECT to_regclass('data_version') IS NOT NULL AS ok");
        if (hasVersion.rows[0]?.ok) {
          await client.query("SELECT setval('data_version', greatest((SELECT last_value FROM data_version), $1::bigint) + 1)", [version]);
        }

        const tables: TableCount[] = [];
        for (const pair of pairs) {
          const sqliteRows = (source.prepare(`SELECT count(*) AS n FROM ${quote(pair.name)}`).get() as { n: number }).n;
          const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quote(pair.name)}`);
          tables.push({ table: pair.name, sqlite: sqliteRows, postgres: rows[0]?.n ?? 0 });
        }
        const ok = tables.every((t) => t.sqlite === t.postgres);
        await client.query(ok ? "COMMIT" : "ROLLBACK");
        return {
          tables,
          totalSqlite: tables.reduce((n, t) => n + t.sqlite, 0),
          totalPostgres: tables.reduce((n, t) => n + t.postgres, 0),
          ok,
          elapsedMs: performance.now() - started,
          sequences,
        };
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      }
    } finally {
      await client.end().catch(() => {});
    }
  } finally {
    source.exec("ROLLBACK");
    source.close();
  }
}

/** The rows per table on both sides, aligned, with the totals and the time taken. */
export function formatMoveReport(result: MoveResult): string {
  const header = ["table", "sqlite rows", "postgres rows"];
  const rows = result.tables.map((t) => [t.table, String(t.sqlite), String(t.postgres), t.sqlite === t.postgres ? "" : "  DIFFERS"]);
  rows.push(["total", String(result.totalSqlite), String(result.totalPostgres), result.ok ? "" : "  DIFFERS"]);
  const width = [0, 1, 2].map((i) => Math.max(header[i]!.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `${cells[0]!.padEnd(width[0]!)}  ${cells[1]!.padStart(width[1]!)}  ${cells[2]!.padStart(width[2]!)}${cells[3] ?? ""}`;
  return [
    line(header),
    line(width.map((w) => "-".repeat(w))),
    ...rows.slice(0, -1).map(line),
    line(width.map((w) => "-".repeat(w))),
    line(rows[rows.length - 1]!),
    `${result.ok ? "Moved" : "Counts differ: rolled back, nothing was committed;"} in ${(result.elapsedMs / 1000).toFixed(1)} s.`,
  ].join("\n");
}

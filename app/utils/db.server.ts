import { sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type Database from "better-sqlite3";
import type { DB, Engine, EngineName, Params } from "./db/db-engine.server";
import { databaseUnavailable, isConnectionLoss, openPostgres } from "./db/db-postgres.server";
import { openSqlite, type SqliteEngine } from "./db/db-sqlite.server";
import { env } from "./env.server";
import type { AppError } from "./errors";

export type { DB, Params } from "./db/db-engine.server";
/** An open transaction, as `writeTransaction` hands it to its work. */
export type Tx = DB;

/**
 * The database (issue 25, CONTRACT.md §9, docs/decisions/0061-one-data-layer-two-engines.md): the
 * embedded SQLite file at DATABASE_PATH, or PostgreSQL when DATABASE_URL is set. Every query is
 * awaited. Models use `db`, `writeTransaction` and the hand-written query helpers below; nothing else
 * knows which engine answers.
 */

declare global {
  var __whitetailDb: Engine | undefined;
}

/** A PostgreSQL that cannot be reached at start-up stops the server with one line, not a stack. */
async function openEngine(): Promise<Engine> {
  if (!env.DATABASE_URL) return openSqlite(env.DATABASE_PATH);
  try {
    return await openPostgres(env.DATABASE_URL, env.DATABASE_POOL_SIZE);
  } catch (error) {
    const where = new URL(env.DATABASE_URL);
    console.error(
      `Cannot open the PostgreSQL database at ${where.hostname}:${where.port || 5432}${where.pathname}: ${(error as Error).message}`,
    );
    process.exit(1);
  }
}

// One engine per process, kept across dev rebuilds.
const engine = (globalThis.__whitetailDb ??= await openEngine());

/** Which engine answers (GET /healthz). */
export const databaseEngine = (): EngineName => engine.name;
/** The PostgreSQL pool's connections (/metrics); null on SQLite. */
export const databasePoolStats = () => engine.poolStats?.() ?? null;

/**
 * The handle every query goes through. Inside `writeTransaction` it is that transaction's (a model
 * that checks something through `db` while another writes through `tx` still reads what the
 * transaction sees); anywhere else, the engine's own.
 */
export const db: DB = new Proxy({} as DB, {
  get(_, property) {
    const target = engine.current();
    const value = Reflect.get(target, property, target) as unknown;
    return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
  },
});

/**
 * The raw SQLite connection, for scripts, tests and maintenance on the embedded file (backup,
 * checkpoint), never for a request's queries. Undefined on PostgreSQL.
 */
export const sqlite = (engine as Partial<SqliteEngine>).sqlite as Database.Database;

/**
 * A transaction that reads and then writes: what it checked (the post is there, the limit is not
 * used up) still holds when it writes, on either engine and with any number of processes. SQLite
 * takes the write lock first (BEGIN IMMEDIATE); PostgreSQL runs it SERIALIZABLE and runs `work` again
 * when the server refuses it for a conflict with another transaction. So `work` must do nothing but
 * database work, and be safe to run twice: no fetches, files or mail inside (and on SQLite every
 * other request's queries wait while it runs). Inside another transaction it is a savepoint.
 */
export function writeTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  return engine.transaction(work);
}

/**
 * Run `fn` once the caller's write has committed (CONTRACT.md §11): inside `writeTransaction`, after
 * its COMMIT and outside its async context, so whatever `fn` starts (a delivery run, a fan-out, a
 * cache dropped) takes its own connection and sees the committed rows; never if the transaction rolls
 * back. Outside a transaction, at once. `fn` should only start work, not wait for it: it runs in the
 * committing request's turn, and one that throws is logged.
 */
export function afterCommit(fn: () => void): void {
  engine.afterCommit(fn);
}

/**
 * Rows of SQL written by hand in a model (a query the builder cannot say well: keyset plans,
 * full-text search). Named parameters are `@name`; rows come back as objects keyed by the column
 * aliases (write aliases in snake_case or double quotes: PostgreSQL folds bare ones to lower case).
 */
export function queryRows<T>(source: string, params: Params = []): Promise<T[]> {
  return engine.rows<T>(source, params);
}

/** The first row of a hand-written query, or undefined. */
export async function queryRow<T>(source: string, params: Params = []): Promise<T | undefined> {
  return (await engine.rows<T>(source, params))[0];
}

/** The first column of every row of a hand-written query. */
export async function queryColumn<T>(source: string, params: Params = []): Promise<T[]> {
  const rows = await engine.rows<Record<string, T>>(source, params);
  return rows.map((row) => Object.values(row)[0] as T);
}

/** The first row of a builder query's result (`.get()` is SQLite's alone). */
export const first = <T>(rows: T[]): T | undefined => rows[0];

/** How many rows of `table` match `where`, on either engine (PostgreSQL's count is a string): a queue's depth. */
export async function countWhere(table: SQLiteTable, where: SQL | undefined): Promise<number> {
  const [row] = await db
    .select({ n: sql<number | string>`count(*)` })
    .from(table)
    .where(where);
  return Number(row?.n ?? 0);
}

/** The database's data version: it moves on with every write any process or node commits (data-version.server.ts). */
export function dataVersion(): Promise<number> {
  return engine.dataVersion();
}

/**
 * When `error` is the database gone away while serving (PostgreSQL unreachable, or the connection
 * lost), the error family's 503 to answer with (`DATABASE_UNAVAILABLE`, Retry-After): the two
 * translators (web/api.server.ts, and entry.server.tsx for pages) answer it so. Else null.
 */
export function databaseUnavailableError(error: unknown): AppError | null {
  return engine.name === "postgres" && isConnectionLoss(error) ? databaseUnavailable(error) : null;
}

/** Checkpoint (SQLite) and close the connections (graceful shutdown). */
export function closeDatabase(): Promise<void> {
  return engine.close();
}

/**
 * A drizzle query built and prepared on first use, then reused: the hot reads of every page (the
 * session, a page of posts) would otherwise rebuild their SQL on each request
 * (docs/decisions/0043-visitor-page-cache-and-prepared-reads.md). Values go in through
 * `sql.placeholder(name)`; a list of ids through `idsIn` (sql-dialect.server.ts). Prepared on the engine's own handle, so
 * it runs outside any transaction: use it for reads only. Run it with `.execute(values)`, which maps
 * rows on both engines (PostgreSQL's `.all()` hands back the driver's rows unmapped).
 */
export function preparedOnce<T>(build: () => T): () => T {
  let query: T | undefined;
  return () => (query ??= engine.outside(build));
}

/**
 * A counter column less `by`, never below 0, as a portable SQL expression (no SQLite-only
 * two-argument `max()`), for counters kept on their rows (`likesCount`, `memberCount` …).
 */
export const decrementCounter = (column: AnySQLiteColumn, by: number = 1): SQL =>
  sql`CASE WHEN ${column} > ${by} THEN ${column} - ${by} ELSE 0 END`;

/**
 * A write refused by a unique index (two requests raced past the checks before it). drizzle wraps
 * the driver's error in its own ("Failed query: …"), so the driver's is looked for in `cause`.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ((e as { code?: string }).code === "23505" || /UNIQUE constraint failed/.test(e.message)) return true;
  }
  return false;
}

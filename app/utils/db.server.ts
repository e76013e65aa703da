import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import * as schema from "#db/schema";
import { installDataVersion, readDataVersion } from "./data-version.server";
import { env } from "./env.server";

export type DB = BetterSQLite3Database<typeof schema>;

/** Open a connection with the pragmas every connection needs, and bring the schema up to date. */
export function openDatabase(file: string): { sqlite: Database.Database; db: DB } {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  const db = drizzle(sqlite, { schema });
  // Migrations are idempotent: drizzle records what it applied in __drizzle_migrations.
  migrate(db, { migrationsFolder: path.resolve(process.cwd(), "db/migrations") });
  // Every write moves the data version on (page validators, data-version.server.ts).
  installDataVersion(sqlite);
  return { sqlite, db };
}

declare global {
  var __whitetailDb: { sqlite: Database.Database; db: DB } | undefined;
}

// One connection per process, kept across dev rebuilds.
const connection = (globalThis.__whitetailDb ??= openDatabase(env.DATABASE_PATH));

export const db = connection.db;
export const sqlite = connection.sqlite;

/** The database's data version: it moves on with every write any process commits (data-version.server.ts). */
export const dataVersion = () => readDataVersion(sqlite);

/** An open transaction, as drizzle hands it to a transaction's callback. */
export type Tx = Parameters<Parameters<DB["transaction"]>[0]>[0];

/**
 * A transaction that reads and then writes. It is IMMEDIATE: it takes the write lock before its first
 * read (waiting up to busy_timeout for it), so what it checked (the post is there, the limit is not
 * used up) still holds when it writes, even with another process on the same file. A deferred one
 * fails at once with SQLITE_BUSY_SNAPSHOT when another process commits between its read and its
 * write (security review H3; STACK.md), and a row deleted in between would surface as a
 * foreign-key failure instead of the domain's 404. Inside another transaction it is a savepoint.
 */
export function writeTransaction<T>(work: (tx: Tx) => T): T {
  return db.transaction(work, { behavior: "immediate" });
}

const statements = new Map<string, Database.Statement>();
/** A statement prepared once per distinct SQL text on the process's connection (the models' raw SQL). */
export function prepared(source: string): Database.Statement {
  let s = statements.get(source);
  if (!s) {
    s = sqlite.prepare(source);
    statements.set(source, s);
  }
  return s;
}

/**
 * A drizzle query built and prepared on first use, then reused: the hot reads of every page (the
 * session, a page of posts) would otherwise rebuild their SQL and re-prepare their statement on each
 * request (docs/decisions/0043-visitor-page-cache-and-prepared-reads.md). Values go in through
 * `sql.placeholder(name)`; a list of ids through `idsIn`.
 */
export function preparedOnce<T>(build: () => T): () => T {
  let query: T | undefined;
  return () => (query ??= build());
}

/** The placeholder a list of ids is passed through to a prepared query: `inArray(col, idsIn("ids"))`, then `{ ids: JSON.stringify(ids) }`. */
export const idsIn = (name: string): SQL => sql`(SELECT value FROM json_each(${sql.placeholder(name)}))`;

/**
 * A counter column less `by`, never below 0, as a portable SQL expression (no SQLite-only
 * two-argument `max()`), for counters kept on their rows (`likesCount`, `memberCount` …).
 */
export const decrementCounter = (column: AnySQLiteColumn, by: number = 1): SQL =>
  sql`CASE WHEN ${column} > ${by} THEN ${column} - ${by} ELSE 0 END`;

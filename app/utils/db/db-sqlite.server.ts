import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle as drizzleSync } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import * as schema from "#db/schema";
import { installDataVersion, readDataVersion } from "./data-version.server";
import { runAll, TransactionScope, usedAfterEnd, type DB, type Engine, type Params } from "./db-engine.server";

/**
 * The embedded SQLite file (the default, ADR 0041): one better-sqlite3 connection per process,
 * synchronous and fast, reached through drizzle's proxy driver so the models can await it as they
 * await PostgreSQL.
 *
 * Because a transaction now spans awaits, another request's statements could otherwise run inside
 * it on the shared connection, reading what it has not committed, or being rolled back with it. So
 * the connection has a gate: while a transaction is open, only the statements of its own async
 * context run; every other statement waits until it commits or rolls back. Other processes on the
 * same file are kept out by SQLite's own lock (BEGIN IMMEDIATE, busy_timeout).
 */
export interface SqliteEngine extends Engine {
  readonly sqlite: Database.Database;
}

/** Statements prepared once per SQL text, the most recently used kept (a list of N ids is a text of its own). */
const STATEMENTS_KEPT = 500;
function statementCache(sqlite: Database.Database) {
  const kept = new Map<string, Database.Statement>();
  return (source: string): Database.Statement => {
    let statement = kept.get(source);
    if (statement) {
      kept.delete(source);
    } else {
      statement = sqlite.prepare(source);
      if (kept.size >= STATEMENTS_KEPT) kept.delete(kept.keys().next().value as string);
    }
    kept.set(source, statement);
    return statement;
  };
}

/** Open the file with the pragmas every connection needs, and bring the schema up to date. */
export function openSqlite(file: string): SqliteEngine {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  // Migrations are idempotent: drizzle records what it applied in __drizzle_migrations.
  migrate(drizzleSync(sqlite), { migrationsFolder: path.resolve(process.cwd(), "db/migrations") });
  // Every write moves the data version on (page validators, data-version.server.ts).
  installDataVersion(sqlite);

  /** The transaction whose async context owns the connection, if one is open. */
  let owner: TransactionScope | null = null;
  const context = new AsyncLocalStorage<TransactionScope>();
  let waiting: (() => void)[] = [];
  const blocked = () => owner !== null && owner !== context.getStore();
  /** Before a statement: one made from the context of a transaction that has ended is refused (usedAfterEnd). */
  const checkEnded = () => {
    if (context.getStore()?.ended) usedAfterEnd();
  };
  // Not context.exit: in Node 20 that clears the store for fn's synchronous part only, and whatever fn
  // starts (a delivery run's later awaits) comes back in the transaction's context.
  const outside = <T>(fn: () => T): T => context.run(undefined as unknown as TransactionScope, fn);
  const released = () => new Promise<void>((resolve) => waiting.push(resolve));
  // Every wait is a loop written where the statement runs: the check that the connection is free and
  // the statement (or the taking of it) happen in the same turn, with no await between them, or
  // another request could take the connection in the gap.
  function release() {
    owner = null;
    const woken = waiting;
    waiting = [];
    for (const resolve of woken) resolve();
  }

  const builderStatement = statementCache(sqlite);
  const db: DB = drizzle(
    async (source, params, method) => {
      checkEnded();
      while (blocked()) await released();
      const s = builderStatement(source);
      if (method === "run" || !s.reader) {
        s.run(...params);
        return { rows: [] };
      }
      s.raw(true);
      return { rows: (method === "get" ? s.get(...params) : s.all(...params)) as unknown[] };
    },
    { schema },
  );

  let savepoints = 0;
  async function savepoint<T>(scope: TransactionScope, work: (tx: DB) => Promise<T>): Promise<T> {
    const name = `sp${++savepoints}`;
    const mark = scope.mark();
    sqlite.exec(`SAVEPOINT ${name}`);
    try {
      const result = await work(db);
      sqlite.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      sqlite.exec(`ROLLBACK TO ${name}`);
      sqlite.exec(`RELEASE ${name}`);
      scope.rollbackTo(mark);
      throw error;
    }
  }

  const rawStatement = statementCache(sqlite);
  return {
    name: "sqlite",
    sqlite,
    current: () => db,
    outside,
    afterCommit(fn) {
      const mine = context.getStore();
      if (mine !== undefined && mine === owner) mine.add(fn);
      else {
        checkEnded();
        outside(() => runAll([fn]));
      }
    },
    /**
     * IMMEDIATE: the write lock is taken before the first read (waiting up to busy_timeout for it),
     * so what the transaction checked still holds when it writes, even with another process on the
     * same file (security review H3; STACK.md). Inside an open one it is a savepoint.
     */
    async transaction<T>(work: (tx: DB) => Promise<T>): Promise<T> {
      const mine = context.getStore();
      if (mine !== undefined && mine === owner) return savepoint(mine, work);
      checkEnded();
      while (owner !== null) await released();
      const scope = new TransactionScope();
      owner = scope;
      return context.run(scope, async () => {
        try {
          sqlite.exec("BEGIN IMMEDIATE");
        } catch (error) {
          release();
          scope.end(false, outside);
          throw error;
        }
        let committed = false;
        try {
          const result = await work(db);
          sqlite.exec("COMMIT");
          committed = true;
          return result;
        } catch (error) {
          if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
          throw error;
        } finally {
          release();
          scope.end(committed, outside);
        }
      });
    },
    async rows<T>(source: string, params: Params): Promise<T[]> {
      checkEnded();
      while (blocked()) await released();
      const s = rawStatement(source);
      s.raw(false);
      return (Array.isArray(params) ? s.all(...params) : s.all(params)) as T[];
    },
    async dataVersion() {
      checkEnded();
      while (blocked()) await released();
      return readDataVersion(sqlite);
    },
    /** The WAL is folded into the file first; if another process holds a reader, its own stop folds what is left. */
    async close() {
      if (!sqlite.open) return;
      try {
        sqlite.pragma("wal_checkpoint(TRUNCATE)");
      } finally {
        sqlite.close();
      }
    },
  };
}

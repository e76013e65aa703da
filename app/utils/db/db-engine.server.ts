import type { SqliteRemoteDatabase } from "drizzle-orm/sqlite-proxy";
import type * as schema from "#db/schema";
import { logServerError } from "../logger.server";

/**
 * What the rest of the app needs of a database engine (docs/decisions/0061-one-data-layer-two-engines.md).
 * Two engines implement it: the embedded SQLite file (db-sqlite.server.ts) and PostgreSQL
 * (db-postgres.server.ts). Models never see which one answers: they use `db`, `writeTransaction` and
 * the hand-written query helpers of db.server.ts.
 *
 * The models are typed against drizzle's SQLite builders; on PostgreSQL the same calls run on
 * drizzle's pg builders with tables of the same names, columns and value types (db/schema-pg.ts), so
 * models use only what both share: `await query` (no `.get()`, `.all()`, `.run()`), `.returning()`,
 * `onConflictDoNothing/DoUpdate`. The integration tests run on both engines to hold them to it.
 */
export type DB = SqliteRemoteDatabase<typeof schema>;

/** Parameters of a hand-written query: named (`@name` in the SQL) or positional (`?`). */
export type Params = Record<string, unknown> | unknown[];

export type EngineName = "sqlite" | "postgres";

export interface Engine {
  readonly name: EngineName;
  /** The handle the caller's queries go through: its open transaction's, or the engine's own. */
  current(): DB;
  /** Run `fn` on the engine's own handle, outside the caller's transaction (queries prepared once for the whole process). */
  outside<T>(fn: () => T): T;
  /** Run `work` in a read-then-write transaction (a savepoint inside an open one), retried where the engine may refuse it for a conflict. */
  transaction<T>(work: (tx: DB) => Promise<T>): Promise<T>;
  /** Run `fn` once the caller's transaction has committed, outside it; never if it rolls back. Outside a transaction, now. */
  afterCommit(fn: () => void): void;
  /** Rows of a hand-written query, as objects keyed by column alias. */
  rows<T>(source: string, params: Params): Promise<T[]>;
  /** A number every committed write moves on, on every node (page validators, trending). */
  dataVersion(): Promise<number>;
  /** Close the connections (graceful shutdown). */
  close(): Promise<void>;
  /** The connection pool's state (/metrics): PostgreSQL's; SQLite has one connection and none. */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
}

/**
 * What an open transaction has set off and whether it has ended (CONTRACT.md §11, ADR 0066). Both
 * engines keep one per top-level transaction in the async context its work runs in.
 *
 * - `afterCommit` callbacks wait for COMMIT and then run outside the transaction's async context, so
 *   what they start (a delivery run, a fan-out) takes a connection of its own and sees only what was
 *   committed. A rolled-back transaction, or a savepoint rolled back inside it, drops what it added;
 *   an attempt PostgreSQL refuses for a conflict drops its own, and the next attempt adds them anew.
 * - Once it has ended, a query still made from its async context (work set off inside it that did not
 *   wait for the commit) is a bug that would run on a connection now serving someone else: it is
 *   refused loudly (`usedAfterEnd`).
 */
export class TransactionScope {
  ended = false;
  private after: (() => void)[] = [];

  add(fn: () => void): void {
    this.after.push(fn);
  }

  /** Where a savepoint begins: `rollbackTo(mark)` drops what was added since. */
  mark(): number {
    return this.after.length;
  }

  rollbackTo(mark: number): void {
    this.after.length = mark;
  }

  /** The transaction is over: after a COMMIT, its callbacks run through `outside` (which leaves the async context). */
  end(committed: boolean, outside: (fn: () => void) => void): void {
    this.ended = true;
    const owed = committed ? this.after : [];
    this.after = [];
    if (owed.length) outside(() => runAll(owed));
  }
}

/** Each callback on its own: one that throws is logged and the others still run. */
export function runAll(callbacks: (() => void)[]): void {
  for (const callback of callbacks) {
    try {
      callback();
    } catch (error) {
      logServerError(error, { path: "after-commit" });
    }
  }
}

/**
 * A query made from the async context of a transaction that has ended. Under test (vitest) it
 * throws, so the test that set it off fails; in a running site it is logged as an error and the
 * query goes to the engine's own handle, never to the connection the transaction had.
 */
export function usedAfterEnd(): void {
  const error = new Error(
    "A query ran in the async context of a transaction that has ended: work a transaction sets off must wait for afterCommit (CONTRACT.md §11)",
  );
  if (process.env.VITEST) throw error;
  logServerError(error, { path: "after-commit" });
}

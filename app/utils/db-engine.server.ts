import type { SqliteRemoteDatabase } from "drizzle-orm/sqlite-proxy";
import type * as schema from "#db/schema";

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
  /** Rows of a hand-written query, as objects keyed by column alias. */
  rows<T>(source: string, params: Params): Promise<T[]>;
  /** A number every committed write moves on, on every node (page validators, trending). */
  dataVersion(): Promise<number>;
  /** Close the connections (graceful shutdown). */
  close(): Promise<void>;
}

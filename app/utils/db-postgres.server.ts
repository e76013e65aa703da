import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import type { DB, Engine, Params } from "./db-engine.server";
import { logger } from "./logger.server";

/**
 * PostgreSQL 15+ (CONTRACT.md §9, docs/decisions/0061-one-data-layer-two-engines.md): a pool of
 * connections per process, any number of processes on any number of machines.
 *
 * - Transactions are SERIALIZABLE: what one checked still holds when it commits, or the server
 *   refuses it (40001, or a deadlock 40P01) and it runs again from the start, a few times with a
 *   short random wait. Inside one, `db` and the hand-written queries go through its connection
 *   (an async context, as on SQLite), so a model's checks read what the transaction sees.
 * - Big integers come back as numbers (counts and millisecond times, all far below 2^53).
 * - Migrations (db/migrations-pg) run at start-up under an advisory lock, so nodes starting together
 *   apply each once.
 * - A connection the server drops is replaced by the pool; until the server answers again, queries
 *   fail (a 503 on /healthz, the error page on others) and the node recovers by itself.
 */
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/** drizzle's handle, typed as the models see it (db-engine.server.ts). */
const asDB = (handle: unknown) => handle as DB;

/** Serialization failure and deadlock: the transaction may simply run again. */
const RETRYABLE = new Set(["40001", "40P01"]);
const ATTEMPTS = 10;
const MIGRATION_LOCK = 7_242_025;

type Open = { client: pg.PoolClient; db: DB; savepoints: number };

/** `@name` and `?` placeholders (the SQLite spelling of hand-written queries) as PostgreSQL's `$n`. */
export function positional(source: string, params: Params): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const named = new Map<string, number>();
  let next = 0;
  // Quoted strings and identifiers are copied as they are; only placeholders outside them change.
  const text = source.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|::|@([A-Za-z_][A-Za-z0-9_]*)|\?/g, (match, name: string | undefined) => {
    if (match.startsWith("'") || match.startsWith('"') || match === "::") return match;
    if (name !== undefined) {
      if (Array.isArray(params) || !(name in params)) throw new Error(`No value for @${name}`);
      let index = named.get(name);
      if (index === undefined) {
        values.push(params[name]);
        index = values.length;
        named.set(name, index);
      }
      return `$${index}`;
    }
    if (!Array.isArray(params)) throw new Error("A ? placeholder needs positional parameters");
    values.push(params[next++]);
    return `$${values.length}`;
  });
  return { text, values };
}

/**
 * Apply db/migrations-pg on one connection, under an advisory lock so processes starting together
 * apply each once. Used at start-up and by the move from SQLite (db-move.server.ts).
 */
export async function migratePostgres(client: pg.Client | pg.PoolClient): Promise<void> {
  await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
  try {
    await migrate(drizzle(client), { migrationsFolder: path.resolve(process.cwd(), "db/migrations-pg") });
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
  }
}

export async function openPostgres(url: string, poolSize: number): Promise<Engine> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 30_000 });
  // An idle connection the server closed (a restart, a failover): the pool drops it and opens another when asked.
  pool.on("error", (error) => logger.warn({ err: error }, "PostgreSQL connection lost; the pool will reconnect"));

  const setup = await pool.connect();
  try {
    await migratePostgres(setup);
  } finally {
    setup.release();
  }

  const root = asDB(drizzle(pool));
  const context = new AsyncLocalStorage<Open>();

  async function savepoint<T>(open: Open, work: (tx: DB) => Promise<T>): Promise<T> {
    const name = `sp${++open.savepoints}`;
    await open.client.query(`SAVEPOINT ${name}`);
    try {
      const result = await work(open.db);
      await open.client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await open.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
      throw error;
    }
  }

  return {
    name: "postgres",
    current: () => context.getStore()?.db ?? root,
    outside: (fn) => context.exit(fn),
    async transaction<T>(work: (tx: DB) => Promise<T>): Promise<T> {
      const open = context.getStore();
      if (open) return savepoint(open, work);
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect();
        let broken: Error | undefined;
        try {
          await client.query("BEGIN ISOLATION LEVEL SERIALIZABLE");
          const tx: Open = { client, db: asDB(drizzle(client)), savepoints: 0 };
          const result = await context.run(tx, () => work(tx.db));
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch((rollbackError: Error) => (broken = rollbackError));
          const code = (error as { code?: string }).code;
          if (code && RETRYABLE.has(code) && attempt < ATTEMPTS) {
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
            continue;
          }
          throw error;
        } finally {
          client.release(broken);
        }
      }
    },
    async rows<T>(source: string, params: Params): Promise<T[]> {
      const { text, values } = positional(source, params);
      const result = await (context.getStore()?.client ?? pool).query(text, values);
      return result.rows as T[];
    },
    async dataVersion() {
      const result = await (context.getStore()?.client ?? pool).query<{ last_value: number }>("SELECT last_value FROM data_version");
      return result.rows[0]?.last_value ?? 0;
    },
    close: () => pool.end(),
  };
}

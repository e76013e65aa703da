import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { runAll, TransactionScope, usedAfterEnd, type DB, type Engine, type Params } from "./db-engine.server";
import { AppError } from "../errors";
import { logger } from "../logger.server";

/**
 * PostgreSQL 15+ (CONTRACT.md §9, docs/decisions/0061-one-data-layer-two-engines.md): a pool of
 * connections per process, any number of processes on any number of machines.
 *
 * - Transactions are SERIALIZABLE: what one checked still holds when it commits, or the server
 *   refuses it (40001, or a deadlock 40P01) and it runs again from the start, up to `ATTEMPTS`
 *   times after a random wait that doubles each time (`retryDelayMs`). One that was refused
 *   `ALONE_AFTER` times runs again alone (`WRITE_TURN`), so no write starves under a steady stream of
 *   others. Inside one, `db` and the hand-written queries go through its connection
 *   (an async context, as on SQLite), so a model's checks read what the transaction sees.
 * - Big integers come back as numbers (counts and millisecond times, all far below 2^53).
 * - Migrations (db/migrations-pg) run at start-up under an advisory lock, so nodes starting together
 *   apply each once.
 * - A connection the server drops is replaced by the pool; until the server answers again, queries
 *   fail with a lost-connection error (`isConnectionLoss`): /healthz says 503, pages and /api/* answer
 *   503 with `DATABASE_UNAVAILABLE` (entry.server.tsx, api.server.ts), and the node recovers by
 *   itself. A connection lost inside a transaction loses the whole transaction (the server rolls
 *   it back): no half-written rows. The loss and the return are logged once each, not per request.
 */
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/** drizzle's handle, typed as the models see it (db-engine.server.ts). */
const asDB = (handle: unknown) => handle as DB;

/** Serialization failure and deadlock: the transaction may simply run again. */
const RETRYABLE = new Set(["40001", "40P01"]);
const ATTEMPTS = 20;
/**
 * The wait before attempt `attempt + 1`: random (the transactions that collided do not collide again
 * in step), up to 5 ms doubled with every attempt, at most 1 s. A fixed short wait let 16 writers on
 * a few hot rows (tests/integration/concurrent-writes.test.ts, two processes) use up all their
 * attempts and answer 500; doubling spreads the retries out until one of them gets through.
 */
const retryDelayMs = (attempt: number) => Math.random() * Math.min(5 * 2 ** (attempt - 1), 1_000);
const MIGRATION_LOCK = 7_242_025;
/**
 * Waits and retries alone do not bound a write's wait: under a steady stream of writers on a few hot
 * rows and index pages (predicate locks on a small table's index are taken per page), an unlucky
 * transaction could be refused every time and answer 500 after its last attempt (CI saw one in 16
 * writers' race, tests/integration/concurrent-writes.test.ts). So every write transaction takes this
 * advisory lock shared, in the same round trip as BEGIN, and one refused `ALONE_AFTER` times takes it
 * exclusive before it begins: it waits for the writes under way to end, the writes that begin
 * meanwhile wait for it (PostgreSQL queues a shared request behind a waiting exclusive one), and its
 * snapshot, taken after the lock, overlaps no serializable transaction that has read or written
 * anything, so none can make it fail. Reads outside a transaction take no lock and never wait. (A
 * lone transaction can still be refused for a row that a statement outside any transaction updated
 * after its snapshot: it runs alone again.)
 */
export const WRITE_TURN = 7_242_026;
export const ALONE_AFTER = 3;
const BEGIN_SHARED = `BEGIN ISOLATION LEVEL SERIALIZABLE; SELECT pg_advisory_xact_lock_shared(${WRITE_TURN})`;

type Open = { client: pg.PoolClient; db: DB; savepoints: number; scope: TransactionScope };

/** What a page or a call says while the database cannot be reached (a 503 with Retry-After). */
export const DATABASE_UNAVAILABLE = "The database is not answering just now. Please try again in a moment.";
/** Seconds a client is asked to wait before trying again. */
export const DATABASE_RETRY_AFTER_S = 5;

/**
 * The server's SQLSTATE for a failed statement. drizzle wraps the driver's error in its own
 * ("Failed query: …", the driver's in `cause`), so look through the wrapping: a serialization
 * failure raised by a drizzle statement must still be retried.
 */
export function sqlStateOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/** Node's network errors when the server cannot be reached or the link dies. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
/**
 * PostgreSQL's own: class 08 (connection exception), the server shutting down or starting
 * (57P01–57P03), and no connection slot left (53300).
 */
const SERVER_CODES = /^(08...|57P0[123]|53300)$/;
/** node-postgres says these in words only (no code). */
const DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Connection terminated due to connection timeout/i;

/**
 * Did this fail because the database could not be reached or the connection died (not because of
 * what was asked)? Looks through drizzle's wrapping (`cause`) and Node's multi-address connect
 * failures (`errors`).
 */
export function isConnectionLoss(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  if (error instanceof AppError) return error.status === 503 && error.message === DATABASE_UNAVAILABLE;
  const { code, cause, errors, message } = error as { code?: unknown; cause?: unknown; errors?: unknown; message?: unknown };
  if (typeof code === "string" && (NETWORK_CODES.has(code) || SERVER_CODES.test(code))) return true;
  if (typeof message === "string" && DRIVER_MESSAGES.test(message)) return true;
  if (Array.isArray(errors) && errors.some((inner) => isConnectionLoss(inner, depth + 1))) return true;
  return isConnectionLoss(cause, depth + 1);
}

/** The family's error for a lost database (errors.ts): a 503 that asks to come back in a few seconds. */
export const databaseUnavailable = (cause?: unknown) => {
  const error = new AppError(503, DATABASE_UNAVAILABLE, { retryAfter: DATABASE_RETRY_AFTER_S });
  if (cause !== undefined) Object.assign(error, { cause });
  return error;
};

/**
 * The data version and, in the same statement and read after it, whether a transaction that moved
 * it on is still open. The version is a sequence (db/migrations-pg/0001), and a sequence is not
 * transactional: a write's triggers move it on before the write commits, so a reader could take the
 * new version while the new rows are still invisible, draw the old page under it, and the visitor
 * cache and validators would keep that page until the next write or the minute. `nextval` holds
 * the sequence's RowExclusiveLock until its transaction ends, and a commit is visible before its
 * locks go: no such lock held by another session, read after the version, means every write the
 * version counts is visible. (The correlated `v.last_value` makes the lock check run after the
 * sequence is read; pg_locks lists every database's locks, and databases copied from one template
 * share relation ids, hence the database. A fresh sequence says 1 before its first `nextval` as after it: `is_called`
 * tells them apart.)
 */
const VERSION_SQL = `SELECT CASE WHEN v.is_called THEN v.last_value ELSE 0 END AS version, EXISTS (
    SELECT 1 FROM pg_locks l
    WHERE l.locktype = 'relation' AND l.relation = 'data_version'::regclass AND l.mode = 'RowExclusiveLock'
      AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND l.pid <> pg_backend_pid() AND v.last_value IS NOT NULL
  ) AS writing
  FROM data_version v`;
/** Prepared once per connection. */
const VERSION_QUERY = { name: "whitetail_data_version", text: VERSION_SQL };

/**
 * A version no page was or will be drawn under: what a reader gets while a counted write is still
 * open. Its pages are drawn afresh and never answered from a cache or with a 304 (the write is seen
 * once it commits).
 */
const uncommittedVersion = () => -1 - Math.floor(Math.random() * 2 ** 52);

/**
 * Reads shared by the callers who ask while one is under way, without ever answering a caller with
 * a read that began before it asked: such a caller waits for the next read, which starts when the
 * current one ends and serves everyone who asked meanwhile. So each answer is as fresh as a read of
 * its own (a write committed before the request arrived is always seen), and under load one query
 * serves many requests (measured in docs/caching.md).
 */
export function sharedReads<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  let next: Promise<T> | null = null;
  const start = (): Promise<T> => {
    const current: Promise<T> = read().finally(() => {
      if (running === current) running = null;
    });
    running = current;
    return current;
  };
  return () => {
    if (!running) return start();
    next ??= running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        next = null;
        return start();
      });
    return next;
  };
}

/** Logs the loss of the database once, and its return once, however many requests meet it meanwhile. */
function outageLog() {
  let lostSince: number | null = null;
  return {
    failed(error: unknown) {
      if (lostSince !== null || !isConnectionLoss(error)) return;
      lostSince = Date.now();
      logger.error({ err: error }, "PostgreSQL is not answering; requests get 503 until it does");
    },
    answered() {
      if (lostSince === null) return;
      logger.info({ downMs: Date.now() - lostSince }, "PostgreSQL answers again");
      lostSince = null;
    },
  };
}

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

async function readVersion(client: pg.Pool | pg.PoolClient): Promise<number> {
  const result = await client.query<{ version: number | null; writing: boolean }>(VERSION_QUERY);
  const row = result.rows[0];
  if (!row) return 0;
  return row.writing ? uncommittedVersion() : (row.version ?? 0);
}

export async function openPostgres(url: string, poolSize: number): Promise<Engine> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    // A link that dies without a word (a cable, a firewall) is noticed by TCP keepalive, not never.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  const outage = outageLog();
  // An idle connection the server closed (a restart, a failover, a lost link): the pool drops it and
  // opens another when asked. Without this listener the 'error' would end the process.
  pool.on("error", (error) => outage.failed(error));
  // Every query outside a transaction (drizzle's, the hand-written ones, the data version) goes
  // through pool.query: the loss and the return of the database are noted there.
  const poolQuery = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    const result = poolQuery(...args);
    if (!(result instanceof Promise)) return result;
    return result.then(
      (value: unknown) => {
        outage.answered();
        return value;
      },
      (error: unknown) => {
        outage.failed(error);
        throw error;
      },
    );
  }) as typeof pool.query;
  /** A connection of the transaction's own, noted like pool.query. */
  const connect = () =>
    pool.connect().then(
      (client) => {
        outage.answered();
        return client;
      },
      (error: unknown) => {
        outage.failed(error);
        throw error;
      },
    );

  const setup = await pool.connect();
  try {
    await migratePostgres(setup);
  } finally {
    setup.release();
  }

  const root = asDB(drizzle(pool));
  const sharedVersion = sharedReads(() => readVersion(pool));
  const context = new AsyncLocalStorage<Open>();

  /** The caller's open transaction; one that has ended is refused (usedAfterEnd) and the pool answers. */
  function live(): Open | undefined {
    const open = context.getStore();
    if (!open?.scope.ended) return open;
    usedAfterEnd();
    return undefined;
  }
  // Not context.exit: in Node 20 that clears the store for fn's synchronous part only, and whatever fn
  // starts (a delivery run's later awaits) comes back in the transaction's context.
  const outside = <T>(fn: () => T): T => context.run(undefined as unknown as Open, fn);

  async function savepoint<T>(open: Open, work: (tx: DB) => Promise<T>): Promise<T> {
    const name = `sp${++open.savepoints}`;
    const mark = open.scope.mark();
    await open.client.query(`SAVEPOINT ${name}`);
    try {
      const result = await work(open.db);
      await open.client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await open.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
      open.scope.rollbackTo(mark);
      throw error;
    }
  }

  return {
    name: "postgres",
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize }),
    current: () => live()?.db ?? root,
    outside,
    afterCommit(fn) {
      const open = live();
      if (open) open.scope.add(fn);
      else outside(() => runAll([fn]));
    },
    async transaction<T>(work: (tx: DB) => Promise<T>): Promise<T> {
      const open = live();
      if (open) return savepoint(open, work);
      for (let attempt = 1; ; attempt++) {
        const client = await connect();
        let broken: Error | undefined;
        // A checked-out connection has no listener of the pool's: one that dies between two
        // statements would otherwise throw an unhandled 'error' and end the process. The statement
        // that comes next fails instead, and the server rolls the transaction back.
        const lost = (error: Error) => {
          broken = error;
          outage.failed(error);
        };
        client.on("error", lost);
        const alone = attempt > ALONE_AFTER;
        const scope = new TransactionScope();
        let committed = false;
        // Before the wait for another attempt. A failure leaves the connection to be closed, which ends the lock.
        const unlock = () =>
          client.query(`SELECT pg_advisory_unlock(${WRITE_TURN})`).then(
            () => undefined,
            (error: Error) => void (broken = error),
          );
        try {
          // The lock held for the session, so BEGIN and its snapshot come after the wait.
          if (alone) await client.query(`SELECT pg_advisory_lock(${WRITE_TURN})`);
          await client.query(alone ? "BEGIN ISOLATION LEVEL SERIALIZABLE" : BEGIN_SHARED);
          const tx: Open = { client, db: asDB(drizzle(client)), savepoints: 0, scope };
          const result = await context.run(tx, () => work(tx.db));
          await client.query("COMMIT");
          committed = true;
          if (alone) await unlock();
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch((rollbackError: Error) => (broken = rollbackError));
          if (alone) await unlock();
          const code = sqlStateOf(error);
          if (code && RETRYABLE.has(code) && attempt < ATTEMPTS) {
            await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt)));
            continue;
          }
          throw error;
        } finally {
          client.removeListener("error", lost);
          client.release(broken);
          // Once the connection is back in the pool: what the commit sets off takes one of its own.
          scope.end(committed, outside);
        }
      }
    },
    async rows<T>(source: string, params: Params): Promise<T[]> {
      const { text, values } = positional(source, params);
      const result = await (live()?.client ?? pool).query(text, values);
      return result.rows as T[];
    },
    dataVersion() {
      const open = live();
      // Inside a transaction: what it sees, its own writes included.
      return open ? readVersion(open.client) : sharedVersion();
    },
    close: () => pool.end(),
  };
}

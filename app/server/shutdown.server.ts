import { logger } from "~/utils/logger.server";
import { isDraining, requestsInFlight, startDraining, whenIdle } from "./request-log.server";

/**
 * A clean stop on SIGTERM or SIGINT (docs/decisions/0040-health-logs-backups-shutdown.md).
 * The server stops taking connections (request-log.server.ts `startDraining`), every answer
 * from now on close its connection, lets `/healthz` say 503 so a proxy stops sending, waits for the
 * requests in flight to be answered (up to `graceMs`), then closes the database (on SQLite, after
 * checkpointing the WAL into the file) and exits 0. A second signal while waiting stops at once.
 */
export const SHUTDOWN_GRACE_MS = 10_000;

export type ShutdownDeps = {
  /** Close the database: db.server.ts `closeDatabase`. */
  closeDatabase: () => Promise<void>;
  /** Timers and jobs to stop first (scheduled backups, upload pruning). */
  stopJobs?: () => void;
  graceMs?: number;
  exit?: (code: number) => void;
};

export async function shutDown(
  signal: string,
  { closeDatabase, stopJobs, graceMs = SHUTDOWN_GRACE_MS, exit = process.exit }: ShutdownDeps,
) {
  // The server takes no new connections; those open close once idle or answered.
  startDraining();
  logger.info({ signal, inFlight: requestsInFlight() }, "shutting down");
  stopJobs?.();
  const idle = await whenIdle(graceMs);
  if (!idle) logger.warn({ inFlight: requestsInFlight(), graceMs }, "requests still in flight after the grace period");
  try {
    await closeDatabase();
  } catch (error) {
    // SQLite: another process on the same file may hold a reader, and its own stop checkpoints what is left.
    logger.warn({ err: error }, "database close on shutdown incomplete");
  }
  logger.info({ signal }, "stopped");
  logger.flush();
  exit(0);
}

let installed = false;
/** Installed from startup.server.ts, once per process. */
export function installShutdown(deps: ShutdownDeps) {
  if (installed) return;
  installed = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (isDraining()) {
        logger.warn({ signal }, "second signal: stopping now");
        (deps.exit ?? process.exit)(1);
        return;
      }
      void shutDown(signal, deps);
    });
  }
}

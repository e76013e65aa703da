import { seedDemoIfEmpty } from "#db/seed-demo";
import { closeDatabase, db, writeTransaction } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { startJobs } from "./jobs.server";
import { registerJobMetrics } from "./jobs-metrics.server";
import { installShutdown } from "./shutdown.server";

/**
 * Imported by entry.server, so before server.js starts the HTTP server (node-server.server.ts): the
 * environment is parsed, the database opened and migrated and the demo content seeded (SEED_DEMO=1)
 * before the first request.
 * Then every background job starts, from the one list in jobs.server.ts (deliveries, fan-outs,
 * digests, prunes, the variant backfill, backups; ADR 0070). Operators (ADR 0040): a JSON log line
 * per request, and a clean stop on SIGTERM/SIGINT (shutdown.server.ts) that stops the jobs too.
 */
if (env.SEED_DEMO) {
  const seeded = await seedDemoIfEmpty(db, writeTransaction);
  if (seeded) logger.info("Seeded demo content (SEED_DEMO=1).");
}

// Every background job, from the one list (jobs.server.ts), stopped together on SIGTERM.
const stopJobs = startJobs();
registerJobMetrics();
installShutdown({ closeDatabase, stopJobs });

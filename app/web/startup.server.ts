import { seedDemoIfEmpty } from "#db/seed-demo";
import { scheduleUploadPruning } from "~/models/media.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { installHttpEdge } from "./http-edge.server";
import { installRequestLog } from "./request-log.server";
import { installServerTimeouts } from "./server-timeouts.server";

/**
 * Imported by entry.server: the environment is parsed, the database opened and migrated, the
 * HTTP edge and the slow-client limits installed (http-edge.server.ts, server-timeouts.server.ts) and the demo content seeded (SEED_DEMO=1) before the
 * first request.
 * Uploads nobody published are cleared out now and every few hours, never inside a request.
 * Operators (ADR 0040): a JSON log line per request.
 */
await installHttpEdge();
installServerTimeouts();
installRequestLog();

if (env.SEED_DEMO) {
  const seeded = await seedDemoIfEmpty(db);
  if (seeded) logger.info("Seeded demo content (SEED_DEMO=1).");
}

scheduleUploadPruning();

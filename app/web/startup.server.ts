import { seedDemoIfEmpty } from "#db/seed-demo";
import { scheduleUploadPruning } from "~/models/media.server";
import { scheduleVariantBackfill } from "~/models/media-variants.server";
import { scheduleResumablePruning } from "~/models/resumable-upload.server";
import { scheduleBackups } from "~/utils/backup.server";
import { db, sqlite } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { logger, logServerError } from "~/utils/logger.server";
import { installHttpEdge } from "./http-edge.server";
import { installRequestLog } from "./request-log.server";
import { installServerTimeouts } from "./server-timeouts.server";
import { installShutdown } from "./shutdown.server";

/**
 * Imported by entry.server: the environment is parsed, the database opened and migrated, the
 * HTTP edge and the slow-client limits installed (http-edge.server.ts, server-timeouts.server.ts) and the demo content seeded (SEED_DEMO=1) before the
 * first request.
 * Uploads nobody published, and resumable uploads left unfinished for a day, are cleared out now and
 * every few hours, never inside a request; images stored before a variant width was added get it now
 * (ADR 0036). Operators (ADR 0040): a JSON log line per request, backups every BACKUP_INTERVAL_HOURS
 * when set, and a clean stop on SIGTERM/SIGINT (shutdown.server.ts).
 */
await installHttpEdge();
installServerTimeouts();
installRequestLog();

if (env.SEED_DEMO) {
  const seeded = await seedDemoIfEmpty(db);
  if (seeded) logger.info("Seeded demo content (SEED_DEMO=1).");
}

const stopPruning = scheduleUploadPruning();
const stopResumablePruning = scheduleResumablePruning();
scheduleVariantBackfill();
const stopBackups = scheduleBackups(sqlite, env, {
  done: ({ file, pruned, bucket }) => logger.info({ file, pruned: pruned.length, bucket: bucket?.database }, "backup taken"),
  failed: (error) => logServerError(error, { path: "backup" }),
});
installShutdown({
  sqlite,
  stopJobs: () => {
    stopPruning();
    stopResumablePruning();
    stopBackups();
  },
});

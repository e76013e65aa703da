import http from "node:http";
import { seedDemoIfEmpty } from "#db/seed-demo";
import { scheduleUploadPruning } from "~/models/media.server";
import { scheduleVariantBackfill } from "~/models/media-variants.server";
import { scheduleDigests } from "~/models/notification-mail.server";
import { scheduleDeliveries } from "~/models/notification-delivery.server";
import { scheduleFanouts } from "~/models/notification-fanout.server";
import { scheduleActPruning } from "~/models/notification.server";
import { scheduleResumablePruning } from "~/models/resumable-upload.server";
import { scheduleBackups } from "~/utils/backup.server";
import { closeDatabase, db, sqlite, writeTransaction } from "~/utils/db.server";
import { env, listenAddress } from "~/utils/env.server";
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
 * (ADR 0036). Notification digests that are due go every 15 minutes where SMTP is configured
 * (CONTRACT.md §7); the 24-hour memory of who was told of which act is pruned every hour. Operators (ADR 0040): a JSON log line per request, backups every BACKUP_INTERVAL_HOURS
 * when set, and a clean stop on SIGTERM/SIGINT (shutdown.server.ts).
 */
await installHttpEdge();
installServerTimeouts();
announceListenAddress();
installRequestLog();

if (env.SEED_DEMO) {
  const seeded = await seedDemoIfEmpty(db, writeTransaction);
  if (seeded) logger.info("Seeded demo content (SEED_DEMO=1).");
}

const stopPruning = scheduleUploadPruning();
const stopResumablePruning = scheduleResumablePruning();
scheduleVariantBackfill();
const stopDigests = scheduleDigests();
const stopDeliveries = scheduleDeliveries();
const stopFanouts = scheduleFanouts();
const stopActPruning = scheduleActPruning();
const stopBackups = scheduleBackups(sqlite, env, {
  done: ({ file, pruned, bucket }) => logger.info({ file, pruned: pruned.length, bucket: bucket?.database }, "backup taken"),
  failed: (error) => logServerError(error, { path: "backup" }),
});
installShutdown({
  closeDatabase,
  stopJobs: () => {
    stopPruning();
    stopResumablePruning();
    stopDigests();
    stopDeliveries();
    stopFanouts();
    stopActPruning();
    stopBackups();
  },
});

/**
 * Where the server listens (security-2 N5). remix-serve imports this build before it listens and
 * then reads `process.env.HOST`: behind a reverse proxy that is loopback unless HOST says otherwise
 * (env.server.ts `listenAddress`). One line says where, and why, once the server is listening.
 */
function announceListenAddress() {
  const { host, why } = listenAddress(env);
  if (host) process.env.HOST = host;
  else delete process.env.HOST;
  const proto = http.Server.prototype as unknown as { listen: (...args: unknown[]) => unknown; __announced?: boolean };
  if (proto.__announced) return;
  proto.__announced = true;
  const listen = proto.listen;
  proto.listen = function listenAndAnnounce(this: http.Server, ...args: unknown[]) {
    this.once("listening", () => {
      const address = this.address();
      if (!address || typeof address === "string") return;
      const where = address.address.includes(":") ? `[${address.address}]` : address.address;
      logger.info({ address: address.address, port: address.port }, `Listening on http://${where}:${address.port} (${why})`);
    });
    return listen.apply(this, args);
  };
}

import http from "node:http";
import { seedDemoIfEmpty } from "#db/seed-demo";
import { closeDatabase, db, writeTransaction } from "~/utils/db.server";
import { env, listenAddress } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { installHttpEdge } from "./http-edge.server";
import { startJobs } from "./jobs.server";
import { registerJobMetrics } from "./jobs-metrics.server";
import { installRequestLog, learnRoutes, type ManifestRoute } from "./request-log.server";
import { installServerTimeouts } from "./server-timeouts.server";
import { installShutdown } from "./shutdown.server";

/**
 * Imported by entry.server: the environment is parsed, the database opened and migrated, the
 * HTTP edge and the slow-client limits installed (http-edge.server.ts, server-timeouts.server.ts) and the demo content seeded (SEED_DEMO=1) before the
 * first request.
 * Then every background job starts, from the one list in jobs.server.ts (deliveries, fan-outs,
 * digests, prunes, the variant backfill, backups; ADR 0070). Operators (ADR 0040): a JSON log line
 * per request, and a clean stop on SIGTERM/SIGINT (shutdown.server.ts) that stops the jobs too.
 */
await installHttpEdge();
installServerTimeouts();
announceListenAddress();
installRequestLog();

if (env.SEED_DEMO) {
  const seeded = await seedDemoIfEmpty(db, writeTransaction);
  if (seeded) logger.info("Seeded demo content (SEED_DEMO=1).");
}

// Every background job, from the one list (jobs.server.ts), stopped together on SIGTERM.
const stopJobs = startJobs();
registerJobMetrics();
// /metrics names each request's route from the build's own route list (this module is bundled
// into the server build: its address is the build's; run from source, there is none).
void import(/* @vite-ignore */ import.meta.url)
  .then((build: { routes?: Record<string, ManifestRoute> }) => build.routes && learnRoutes(build.routes))
  .catch(() => undefined);
installShutdown({ closeDatabase, stopJobs });

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

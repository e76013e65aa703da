import { seedDemoIfEmpty } from "#db/seed-demo";
import { scheduleUploadPruning } from "~/models/media.server";
import { scheduleVariantBackfill } from "~/models/media-variants.server";
import { scheduleResumablePruning } from "~/models/resumable-upload.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { installHttpEdge } from "./http-edge.server";
import { installServerTimeouts } from "./server-timeouts.server";

/**
 * Imported by entry.server: the environment is parsed, the database opened and migrated, the
 * HTTP edge and the slow-client limits installed (http-edge.server.ts, server-timeouts.server.ts) and the demo content seeded (SEED_DEMO=1) before the
 * first request.
 * Uploads nobody published, and resumable uploads left unfinished for a day, are cleared out now and
 * every few hours, never inside a request; images stored before a variant width was added get it now
 * (ADR 0036).
 */
await installHttpEdge();
installServerTimeouts();

if (env.SEED_DEMO) {
  const seeded = await seedDemoIfEmpty(db);
  if (seeded) console.log("Seeded demo content (SEED_DEMO=1).");
}

scheduleUploadPruning();
scheduleResumablePruning();
scheduleVariantBackfill();

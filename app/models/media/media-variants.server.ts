import { eq } from "drizzle-orm";
import { media } from "#db/schema";
import { db } from "~/utils/db.server";
import { VARIANT_TARGETS, variantKey } from "~/utils/media/image-sources";
import { variantsOfStored, type VariantTarget } from "~/utils/media/media-processing.server";
import { logger } from "~/utils/logger.server";
import { getStorage, type MediaStorage } from "~/utils/media/storage.server";
import { runOnce } from "~/utils/jobs.server";

/**
 * Uploads from before a variant width was added (or before variants carried their size) are
 * brought up to date at start-up, in the background: the missing variants are made from the stored
 * full-size picture and each variant gets its size in bytes
 * (docs/decisions/0036-right-sized-images-and-data-saver.md). Never on a GET: with S3_PUBLIC_URL
 * browsers load media straight from the bucket, so there is no request to make one on.
 */

type MediaRow = typeof media.$inferSelect;
type StoredVariant = NonNullable<MediaRow["variants"]>[number];

const baseOf = (storageKey: string) => storageKey.replace(/\.[a-z0-9]+$/i, "");

/** The variant widths an image row lacks, and whether any variant it has lacks its size. */
export function variantWork(row: Pick<MediaRow, "storageKey" | "variants">): { missing: VariantTarget[]; unsized: boolean } {
  const base = baseOf(row.storageKey);
  const have = new Set((row.variants ?? []).map((v) => v.key));
  return {
    missing: VARIANT_TARGETS.filter((target) => !have.has(variantKey(base, target))),
    unsized: (row.variants ?? []).some((v) => v.size === undefined),
  };
}

async function readAll(storage: MediaStorage, key: string): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const reader = (await storage.read(key)).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return Buffer.concat(chunks);
    chunks.push(value);
  }
}

/** Brings one image row up to date; false when there was nothing to do. */
async function backfillRow(row: MediaRow, storage: MediaStorage): Promise<boolean> {
  const { missing, unsized } = variantWork(row);
  if (!missing.length && !unsized) return false;
  const base = baseOf(row.storageKey);
  const variants: StoredVariant[] = [];
  for (const v of row.variants ?? []) {
    variants.push(v.size === undefined ? { ...v, size: (await storage.stat(v.key))?.size ?? 0 } : v);
  }
  const written: string[] = [];
  if (missing.length) {
    const made = await variantsOfStored(await readAll(storage, row.storageKey), missing);
    for (const variant of made) {
      const key = variantKey(base, variant.target);
      await storage.put(key, variant.data, { contentType: variant.contentType });
      written.push(key);
      variants.push({ width: variant.width, height: variant.height, url: storage.publicUrl(key), key, size: variant.data.byteLength });
    }
  }
  const order = (v: StoredVariant) => VARIANT_TARGETS.findIndex((t) => v.key === variantKey(base, t));
  variants.sort((a, b) => order(a) - order(b));
  const updated = await db.update(media).set({ variants }).where(eq(media.id, row.id)).returning({ id: media.id });
  // Deleted (with its post) while the variants were made: they belong to nothing.
  if (!updated.length) await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)));
  return updated.length > 0;
}

/** Every stored image row, brought up to date one at a time. Returns how many changed. */
export async function backfillVariants(storage: MediaStorage = getStorage()): Promise<number> {
  const rows = await db.select().from(media).where(eq(media.kind, "image"));
  let changed = 0;
  for (const row of rows) {
    try {
      if (await backfillRow(row, storage)) changed++;
    } catch (error) {
      // One unreadable picture must not stop the rest; its page keeps the variants it had.
      logger.warn({ err: error, key: row.storageKey }, "could not make an image's variants");
    }
  }
  return changed;
}

/** At start-up, off the request path (startup.server.ts). Several processes may run it: the result is the same. */
export function scheduleVariantBackfill(storage?: MediaStorage): void {
  runOnce("variant-backfill", async () => {
    const changed = await backfillVariants(storage ?? getStorage());
    if (changed) logger.info({ images: changed }, "made the missing image variants");
  });
}

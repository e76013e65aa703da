import crypto from "node:crypto";
import { and, count, eq, isNull, lt, sum } from "drizzle-orm";
import { media, resumableUploads } from "#db/schema";
import { MAX_UPLOAD_BYTES } from "~/schemas/media";
import { db, first, writeTransaction } from "~/utils/db.server";
import { conflict, forbidden, notFound, tooMany } from "~/utils/errors";
import { runEvery } from "~/utils/jobs.server";
import { checkLimit, consumeLimit, refundHit } from "~/utils/rate-limit.server";
import { getResumableStore, RESUMABLE_EXPIRES_MS, type ResumableStore } from "~/utils/media/tus-store.server";
import { pruneExpiredUploadLocks } from "~/utils/media/upload-lock.server";
import { requireSignedIn, type Queryable, type SignedIn } from "~/models/access.server";
import { storeUpload, toUploadedFile, type StoredMedia } from "./media.server";
import type { Actor } from "~/models/members/user.server";

/**
 * Resumable uploads (tus; docs/decisions/0035-resumable-uploads.md), the domain side: who may start
 * one, who may continue, inspect or cancel it (only the member who started it), what happens when
 * its last byte is in (the very pipeline of /api/upload: storeUpload), and when an unfinished one
 * is thrown away. The tus protocol itself is web/tus.server.ts.
 */

type Row = typeof resumableUploads.$inferSelect;

const NOT_YOURS = "This upload belongs to someone else.";
const GONE = "This upload is no longer here. Choose the file again to upload it.";
const SIGN_IN = "Authentication required. Please log in again.";

/** A new upload id: random, and starting with `_` so it is never a /media storage key. */
export function newResumableId(): string {
  return `_${crypto.randomBytes(16).toString("hex")}`;
}

/**
 * What one member may hold unfinished at once (CONTRACT.md §10, security-2 N2): a phone at the edge
 * of coverage has one or two uploads waiting, rarely more; without a cap, any account could park
 * 50 MB after 50 MB for a day.
 */
export const MAX_OPEN_RESUMABLES = 10;
export const MAX_OPEN_RESUMABLE_BYTES = 500 * 1024 * 1024;

const TOO_MANY_OPEN = "You have too many unfinished uploads. Let them finish, or remove one, before starting another.";
const TOO_MANY_BYTES = `Your unfinished uploads already hold ${MAX_OPEN_RESUMABLE_BYTES / 1024 / 1024}MB. Let them finish, or remove one, before starting another.`;
/** Unfinished uploads free their place within a day at most (RESUMABLE_EXPIRES_MS). */
const OPEN_RETRY_AFTER_S = 15 * 60;

/**
 * May the actor start an upload now? A member only, and one who has not used up the hourly upload
 * limit: a check for the cheap early refusal before tus reads anything (recordResumable counts).
 */
export async function mayStartResumable(actor: Actor): Promise<SignedIn> {
  const me = requireSignedIn(actor, SIGN_IN);
  await checkLimit("uploadsPerUser", String(me.id));
  return me;
}

/** A member's unfinished uploads: how many, and the bytes they declared. */
export async function openResumables(ownerId: number): Promise<{ uploads: number; bytes: number }> {
  const [row] = await db
    .select({ uploads: count(), bytes: sum(resumableUploads.length) })
    .from(resumableUploads)
    .where(and(eq(resumableUploads.ownerId, ownerId), isNull(resumableUploads.mediaId)));
  return { uploads: row?.uploads ?? 0, bytes: Number(row?.bytes ?? 0) };
}

/**
 * Records that `actor` started upload `id` of `length` bytes (undefined: the client deferred the
 * length, so it may grow to the largest file). Called as tus creates it, before a byte is stored.
 * The upload counts against the hourly upload limit now, not when it finishes, so unfinished ones
 * are counted too; and a member holds at most MAX_OPEN_RESUMABLES unfinished uploads of at most
 * MAX_OPEN_RESUMABLE_BYTES together (429 past either). One IMMEDIATE transaction: parallel creates,
 * from any process, cannot slip past the caps together.
 */
export async function recordResumable(actor: Actor, id: string, length: number | undefined): Promise<void> {
  const me = requireSignedIn(actor, SIGN_IN);
  const declared = length ?? MAX_UPLOAD_BYTES;
  await writeTransaction(async () => {
    const open = await openResumables(me.id);
    if (open.uploads >= MAX_OPEN_RESUMABLES) throw tooMany(OPEN_RETRY_AFTER_S, TOO_MANY_OPEN);
    if (open.bytes + declared > MAX_OPEN_RESUMABLE_BYTES) throw tooMany(OPEN_RETRY_AFTER_S, TOO_MANY_BYTES);
    await consumeLimit("uploadsPerUser", String(me.id));
    await db.insert(resumableUploads).values({ id, ownerId: me.id, length: declared });
  });
}

/** The upload, if the actor started it: 401 for visitors, 404 when unknown, 403 for another member's. */
export async function requireOwnResumable(actor: Actor, id: string): Promise<Row> {
  const me = requireSignedIn(actor, SIGN_IN);
  const row = first(await db.select().from(resumableUploads).where(eq(resumableUploads.id, id)));
  if (!row) throw notFound(GONE);
  if (row.ownerId !== me.id) throw forbidden(NOT_YOURS);
  return row;
}

/** The stored file a finished upload became (after a lost reply, the client asks for it again). */
export async function resumableResult(actor: Actor, id: string): Promise<StoredMedia> {
  const row = await requireOwnResumable(actor, id);
  const stored = row.mediaId ? first(await db.select().from(media).where(eq(media.id, row.mediaId))) : undefined;
  if (!stored) throw conflict("The upload is not finished yet.");
  return toUploadedFile(stored);
}

/**
 * The last byte is in: the file goes through storeUpload (size cap, hourly limit, sniffing,
 * metadata stripping, variants), becomes the actor's media row, and its waiting bytes are removed.
 * Done once: a repeated finishing PATCH gets the same file. A refused file (413, 415, 429) is
 * removed with its upload, and the refusal is the answer.
 */
export async function finishResumable(
  actor: Actor,
  id: string,
  filename: string | null | undefined,
  store: ResumableStore = getResumableStore(),
): Promise<StoredMedia> {
  const row = await requireOwnResumable(actor, id);
  const claimed = first(
    await db
      .update(resumableUploads)
      .set({ finishing: true })
      .where(and(eq(resumableUploads.id, row.id), eq(resumableUploads.finishing, false)))
      .returning(),
  );
  if (!claimed) return resumableResult(actor, id);
  try {
    // Counted against the upload limit when it was created (recordResumable).
    const stored = await storeUpload(actor, { filename, data: await store.read(id) }, { counted: true });
    await db.update(resumableUploads).set({ mediaId: stored.id }).where(eq(resumableUploads.id, id));
    return stored;
  } catch (error) {
    await db.delete(resumableUploads).where(eq(resumableUploads.id, id));
    throw error;
  } finally {
    await store.remove(id).catch(() => undefined);
  }
}

/** The member cancelled the upload (tus DELETE removed its bytes): it no longer counts either. */
export async function forgetResumable(actor: Actor, id: string): Promise<void> {
  const row = await requireOwnResumable(actor, id);
  await db.delete(resumableUploads).where(eq(resumableUploads.id, id));
  if (!row.mediaId) await refundHit("uploadsPerUser", String(row.ownerId), row.createdAt.getTime());
}

/** A member's unfinished uploads, read in the transaction that deletes the member (and them with it). */
export async function unfinishedResumableIds(tx: Queryable, ownerId: number): Promise<string[]> {
  const rows = await tx
    .select({ id: resumableUploads.id })
    .from(resumableUploads)
    .where(and(eq(resumableUploads.ownerId, ownerId), isNull(resumableUploads.mediaId)));
  return rows.map((row) => row.id);
}

/** Removes the waiting bytes of uploads whose records are gone: nothing waits a day for the sweep (N18). */
export async function removeResumableBytes(ids: readonly string[], store: ResumableStore = getResumableStore()): Promise<void> {
  for (const id of ids) await store.remove(id).catch(() => undefined);
}

/**
 * Uploads started more than a day ago: unfinished ones lose their bytes (files, or S3 multipart
 * parts and the incomplete part), finished ones only their record (the media row stays, and is
 * pruned like any unpublished upload). Bytes tus holds without a record (a crash between the two)
 * go by the store's own expiry sweep. Returns how many records were removed.
 */
export async function pruneExpiredResumables(store: ResumableStore = getResumableStore(), now = Date.now()): Promise<number> {
  const cutoff = new Date(now - RESUMABLE_EXPIRES_MS);
  const rows = await db.delete(resumableUploads).where(lt(resumableUploads.createdAt, cutoff)).returning();
  for (const row of rows) if (!row.mediaId) await store.remove(row.id).catch(() => undefined);
  await store.deleteExpired().catch(() => 0);
  await pruneExpiredUploadLocks();
  return rows.length;
}

/** Expired uploads are cleared at start-up and then every hour, off the request path. */
export function scheduleResumablePruning({ everyMs = 3_600_000 }: { everyMs?: number } = {}): () => void {
  return runEvery("prune-resumable-uploads", everyMs, () => pruneExpiredResumables());
}

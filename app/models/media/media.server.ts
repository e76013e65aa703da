import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { and, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import { media, users, type MediaKind } from "#db/schema";
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_LABEL } from "~/schemas/media";
import type { MediaVariant, UploadedFile } from "~/schemas/media-options";
import { db, first, queryRow } from "~/utils/db.server";
import { badRequest, isAppError, tooLarge, unsupportedMedia } from "~/utils/errors";
import { requireSignedIn } from "~/models/access.server";
import { processImage, sniffFormat, SNIFF_BYTES, type ImageWork, type SniffedFormat } from "~/utils/media/media-processing.server";
import { AbandonedError } from "~/utils/media/work-queue.server";
import { consumeLimit, refundHit } from "~/utils/rate-limit.server";
import { getStorage, type MediaStorage } from "~/utils/media/storage.server";
import { variantKey } from "~/utils/media/image-sources";
import { runEvery } from "~/utils/jobs.server";
import { logger } from "~/utils/logger.server";
import type { Actor } from "~/models/members/user.server";

/**
 * Uploaded media: stored through the storage (local disk or S3), owned by the member who uploaded
 * it, attached to a post when the post is published, deleted from storage with its post.
 */

type MediaRow = typeof media.$inferSelect;

export type StoredMedia = UploadedFile & { id: number; width?: number; height?: number; variants?: MediaVariant[] };

export type UploadInput = {
  filename: string | null | undefined;
  /** What the browser claims; recorded nowhere and trusted for nothing (the bytes decide). */
  contentType?: string | null;
  data: AsyncIterable<Uint8Array>;
};

export type UploadOptions = {
  purpose?: "post" | "avatar";
  storage?: MediaStorage;
  /** Already counted against the hourly upload limit (a resumable upload counts when it starts). */
  counted?: boolean;
  /** The request's signal: an upload whose client went away before it was stored is not stored (security-2 N10). */
  signal?: AbortSignal;
};

/** An upload no post took within a week is abandoned. */
export const ABANDONED_AFTER_MS = 7 * 24 * 3_600_000;

export const TOO_LARGE_MESSAGE = `File is too large. The limit is ${MAX_UPLOAD_LABEL} per file.`;

/**
 * Reads an upload as it arrives, counting bytes and refusing it (413) the moment it passes the
 * limit. Only `next()` is ever called on the source, so a caller can keep draining it after a
 * refusal (multipart.server.ts does, to read the rest of the form).
 */
class LimitedSource {
  bytes = 0;
  /** Set once the source was refused: whatever a consumer (storage) turns it into, this is the reason. */
  refusal: Error | null = null;
  private readonly it: AsyncIterator<Uint8Array>;
  constructor(
    source: AsyncIterable<Uint8Array>,
    private readonly limit: number,
  ) {
    this.it = source[Symbol.asyncIterator]();
  }

  async next(): Promise<Uint8Array | null> {
    for (;;) {
      const { value, done } = await this.it.next();
      if (done) return null;
      if (!value || value.byteLength === 0) continue;
      this.bytes += value.byteLength;
      if (this.bytes > this.limit) throw (this.refusal = tooLarge(TOO_LARGE_MESSAGE));
      return value;
    }
  }

  /** At least the first `n` bytes (all of them if the file is shorter), as read. */
  async head(n: number): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    while (size < n) {
      const chunk = await this.next();
      if (!chunk) break;
      chunks.push(chunk);
      size += chunk.byteLength;
    }
    return Buffer.concat(chunks);
  }

  /** `head` followed by everything still to come. */
  async *rest(head: Uint8Array): AsyncGenerator<Uint8Array> {
    if (head.byteLength) yield head;
    for (;;) {
      const chunk = await this.next();
      if (!chunk) return;
      yield chunk;
    }
  }
}

/** C0 control characters and DEL: nothing a name shown to people should hold. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** A readable, safe display name: the base name, no control characters, at most 200 characters. */
export function cleanFileName(filename: string | null | undefined, fallback: string): string {
  const base = (filename ?? "").split(/[/\\]/).pop() ?? "";
  const cleaned = base.replace(CONTROL_CHARACTERS, "").trim().slice(0, 200);
  return cleaned || fallback;
}

function newKeyBase(): string {
  const now = new Date();
  const month = String(now.getUTCMonth() + 1).padStart(2, "0");
  return `${now.getUTCFullYear()}/${month}/${crypto.randomBytes(16).toString("hex")}`;
}

/**
 * Is this stored file (an original or one of its variants: they share the random key base) attached
 * to a post in a private club? /media serves those with `private` caching, so no shared cache keeps
 * them (docs/decisions/0022-what-a-private-club-shows-visitors.md). Read through the `media_url` index.
 */
export async function isPrivateClubMedia(key: string, storage: MediaStorage = getStorage()): Promise<boolean> {
  const lo = storage.publicUrl(/^\d{4}\/\d{2}\/[0-9a-f]{32}/.exec(key)?.[0] ?? key);
  // `= TRUE` (not `= 1`): SQLite's 0/1 and PostgreSQL's boolean alike, and SQLite's plan unchanged.
  const row = await queryRow<{ hit: number }>(
    `SELECT 1 AS hit FROM media m JOIN posts p ON p.id = m.post_id JOIN clubs c ON c.id = p.club_id
     WHERE m.url >= @lo AND m.url < @hi AND c.is_private = TRUE LIMIT 1`,
    { lo, hi: `${lo}/` },
  );
  return row !== undefined;
}

/** A variant as pages see it: everything but its storage key. */
export function publicVariant({ width, height, url, size }: NonNullable<MediaRow["variants"]>[number]): MediaVariant {
  return size === undefined ? { width, height, url } : { width, height, url, size };
}

function keysOf(row: Pick<MediaRow, "storageKey" | "variants">): string[] {
  return [row.storageKey, ...(row.variants ?? []).map((v) => v.key)];
}

export function toUploadedFile(row: MediaRow): StoredMedia {
  return {
    id: row.id,
    type: row.kind,
    url: row.url,
    name: row.name,
    ...(row.width ? { width: row.width } : {}),
    ...(row.height ? { height: row.height } : {}),
    ...(row.variants?.length ? { variants: row.variants.map(publicVariant) } : {}),
  };
}

/**
 * Stores one uploaded file for `actor` (CONTRACT.md §4): the kind comes from the first bytes
 * (415 otherwise), the 50 MB limit is enforced while the bytes stream in (413, and nothing is
 * kept), images are stripped of every metadata and get WebP variants. The `media` row is owned by
 * the actor and belongs to no post until a post attaches it. Avatars must be images.
 */
export async function storeUpload(actor: Actor, input: UploadInput, options: UploadOptions = {}): Promise<StoredMedia> {
  const me = requireSignedIn(actor, "Authentication required. Please log in again.");
  const storage = options.storage ?? getStorage();
  const countedAt = Date.now();
  if (!options.counted) await consumeLimit("uploadsPerUser", String(me.id), countedAt);

  const source = new LimitedSource(input.data, MAX_UPLOAD_BYTES);
  const head = await source.head(SNIFF_BYTES);
  if (head.byteLength === 0) throw badRequest("The file is empty.");
  const format = await sniffFormat(head);
  if (options.purpose === "avatar" && format.kind !== "image") throw unsupportedMedia("An avatar must be an image.");

  const base = newKeyBase();
  const name = cleanFileName(input.filename, `${format.kind}.${format.ext}`);
  const written: string[] = [];
  try {
    const values =
      format.kind === "image"
        ? await storeImage(storage, source, head, format, base, written, { owner: me.id, signal: options.signal })
        : await storeStream(storage, source, head, format, base, written);
    if (options.signal?.aborted) throw new AbandonedError();
    const row = first(
      await db
        .insert(media)
        .values({ ownerId: me.id, postId: null, kind: format.kind, name, ...values })
        .returning(),
    )!;
    return toUploadedFile(row);
  } catch (error) {
    await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)));
    // Not taken by the image queue (busy, the member's share full, the client gone): it does not count.
    if (!options.counted && isAppError(error) && (error.status === 429 || error.status === 503)) {
      await refundHit("uploadsPerUser", String(me.id), countedAt);
    }
    // Storage clients wrap or replace a failing body's error (S3's multipart abort, for one).
    throw source.refusal ?? error;
  }
}

/** Where a visitor's shared files wait until they sign in (docs/decisions/0092): /media never serves it. */
export const HELD_PREFIX = "held/";

/** A file held for a visitor's share: its storage key, its display name and its size. */
export type HeldFile = { key: string; name: string; size: number };

/**
 * Holds a file a visitor shared into the site (docs/decisions/0092-share-target.md) until they sign
 * in: refused like any upload before a byte is kept (empty 400, not an image, video or audio 415,
 * over the 50 MB limit 413, and nothing is kept), else kept as sent under `held/`, which /media
 * never serves. It becomes an upload only through storeHeldUpload, under every upload rule.
 */
export async function holdUpload(input: UploadInput, storage: MediaStorage = getStorage()): Promise<HeldFile> {
  const source = new LimitedSource(input.data, MAX_UPLOAD_BYTES);
  const head = await source.head(SNIFF_BYTES);
  if (head.byteLength === 0) throw badRequest("The file is empty.");
  const format = await sniffFormat(head);
  const key = `${HELD_PREFIX}${crypto.randomBytes(16).toString("hex")}.${format.ext}`;
  try {
    const { size } = await storage.put(key, source.rest(head), { contentType: format.contentType });
    return { key, name: cleanFileName(input.filename, `${format.kind}.${format.ext}`), size };
  } catch (error) {
    await storage.delete(key).catch(() => undefined);
    throw source.refusal ?? error;
  }
}

/** A held file becomes the member's upload (storeUpload: the hourly limit, the pipeline), and is let go. */
export async function storeHeldUpload(actor: Actor, held: HeldFile, storage: MediaStorage = getStorage()): Promise<StoredMedia> {
  const data = await storage.read(held.key);
  const stored = await storeUpload(actor, { filename: held.name, data: readableChunks(data) }, { storage });
  await storage.delete(held.key).catch(() => undefined);
  return stored;
}

/** Lets held files go (a share claimed, refused or expired); a storage failure is logged, not thrown. */
export async function releaseHeld(keys: readonly string[], storage: MediaStorage = getStorage()): Promise<void> {
  for (const key of keys) {
    if (!key.startsWith(HELD_PREFIX)) continue;
    await storage.delete(key).catch((error: unknown) => logger.warn({ err: error, key }, "could not delete a held file"));
  }
}

async function* readableChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      if (value) yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

type StoredValues = Pick<MediaRow, "storageKey" | "url" | "mimeType" | "size" | "width" | "height" | "variants">;

/** Video and audio go straight to storage as they arrive; a refusal mid-way leaves no object. */
async function storeStream(
  storage: MediaStorage,
  source: LimitedSource,
  head: Uint8Array,
  format: SniffedFormat,
  base: string,
  written: string[],
): Promise<StoredValues> {
  const key = `${base}.${format.ext}`;
  const { size } = await storage.put(key, source.rest(head), { contentType: format.contentType });
  written.push(key);
  return { storageKey: key, url: storage.publicUrl(key), mimeType: format.contentType, size, width: null, height: null, variants: null };
}

/**
 * Images are spooled to a temporary file (never held whole in memory), then re-encoded by sharp:
 * the stripped picture and its variants are what is stored; the original bytes never are.
 */
async function storeImage(
  storage: MediaStorage,
  source: LimitedSource,
  head: Uint8Array,
  format: SniffedFormat,
  base: string,
  written: string[],
  work: ImageWork,
): Promise<StoredValues> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "whitetail-upload-"));
  const temp = path.join(dir, "original");
  try {
    await pipeline(Readable.from(source.rest(head)), fs.createWriteStream(temp));
    // The queue's share is the member's; a job whose client is gone is dropped, and not stored.
    const processed = await processImage(temp, format, work);
    if (work.signal?.aborted) throw new AbandonedError();

    const key = `${base}.${processed.main.ext}`;
    const { size } = await storage.put(key, processed.main.data, { contentType: processed.main.contentType });
    written.push(key);
    const variants: NonNullable<MediaRow["variants"]> = [];
    for (const variant of processed.variants) {
      const vKey = variantKey(base, variant.target);
      await storage.put(vKey, variant.data, { contentType: variant.contentType });
      written.push(vKey);
      variants.push({
        width: variant.width,
        height: variant.height,
        url: storage.publicUrl(vKey),
        key: vKey,
        size: variant.data.byteLength,
      });
    }
    return {
      storageKey: key,
      url: storage.publicUrl(key),
      mimeType: processed.main.contentType,
      size,
      width: processed.main.width,
      height: processed.main.height,
      variants: variants.length ? variants : null,
    };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Ownership and clean-up. (createPost attaches uploads itself, in its transaction: only the
// author's own files that no post has yet.)

function uniqueUrls(urls: readonly string[] | null | undefined): string[] {
  return [...new Set((urls ?? []).filter((u): u is string => typeof u === "string" && u.length > 0))];
}

/**
 * The actor's own, not yet attached uploads among `urls`: what a create form that failed
 * validation shows again so nothing is lost. Anything else is silently left out.
 */
export async function ownPendingUploads(actor: Actor, urls: readonly string[] | null | undefined): Promise<StoredMedia[]> {
  const wanted = uniqueUrls(urls);
  if (!actor || wanted.length === 0) return [];
  const rows = await db
    .select()
    .from(media)
    .where(and(inArray(media.url, wanted), eq(media.ownerId, actor.id), isNull(media.postId)));
  const order = new Map(wanted.map((url, i) => [url, i]));
  return rows.sort((a, b) => order.get(a.url)! - order.get(b.url)!).map(toUploadedFile);
}

/** The storage objects of these media rows (the picture and its variants), for deleteMediaFiles. */
export type MediaFiles = Pick<MediaRow, "storageKey" | "variants">;

export function mediaFilesOfPost(postId: number): Promise<MediaFiles[]> {
  return db.select({ storageKey: media.storageKey, variants: media.variants }).from(media).where(eq(media.postId, postId));
}

/**
 * Deletes the stored objects of media rows. Called after the transaction that deleted the rows has
 * committed (a failed transaction must not lose files); a storage failure is logged, not thrown:
 * the post is already gone and an orphaned object harms nobody.
 */
export async function deleteMediaFiles(rows: readonly MediaFiles[], storage: MediaStorage = getStorage()): Promise<void> {
  const keys = rows.flatMap(keysOf);
  await Promise.all(
    keys.map((key) =>
      storage.delete(key).catch((error: unknown) => {
        logger.warn({ err: error, key }, "could not delete a media file");
      }),
    ),
  );
}

/**
 * Removes the actor's own unattached uploads (rows and files): a form whose upload was refused.
 * With `refund`, they no longer count against the upload limit either: the request that stored
 * them was refused (a post in a club the member may not post in), so they were never of use.
 */
export async function discardUploads(
  actor: Actor,
  urls: readonly string[],
  storage: MediaStorage = getStorage(),
  { refund = false }: { refund?: boolean } = {},
): Promise<void> {
  const wanted = uniqueUrls(urls);
  if (!actor || wanted.length === 0) return;
  const rows = await db
    .delete(media)
    .where(and(inArray(media.url, wanted), eq(media.ownerId, actor.id), isNull(media.postId)))
    .returning({ storageKey: media.storageKey, variants: media.variants, createdAt: media.createdAt });
  if (refund) for (const row of rows) await refundHit("uploadsPerUser", String(actor.id), row.createdAt.getTime());
  await deleteMediaFiles(rows, storage);
}

/**
 * Uploads nobody published: rows with no post, older than `olderThanMs`, that are not anyone's
 * avatar. Returns how many were removed. Run off the request path (scheduleUploadPruning).
 */
export async function pruneAbandonedUploads(
  olderThanMs = ABANDONED_AFTER_MS,
  storage: MediaStorage = getStorage(),
  now = Date.now(),
): Promise<number> {
  const cutoff = new Date(now - olderThanMs);
  const rows = await db
    .delete(media)
    .where(
      and(
        isNull(media.postId),
        lt(media.createdAt, cutoff),
        sql`${media.url} NOT IN (SELECT ${users.avatar} FROM ${users} WHERE ${users.avatar} IS NOT NULL)`,
      ),
    )
    .returning({ storageKey: media.storageKey, variants: media.variants });
  await deleteMediaFiles(rows, storage);
  return rows.length;
}

/**
 * Clear out abandoned uploads at start-up and then every `everyMs`, in the background (the timer
 * never keeps the process alive). Several processes sharing the database may each run it: a row is
 * deleted, and its files removed, by whichever gets it first. Returns a function that stops it.
 */
export function scheduleUploadPruning({ everyMs = 6 * 3_600_000, storage }: { everyMs?: number; storage?: MediaStorage } = {}): () => void {
  return runEvery("prune-uploads", everyMs, () => pruneAbandonedUploads(ABANDONED_AFTER_MS, storage ?? getStorage()));
}

export type { MediaKind };

import path from "node:path";
import { FileStore } from "@tus/file-store";
import { S3Store } from "@tus/s3-store";
import type { DataStore } from "@tus/server";
import { env, type Env } from "../env.server";
import type { S3StorageOptions } from "./storage.server";

/**
 * Where the bytes of resumable (tus) uploads wait until the last one is in
 * (docs/decisions/0035-resumable-uploads.md): a folder beside UPLOAD_DIR (never inside it, so /media
 * cannot serve half an upload or its `.json` record), or the S3 bucket when S3 is configured.
 * Once finished, the file goes through the media pipeline like any upload and is removed from here.
 */

/** An upload not finished within a day expires: tus answers 410 and the pruning removes its bytes. */
export const RESUMABLE_EXPIRES_MS = 24 * 3_600_000;

/**
 * S3 multipart parts must be at least 5 MiB. The browser sends smaller chunks (512 KB,
 * docs/decisions/0056): tus's S3 store keeps what is short of a part as the upload's "incomplete
 * part" object and prepends it to the next PATCH, so every part but the last is still this size.
 */
export const RESUMABLE_CHUNK_BYTES = 5 * 1024 * 1024;

export type ResumableStore = DataStore & {
  /** The finished upload's bytes. */
  read(id: string): Promise<AsyncIterable<Uint8Array>> | AsyncIterable<Uint8Array>;
  remove(id: string): Promise<void>;
};

export function resumableDirectory(uploadDir: string = env.UPLOAD_DIR): string {
  return path.join(path.dirname(path.resolve(uploadDir)), "resumable-uploads");
}

/**
 * The S3 store, removing everything of an upload: tus's own `remove` leaves the "incomplete part"
 * object (the bytes of a chunk shorter than a part), and a finished upload's object and info.
 */
class S3ResumableStore extends S3Store {
  override async remove(id: string): Promise<void> {
    try {
      await super.remove(id);
    } catch {
      // A finished upload's multipart upload is completed: aborting it fails (NoSuchUpload) before
      // tus deletes the object and its info. Delete them here.
      await this.client.deleteObjects({ Bucket: this.bucket, Delete: { Objects: [{ Key: id }, { Key: this.infoKey(id) }] } });
    } finally {
      await this.deleteIncompletePart(id).catch(() => undefined);
    }
  }
}

export function createResumableStore(options: { directory: string } | { s3: S3StorageOptions }): ResumableStore {
  if ("directory" in options) {
    return new FileStore({ directory: options.directory, expirationPeriodInMilliseconds: RESUMABLE_EXPIRES_MS }) as ResumableStore;
  }
  const { bucket, region, endpoint, accessKeyId, secretAccessKey } = options.s3;
  return new S3ResumableStore({
    partSize: RESUMABLE_CHUNK_BYTES,
    // Expiry is ours (pruneExpiredResumables), not a bucket lifecycle rule on object tags.
    useTags: false,
    expirationPeriodInMilliseconds: RESUMABLE_EXPIRES_MS,
    s3ClientConfig: {
      bucket,
      region,
      // Parts are streamed from files: without this the SDK frames them as aws-chunked with a
      // checksum trailer, which self-hosted S3-compatible servers (s3rver, older MinIO) store verbatim.
      requestChecksumCalculation: "WHEN_REQUIRED",
      ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
      ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
    },
  }) as unknown as ResumableStore;
}

export function resumableStoreFromEnv(e: Env): ResumableStore {
  if (e.S3_BUCKET) {
    return createResumableStore({
      s3: {
        bucket: e.S3_BUCKET,
        region: e.S3_REGION,
        endpoint: e.S3_ENDPOINT,
        accessKeyId: e.S3_ACCESS_KEY_ID,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      },
    });
  }
  return createResumableStore({ directory: resumableDirectory(e.UPLOAD_DIR) });
}

let current: ResumableStore | null = null;

export function getResumableStore(): ResumableStore {
  return (current ??= resumableStoreFromEnv(env));
}

/** Tests swap in another store (S3 on a local s3rver) and put the default back with null. */
export function setResumableStore(store: ResumableStore | null) {
  current = store;
}

import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, type S3ClientConfig } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { createReadableStreamFromReadable } from "@react-router/node";
import { env, type Env } from "../env.server";

/**
 * Where uploaded media lives (docs/decisions/0008-media-storage-and-processing.md). One interface,
 * two implementations chosen at start-up: local disk under UPLOAD_DIR (the default) and an
 * S3-compatible bucket when S3_BUCKET is set. Keys are random and never reused, so every stored
 * object is immutable and can be cached for a year.
 */

export type ByteRange = { start: number; end: number }; // inclusive, like HTTP

export type StoredObjectInfo = {
  size: number;
  contentType: string;
  etag: string;
  lastModified: Date;
};

export type PutBody = Uint8Array | AsyncIterable<Uint8Array>;

export interface MediaStorage {
  readonly kind: "local" | "s3";
  /** Stores a body under `key` as a stream; a failing body leaves nothing behind. */
  put(key: string, body: PutBody, options: { contentType: string }): Promise<{ size: number }>;
  /** null when there is no such object. */
  stat(key: string): Promise<StoredObjectInfo | null>;
  /** The object's bytes (or one range of them) as a web stream. */
  read(key: string, range?: ByteRange): Promise<ReadableStream<Uint8Array>>;
  /** Deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** The address browsers load the object from. */
  publicUrl(key: string): string;
}

/** Content types by extension, for the formats media-processing accepts (local disk keeps no metadata). */
const CONTENT_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  avif: "image/avif",
  mp4: "video/mp4",
  m4v: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  ogv: "video/ogg",
  mkv: "video/x-matroska",
  "3gp": "video/3gpp",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  aac: "audio/aac",
  oga: "audio/ogg",
  ogg: "audio/ogg",
  opus: "audio/ogg",
  wav: "audio/wav",
  flac: "audio/flac",
};

export function contentTypeForKey(key: string): string {
  const ext = key.slice(key.lastIndexOf(".") + 1).toLowerCase();
  return CONTENT_TYPES[ext] ?? "application/octet-stream";
}

/**
 * Keys are what storeUpload makes (`2026/11/<random>.jpg`, `2026/11/<random>-480.webp`): path
 * segments of letters, digits, `_` and `-` that start with a letter or digit, and one extension.
 * Anything else (`..`, absolute paths, hidden files, temp files) is not a key.
 */
const KEY_PATTERN = /^(?:[A-Za-z0-9][A-Za-z0-9_-]{0,99}\/){0,4}[A-Za-z0-9][A-Za-z0-9_-]{0,99}\.[a-z0-9]{2,5}$/;

export function isValidKey(key: string | undefined | null): key is string {
  return typeof key === "string" && KEY_PATTERN.test(key);
}

function assertKey(key: string) {
  if (!isValidKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
}

function toAsyncIterable(body: PutBody): AsyncIterable<Uint8Array> {
  if (body instanceof Uint8Array) {
    return (async function* () {
      yield body;
    })();
  }
  return body;
}

/** Passes chunks through while counting them. */
function counting(body: PutBody, counter: { bytes: number }): AsyncIterable<Uint8Array> {
  const source = toAsyncIterable(body);
  return (async function* () {
    for await (const chunk of source) {
      counter.bytes += chunk.byteLength;
      yield chunk;
    }
  })();
}

// ---------------------------------------------------------------------------------------------
// Local disk

export function createLocalStorage(options: { root: string; publicBase?: string }): MediaStorage {
  const root = path.resolve(options.root);
  const publicBase = (options.publicBase ?? "/media").replace(/\/+$/, "");

  const fileFor = (key: string) => {
    assertKey(key);
    const file = path.resolve(root, key);
    // Belt and braces: the pattern already forbids `..`, but never leave the root.
    if (!file.startsWith(root + path.sep)) throw new Error(`Invalid storage key: ${key}`);
    return file;
  };

  return {
    kind: "local",

    async put(key, body, { contentType: _contentType }) {
      const file = fileFor(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      // Written under a temporary name and renamed, so a reader never sees half a file.
      const temp = `${file}.part-${crypto.randomBytes(6).toString("hex")}`;
      const counter = { bytes: 0 };
      try {
        await pipeline(Readable.from(counting(body, counter)), fs.createWriteStream(temp, { flags: "wx" }));
        await fs.promises.rename(temp, file);
      } catch (error) {
        await fs.promises.rm(temp, { force: true });
        throw error;
      }
      return { size: counter.bytes };
    },

    async stat(key) {
      if (!isValidKey(key)) return null;
      try {
        const stats = await fs.promises.stat(fileFor(key));
        if (!stats.isFile()) return null;
        return {
          size: stats.size,
          contentType: contentTypeForKey(key),
          etag: `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`,
          lastModified: stats.mtime,
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },

    async read(key, range) {
      const stream = fs.createReadStream(fileFor(key), range ? { start: range.start, end: range.end } : {});
      return createReadableStreamFromReadable(stream);
    },

    async delete(key) {
      await fs.promises.rm(fileFor(key), { force: true });
    },

    publicUrl(key) {
      return `${publicBase}/${key}`;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// S3-compatible bucket

export type S3StorageOptions = {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Browsers load objects from here when set; otherwise through the app's /media/ route. */
  publicUrl?: string;
};

/** Multipart part size: memory held per upload in flight is about partSize × queueSize. */
const S3_PART_SIZE = 5 * 1024 * 1024;

export function createS3Storage(options: S3StorageOptions): MediaStorage & { client: S3Client } {
  const config: S3ClientConfig = {
    region: options.region,
    // Self-hosted S3 (MinIO, s3rver, …) is addressed path-style: http://host/bucket/key.
    ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
  };
  const client = new S3Client(config);
  const Bucket = options.bucket;
  const publicBase = options.publicUrl?.replace(/\/+$/, "");

  const isNotFound = (error: unknown) => {
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    return e?.name === "NotFound" || e?.name === "NoSuchKey" || e?.$metadata?.httpStatusCode === 404;
  };

  return {
    kind: "s3",
    client,

    async put(key, body, { contentType }) {
      assertKey(key);
      const counter = { bytes: 0 };
      // lib-storage streams the body: one PutObject when it fits in a part, a multipart upload
      // otherwise; on error the multipart upload is aborted, so no partial object remains.
      const upload = new Upload({
        client,
        params: {
          Bucket,
          Key: key,
          Body: body instanceof Uint8Array ? body : Readable.from(counting(body, counter)),
          ContentType: contentType,
          CacheControl: "public, max-age=31536000, immutable",
        },
        queueSize: 1,
        partSize: S3_PART_SIZE,
        leavePartsOnError: false,
      });
      await upload.done();
      return { size: body instanceof Uint8Array ? body.byteLength : counter.bytes };
    },

    async stat(key) {
      if (!isValidKey(key)) return null;
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return {
          size: head.ContentLength ?? 0,
          contentType: head.ContentType || contentTypeForKey(key),
          etag: head.ETag ?? `"${key}"`,
          lastModified: head.LastModified ?? new Date(0),
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async read(key, range) {
      assertKey(key);
      const object = await client.send(
        new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
      if (!object.Body) throw new Error(`Empty body for ${key}`);
      return object.Body.transformToWebStream() as ReadableStream<Uint8Array>;
    },

    async delete(key) {
      assertKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    publicUrl(key) {
      return publicBase ? `${publicBase}/${key}` : `/media/${key}`;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The process's storage, chosen from the environment (CONTRACT.md §1)

export function storageFromEnv(e: Env): MediaStorage {
  if (e.S3_BUCKET) {
    return createS3Storage({
      bucket: e.S3_BUCKET,
      region: e.S3_REGION,
      endpoint: e.S3_ENDPOINT,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      publicUrl: e.S3_PUBLIC_URL,
    });
  }
  return createLocalStorage({ root: e.UPLOAD_DIR });
}

let current: MediaStorage | null = null;

export function getStorage(): MediaStorage {
  return (current ??= storageFromEnv(env));
}

/** Tests swap in another storage (an S3 bucket on a local s3rver) and put the default back with null. */
export function setStorage(storage: MediaStorage | null) {
  current = storage;
}

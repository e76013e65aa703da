import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { discardUploads, holdUpload, releaseHeld, storeUpload, type HeldFile, type StoredMedia } from "~/models/media/media.server";
import type { Actor } from "~/models/members/user.server";
import { MAX_UPLOAD_BYTES } from "~/schemas/media";
import { AppError, badRequest, isAppError, tooLarge } from "~/utils/errors";
import { escapePartHeaders, FORM_TOO_LARGE, multipartBoundary, unescapePartHeader } from "./multipart-headers.server";
import { BODY_LIMITS, declaredLimit, readFormData } from "./request-body.server";

/**
 * Streaming multipart parsing (CONTRACT.md §4). Each file part of the named fields is streamed
 * through storeUpload (sniffed, limited to 50 MB while it arrives, stored) and its media URL takes
 * the file's place in the FormData, so `formData.getAll("uploadedFiles")` gives URLs. Nothing is
 * held whole in memory: the text fields together are capped like a urlencoded form (1 MB), files go
 * to storage chunk by chunk.
 */

/** After a refused file, at most this much more of it is read (to reach the fields after it). */
const MAX_DRAIN_BYTES = 200 * 1024 * 1024;

/**
 * An upload in a form was refused (413, 415, 429 …). It is the refusal itself (same status,
 * message and Retry-After), and it carries the form's other fields, read to the end, so the page
 * can show the member everything they typed next to the error.
 */
export class UploadRefusedError extends AppError {
  constructor(
    cause: AppError,
    public readonly formData: FormData,
    public readonly fileName: string | null,
  ) {
    super(cause.status, cause.message, { fieldErrors: cause.fieldErrors, retryAfter: cause.retryAfter, code: cause.code });
    this.name = "UploadRefusedError";
  }
}

export type MultipartOptions = {
  /** Form fields whose files are uploads; file parts of any other field are read and dropped. */
  fileFields: string[];
  /** At most this many files are stored per request; further ones are dropped. */
  maxFiles?: number;
  purpose?: "post" | "avatar";
};

/** Reads and discards the rest of a part. False if it went on for too long. */
async function drain(data: AsyncIterable<Uint8Array>, maxBytes = MAX_DRAIN_BYTES): Promise<boolean> {
  const it = data[Symbol.asyncIterator]();
  let read = 0;
  for (;;) {
    const { value, done } = await it.next();
    if (done) return true;
    read += value?.byteLength ?? 0;
    if (read > maxBytes) return false;
  }
}

/** One part of a multipart form as the handler sees it: a file's bytes arrive as they stream in. */
type FilePart = { name: string; filename: string; contentType: string; data: AsyncIterable<Uint8Array> };

/**
 * The multipart body of `request`, parsed as it streams (busboy, docs/decisions/0082-react-router-
 * 7.md): text fields go into the form as they are, each counted against `textBytes` together;
 * each file part goes to `onFile`, one at a time in the body's order, and what it returns (a URL)
 * takes the file's place, or nothing when it returns undefined. Fails with the first error met
 * (the body's own, such as a 413 from the byte count, or `onFile`'s), after which nothing more is read.
 * Names come escaped (withEscapedPartHeaders below); the form and `onFile` get them back as sent.
 */
function parseMultipart(request: Request, textBytes: number, onFile: (part: FilePart) => Promise<string | undefined>): Promise<FormData> {
  return new Promise((resolve, reject) => {
    const entries: Array<[string, string | undefined]> = [];
    let pending = Promise.resolve();
    let failed = false;
    let textLeft = textBytes;
    const source = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      source.destroy();
      parser.destroy(error instanceof Error ? error : undefined);
      reject(error);
    };
    const parser = busboy({
      headers: Object.fromEntries(request.headers),
      defParamCharset: "utf8",
      limits: { fieldSize: textBytes, fieldNameSize: textBytes },
    });
    parser.on("field", (name: string, value: string, info: busboy.FieldInfo) => {
      textLeft -= Buffer.byteLength(name) + Buffer.byteLength(value);
      if (info.valueTruncated || info.nameTruncated || textLeft < 0) return fail(tooLarge(FORM_TOO_LARGE));
      entries.push([unescapePartHeader(name), value]);
    });
    parser.on("file", (name: string, stream: Readable, info: busboy.FileInfo) => {
      const entry: [string, string | undefined] = [unescapePartHeader(name), undefined];
      entries.push(entry);
      // Its reader gets its errors; once the form has failed, nobody reads it any more.
      stream.on("error", () => {});
      // Parts are handled in turn: the next one's bytes wait (busboy holds them) while this one streams.
      pending = pending.then(async () => {
        if (failed) return void stream.resume();
        entry[1] = await onFile({
          name: entry[0],
          filename: unescapePartHeader(info.filename ?? ""),
          contentType: info.mimeType,
          data: stream,
        });
      });
      pending.catch(fail);
    });
    parser.on("error", fail);
    parser.on("close", () => {
      pending.then(() => {
        if (failed) return;
        const formData = new FormData();
        for (const [name, value] of entries) if (value !== undefined) formData.append(name, value);
        resolve(formData);
      }, fail);
    });
    source.on("error", fail);
    source.pipe(parser);
  });
}

/**
 * Parses a multipart request, storing files as they stream in. Returns the form (URLs in place of
 * files) and what was stored. A refused file throws UploadRefusedError after the rest of the form
 * was read, and the files this request had already stored are removed again. A request that is
 * not multipart (a form with no file input) is read as an ordinary form.
 */
export async function parseMultipartUploads(
  request: Request,
  actor: Actor,
  options: MultipartOptions,
): Promise<{ formData: FormData; uploads: StoredMedia[] }> {
  const { formData, kept } = await parseKeepingFiles(request, options, {
    keep: (part) =>
      storeUpload(
        actor,
        { filename: part.filename, contentType: part.contentType, data: part.data },
        { purpose: options.purpose, signal: request.signal },
      ),
    ref: (stored) => stored.url,
    discard: (stored) =>
      discardUploads(
        actor,
        stored.map((u) => u.url),
      ),
  });
  return { formData, uploads: kept };
}

/**
 * parseMultipartUploads for a visitor's share (docs/decisions/0092-share-target.md): each file is
 * refused like an upload (type, size) or held as sent until the visitor signs in (holdUpload); its
 * storage key takes its place in the form. A refusal lets every file held so far go.
 */
export async function parseMultipartHeld(request: Request, options: MultipartOptions): Promise<{ formData: FormData; held: HeldFile[] }> {
  const { formData, kept } = await parseKeepingFiles(request, options, {
    keep: (part) => holdUpload({ filename: part.filename, contentType: part.contentType, data: part.data }),
    ref: (held) => held.key,
    discard: (held) => releaseHeld(held.map((h) => h.key)),
  });
  return { formData, held: kept };
}

type Keeper<T> = {
  keep: (part: FilePart) => Promise<T>;
  ref: (kept: T) => string;
  discard: (kept: T[]) => Promise<void>;
};

/**
 * Parses a multipart request, keeping files as they stream in (`keeper.keep`). Returns the form (each
 * file replaced by `keeper.ref` of what was kept) and what was kept. A refused file throws
 * UploadRefusedError after the rest of the form was read, and what this request had already kept is
 * discarded. A request that is not multipart (a form with no file input) is read as an ordinary form.
 */
async function parseKeepingFiles<T>(
  request: Request,
  options: MultipartOptions,
  keeper: Keeper<T>,
): Promise<{ formData: FormData; kept: T[] }> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data/i.test(type)) {
    return { formData: await readFormData(request), kept: [] };
  }

  const kept: T[] = [];
  let refusal: { error: AppError; fileName: string | null } | null = null;
  const maxFiles = options.maxFiles ?? Infinity;
  const textBudget = BODY_LIMITS.form;

  const onFile = async (part: FilePart): Promise<string | undefined> => {
    const { name, filename } = part;
    // An empty file input still sends a part (filename=""); so do fields we do not take files for.
    if (!filename || !options.fileFields.includes(name) || refusal || kept.length >= maxFiles) {
      if (!(await drain(part.data))) throw tooLarge(FORM_TOO_LARGE);
      return undefined;
    }
    try {
      const one = await keeper.keep(part);
      kept.push(one);
      return keeper.ref(one);
    } catch (error) {
      // Signed out, or a server fault: stop here. A refusal of this file: read on to the end of
      // the form so the page keeps what the member typed.
      if (!isAppError(error) || error.status === 401) throw error;
      refusal = { error, fileName: filename };
      if (!(await drain(part.data))) throw error;
      return undefined;
    }
  };

  let formData: FormData;
  try {
    formData = await parseMultipart(withEscapedPartHeaders(request, multipartLimit(maxFiles)), textBudget, onFile);
  } catch (error) {
    await keeper.discard(kept);
    if (isAppError(error)) throw error;
    throw badRequest("The form could not be read.");
  }

  if (refusal) {
    const { error, fileName } = refusal as { error: AppError; fileName: string | null };
    await keeper.discard(kept);
    for (const field of options.fileFields) formData.delete(field);
    throw new UploadRefusedError(error, formData, fileName);
  }
  return { formData, kept };
}

/**
 * The most a multipart body with at most `maxFiles` files may be, every byte counted (security-2
 * N1): its files, or what is read past a refused one to reach the fields after it, and the form's
 * text with its parts' headers; never more than the HTTP edge lets any multipart body declare.
 */
export function multipartLimit(maxFiles: number): number {
  const files = Math.min(maxFiles, BODY_LIMITS.files) * BODY_LIMITS.file;
  return Math.min(declaredLimit("multipart/form-data"), Math.max(files, MAX_DRAIN_BYTES) + BODY_LIMITS.form);
}

/**
 * The request with its parts' Content-Disposition escaped, so names with `=` or `;` parse (L13),
 * and every byte of it counted against `maxBytes` as it streams (N1).
 */
function withEscapedPartHeaders(request: Request, maxBytes: number): Request {
  const boundary = multipartBoundary(request.headers.get("Content-Type") ?? "");
  if (!boundary || !request.body) return request;
  const headers = new Headers(request.headers);
  headers.delete("Content-Length");
  const body = escapePartHeaders(request.body, boundary, { maxBytes });
  return new Request(request.url, { method: request.method, headers, body, duplex: "half" } as RequestInit);
}

/**
 * For /api/upload: a body declared larger than one file plus generous multipart overhead is
 * refused before a byte of it is read.
 */
export function assertDeclaredSize(request: Request, files = 1): void {
  const declared = Number(request.headers.get("Content-Length") ?? "");
  if (Number.isFinite(declared) && declared > files * BODY_LIMITS.file + BODY_LIMITS.form) {
    throw tooLarge(`File is too large. The limit is ${Math.round(MAX_UPLOAD_BYTES / 1024 / 1024)}MB per file.`);
  }
}

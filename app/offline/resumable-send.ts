import type { DetailedError, HttpResponse, Upload } from "tus-js-client";
import type { UploadedFile } from "~/schemas/media-options";

/**
 * One file to /api/uploads over the tus protocol (docs/decisions/0035-resumable-uploads.md), for
 * the upload widget (and, in Node, the proxy test). Sent in 512 KB chunks (docs/decisions/0056):
 * a dropped connection is retried from the last byte the server holds (a few times on its own, then
 * on the member's Resume), and whatever is sent twice (Chromium silently resends a request cut on a
 * reused connection, and the server refuses it as a duplicate) is at most one chunk; after a reload, choosing the same file again continues it (tus-js-client keeps each
 * upload's address in localStorage under the file's name, type, size and date). The server's
 * refusals (too large, not media, too many uploads, signed out) are final and come with its reason.
 * tus-js-client (about 15 KB gz with its dependencies) is fetched when the first file starts, not
 * with the page (docs/decisions/0044).
 */

type Tus = typeof import("tus-js-client");
let tus: Promise<Tus> | null = null;
/** The library, fetched once; a fetch the link dropped is tried again on the next call. */
const loadTus = (): Promise<Tus> =>
  (tus ??= import("tus-js-client").catch((error: unknown) => {
    tus = null;
    throw error;
  }));

/** The key prefix tus-js-client's browser storage writes each unfinished upload's address under. */
const TUS_STORAGE_PREFIX = "tus::";

/** Where the browser sends resumable uploads; the server's TUS_PATH. */
export const RESUMABLE_ENDPOINT = "/api/uploads";
/**
 * One PATCH: small enough that a chunk sent twice costs little (8 MB cut at half: 1.065× sent, not
 * 1.66× with 5 MB chunks) and that one takes about 40 s on a 100 kbit/s uplink; large enough that
 * the round trip after each chunk stays a small part of the time. S3 parts stay 5 MB: the server's
 * store gathers chunks in its incomplete part (docs/decisions/0056-upload-chunks-and-resume.md).
 */
export const CHUNK_BYTES = 512 * 1024;

export type ResumableCallbacks = {
  /** Percent of the file the server holds or is receiving, 0–100. */
  onProgress(percent: number): void;
  /** The server stored the file. */
  onDone(file: UploadedFile): void;
  /** The connection failed and retries ran out: `resume()` continues from where the server is. */
  onInterrupted(percent: number): void;
  /** The server refused the file: its reason. Nothing more will happen. */
  onRefused(reason: string): void;
};

export type ResumableOptions = {
  endpoint?: string;
  /** Extra request headers (Node has no cookie jar: the proxy test passes the session cookie). */
  headers?: Record<string, string>;
  retryDelays?: number[];
};

export type ResumableUpload = {
  /** `resumed`: part of the file was already on the server from an earlier page (a reload). */
  started: Promise<{ resumed: boolean }>;
  resume(): void;
  /** Stops sending; the server keeps what arrived (leaving the page). */
  stop(): void;
  /** Stops sending and tells the server to drop what it has. */
  cancel(): Promise<void>;
};

/** The server's `{ error }` text, if the answer has one. */
function reasonOf(response: HttpResponse | null | undefined): string | null {
  try {
    const body = JSON.parse(response?.getBody() ?? "") as { error?: unknown };
    return typeof body.error === "string" && body.error ? body.error : null;
  } catch {
    return null;
  }
}

/** A status the server means (not the link failing): 4xx other than "try again" ones. */
function isRefusal(status: number): boolean {
  return status >= 400 && status < 500 && ![408, 409, 423, 429].includes(status);
}

function isStoredFile(value: unknown): value is UploadedFile {
  return !!value && typeof (value as UploadedFile).url === "string" && typeof (value as UploadedFile).type === "string";
}

export function sendResumable(
  file: File | Blob | Uint8Array,
  name: string,
  callbacks: ResumableCallbacks,
  options: ResumableOptions = {},
): ResumableUpload {
  const size = file instanceof Uint8Array ? file.byteLength : file.size;
  const percent = (bytes: number) => (size ? Math.min(100, Math.floor((bytes / size) * 100)) : 0);
  let last = 0;
  let upload: Upload | null = null;
  /** Stopped or cancelled before tus-js-client arrived: it must not start then. */
  let halted = false;
  const settings = (): ConstructorParameters<Tus["Upload"]>[1] => ({
    endpoint: options.endpoint ?? RESUMABLE_ENDPOINT,
    chunkSize: CHUNK_BYTES,
    retryDelays: options.retryDelays ?? [1000, 3000, 6000],
    metadata: { filename: name, filetype: (file as File).type || "" },
    headers: { Accept: "application/json", ...options.headers },
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    onShouldRetry: (error) => !isRefusal(error.originalResponse?.getStatus() ?? 0),
    onProgress: (sent) => callbacks.onProgress((last = percent(sent))),
    onSuccess: ({ lastResponse }) => {
      void finish(lastResponse);
    },
    onError: (error) => {
      const response = (error as DetailedError).originalResponse;
      const status = response?.getStatus() ?? 0;
      if (isRefusal(status)) callbacks.onRefused(reasonOf(response) ?? `HTTP ${status}`);
      else callbacks.onInterrupted(last);
    },
  });
  /** The upload, once tus-js-client is here; a failed fetch of it is a dropped link like any other. */
  const ready = async () => (upload ??= new (await loadTus()).Upload(file as File, settings()));

  /** The stored file: in the finishing PATCH's answer, or asked for if that answer was lost. */
  async function finish(lastResponse: HttpResponse) {
    try {
      const body: unknown = JSON.parse(lastResponse.getBody() || "null");
      if (isStoredFile(body)) return callbacks.onDone(body);
    } catch {
      // not the finishing answer (a HEAD after a lost reply): ask below
    }
    try {
      const response = await fetch(new URL(upload!.url!, globalThis.location?.href ?? options.endpoint).toString(), {
        headers: { Accept: "application/json", ...options.headers },
      });
      const body: unknown = await response.json();
      if (response.ok && isStoredFile(body)) return callbacks.onDone(body);
      callbacks.onRefused((body as { error?: string })?.error ?? `HTTP ${response.status}`);
    } catch {
      callbacks.onInterrupted(100);
    }
  }

  const started = (async () => {
    let resumed = false;
    let sending: Upload;
    try {
      sending = await ready();
    } catch {
      callbacks.onInterrupted(last);
      return { resumed };
    }
    if (halted) return { resumed };
    try {
      const previous = await sending.findPreviousUploads();
      const newest = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
      if (newest) {
        sending.resumeFromPreviousUpload(newest);
        resumed = true;
      }
    } catch {
      // no storage (private mode): a fresh upload
    }
    sending.start();
    return { resumed };
  })();

  return {
    started,
    resume: () => {
      halted = false;
      void ready().then(
        (u) => u.start(),
        () => callbacks.onInterrupted(last),
      );
    },
    stop: () => {
      halted = true;
      void upload?.abort(false).catch(() => undefined);
    },
    cancel: async () => {
      halted = true;
      await upload?.abort(true).catch(() => undefined);
    },
  };
}

/** Uploads expire on the server a day after they started (RESUMABLE_EXPIRES_MS). */
const EXPIRES_MS = 24 * 3_600_000;

/** The names of files an earlier page started sending and did not finish, newest first. */
export async function unfinishedUploads(now = Date.now()): Promise<string[]> {
  try {
    // Nothing stored: no need to fetch the library to say so.
    if (!Object.keys(globalThis.localStorage ?? {}).some((key) => key.startsWith(TUS_STORAGE_PREFIX))) return [];
    const all = await (await loadTus()).defaultOptions.urlStorage.findAllUploads();
    const fresh = all.filter((u) => now - Date.parse(u.creationTime) < EXPIRES_MS && u.metadata?.filename);
    fresh.sort((a, b) => b.creationTime.localeCompare(a.creationTime));
    return [...new Set(fresh.map((u) => u.metadata.filename!))];
  } catch {
    return [];
  }
}

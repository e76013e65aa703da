import type { OutboxFile } from "./outbox";

/**
 * Uploads one file that waited in the outbox with a post (docs/decisions/0093-offline-compose-with-photos.md),
 * over the tus protocol to /api/uploads, with `fetch` only: the page and the service worker (which has
 * no XMLHttpRequest, so no tus-js-client) run the same code. Sent in 512 KB chunks like the widget
 * (ADR 0056); the upload's address is kept with the item as soon as the server gives it, so a cut
 * link, a reload or the worker's next sync asks the server where it stands (HEAD) and continues from
 * there: what goes twice is at most the chunk that was on its way.
 */

export const OUTBOX_CHUNK_BYTES = 512 * 1024;
const TUS = { "Tus-Resumable": "1.0.0" };

export type UploadOutcome = { stored: NonNullable<OutboxFile["stored"]> } | { retry: true } | { signIn: true } | { refused: string };

export type UploadOptions = {
  origin: string;
  /** Keeps the upload's address with the item (called once the server created it, and with undefined when it is gone). */
  keepUrl(url: string | undefined): Promise<void>;
  /** False once the member cancelled the item: nothing more is sent. */
  wanted(): Promise<boolean>;
  fetch?: typeof fetch;
  /** Waits before each new try after a dropped connection, then gives up for this run. */
  retryDelays?: number[];
  endpoint?: string;
};

const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

function isStored(value: unknown): value is NonNullable<OutboxFile["stored"]> {
  return !!value && typeof (value as { url?: unknown }).url === "string" && typeof (value as { type?: unknown }).type === "string";
}

/** A refusal the server means (not "try later"). */
const isRefusal = (status: number) => status >= 400 && status < 500 && ![401, 404, 408, 409, 410, 423, 429].includes(status);

async function reasonOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
  return typeof body?.error === "string" && body.error ? body.error : `HTTP ${response.status}`;
}

class Cancelled extends Error {}

/** Uploads `file` (resuming its upload when it has one); the outcome says what the item's run does next. */
export async function uploadOutboxFile(file: OutboxFile, options: UploadOptions): Promise<UploadOutcome> {
  const send = options.fetch ?? fetch;
  const delays = options.retryDelays ?? [1000, 3000, 6000];
  const endpoint = new URL(options.endpoint ?? "/api/uploads", options.origin).toString();
  const size = file.blob.size;
  let url = file.uploadUrl;

  /** The stored file, asked for when the finishing answer was lost. */
  const storedAt = async (at: string): Promise<UploadOutcome> => {
    const response = await send(at, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (response.status === 401) return { signIn: true };
    const body: unknown = await response.json().catch(() => null);
    if (response.ok && isStored(body)) return { stored: body };
    return isRefusal(response.status) ? { refused: await reasonOf(response) } : { retry: true };
  };

  /** One pass: create or find the upload, then send chunks from the server's offset. */
  const pass = async (): Promise<UploadOutcome> => {
    let offset = 0;
    if (url) {
      const head = await send(url, { method: "HEAD", headers: TUS, credentials: "same-origin" });
      if (head.status === 401) return { signIn: true };
      if (head.ok) offset = Number(head.headers.get("Upload-Offset") ?? 0);
      else if ([403, 404, 410].includes(head.status)) {
        // Expired or removed on the server: a new upload from the first byte.
        url = undefined;
        await options.keepUrl(undefined);
      } else return { retry: true };
    }
    if (!url) {
      const created = await send(endpoint, {
        method: "POST",
        headers: {
          ...TUS,
          Accept: "application/json",
          "Upload-Length": String(size),
          "Upload-Metadata": `filename ${base64(file.name)},filetype ${base64(file.type)}`,
        },
        credentials: "same-origin",
      });
      if (created.status === 401) return { signIn: true };
      if (isRefusal(created.status)) return { refused: await reasonOf(created) };
      const location = created.headers.get("Location");
      if (!created.ok || !location) return { retry: true };
      url = new URL(location, endpoint).toString();
      await options.keepUrl(url);
    }
    if (offset >= size) return storedAt(url);
    for (;;) {
      if (!(await options.wanted())) throw new Cancelled();
      const end = Math.min(size, offset + OUTBOX_CHUNK_BYTES);
      const response = await send(url, {
        method: "PATCH",
        headers: { ...TUS, Accept: "application/json", "Content-Type": "application/offset+octet-stream", "Upload-Offset": String(offset) },
        body: file.blob.slice(offset, end),
        credentials: "same-origin",
      });
      if (response.status === 401) return { signIn: true };
      if (isRefusal(response.status)) return { refused: await reasonOf(response) };
      // 409: the server holds a different offset (a resent chunk): ask it again.
      if (!response.ok) return { retry: true };
      offset = Number(response.headers.get("Upload-Offset") ?? end);
      if (offset >= size) {
        const body: unknown = await response.json().catch(() => null);
        return isStored(body) ? { stored: body } : storedAt(url);
      }
    }
  };

  for (let attempt = 0; ; attempt++) {
    try {
      const outcome = await pass();
      if (!("retry" in outcome) || attempt >= delays.length) return outcome;
    } catch (error) {
      if (error instanceof Cancelled) return { refused: "Cancelled" };
      // The link dropped (fetch rejected): try again after a while, from where the server is.
      if (attempt >= delays.length) return { retry: true };
    }
    await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
    if (!(await options.wanted())) return { refused: "Cancelled" };
  }
}

/** Tells the server to drop an upload the member cancelled (tus termination); a failure leaves it to expire in a day. */
export async function dropUpload(url: string, send: typeof fetch = fetch): Promise<void> {
  await send(url, { method: "DELETE", headers: TUS, credentials: "same-origin" }).catch(() => undefined);
}

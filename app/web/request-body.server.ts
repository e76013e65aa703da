import { MAX_UPLOAD_BYTES } from "~/schemas/media";
import { badRequest, tooLarge } from "~/utils/errors";

/**
 * The one place request bodies are read (CONTRACT.md §6, docs/decisions/0016-body-caps.md). Every
 * body is counted while it streams and reading stops at its cap, chunked or not, signed in or not:
 * nothing is read whole before it is measured.
 */
export const BODY_LIMITS = {
  /** A JSON body (`readJson`). */
  json: 256 * 1024,
  /** A urlencoded form, and the text fields of a multipart form together. */
  form: 1024 * 1024,
  /** One uploaded file (the media pipeline enforces it while the file streams to storage). */
  file: MAX_UPLOAD_BYTES,
  /** Files one multipart request may carry (postInputSchema takes at most 20). */
  files: 20,
} as const;

const TOO_LARGE = "The request body is too large.";
const UNREADABLE = "The form could not be read.";

/** The media type of the body, lower-case and without parameters ("" when there is none). */
export function bodyType(contentType: string | null | undefined): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

/**
 * The most a request of this Content-Type may declare: the HTTP guard refuses a larger
 * `Content-Length` before a byte is read. Anything but a form is only ever read as JSON.
 */
export function declaredLimit(contentType: string | null | undefined): number {
  const type = bodyType(contentType);
  if (type === "multipart/form-data") return BODY_LIMITS.files * BODY_LIMITS.file + BODY_LIMITS.form;
  if (type === "application/x-www-form-urlencoded") return BODY_LIMITS.form;
  // A tus PATCH (/api/uploads): one chunk of one file; tus also holds it to the declared Upload-Length.
  if (type === "application/offset+octet-stream") return BODY_LIMITS.file;
  return BODY_LIMITS.json;
}

/**
 * Read the body, at most `maxBytes` of it. Past the cap reading stops and 413 is thrown; the stream
 * is left paused, not cancelled, because cancelling Remix's body stream destroys the socket before
 * the 413 can be written (the HTTP guard drops the rest once the answer is out). A body that breaks
 * off is 400.
 */
export async function readBodyBytes(request: Request, maxBytes: number, message = TOO_LARGE): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("Content-Length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(message);
  if (!request.body) return new Uint8Array(new ArrayBuffer(0));
  if (request.bodyUsed) throw badRequest("The request body was already read.");
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch {
        throw badRequest("The request body could not be read.");
      }
      if (result.done) break;
      size += result.value.byteLength;
      if (size > maxBytes) throw tooLarge(message);
      chunks.push(result.value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks, size);
}

/** The body as UTF-8 text, capped like `readBodyBytes`. */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(request, maxBytes));
}

/**
 * A page action's form, capped (1 MB by default) while it streams: urlencoded, or multipart
 * without uploads (its files, if any, count toward the cap). Anything else, a multipart body
 * without a boundary or one that breaks off is 400; over the cap, 413. A POST with no body at all
 * is an empty form.
 */
export async function readFormData(request: Request, { maxBytes = BODY_LIMITS.form }: { maxBytes?: number } = {}): Promise<FormData> {
  const contentType = request.headers.get("Content-Type");
  const type = bodyType(contentType);
  if (!request.body && !type) return new FormData();
  if (type === "application/x-www-form-urlencoded") {
    const form = new FormData();
    for (const [name, value] of new URLSearchParams(await readBodyText(request, maxBytes))) form.append(name, value);
    return form;
  }
  if (type === "multipart/form-data") {
    const bytes = await readBodyBytes(request, maxBytes);
    try {
      return await new Response(bytes, { headers: { "Content-Type": contentType! } }).formData();
    } catch {
      throw badRequest(UNREADABLE);
    }
  }
  throw badRequest(`${UNREADABLE} Send it as a web form.`);
}

type NodeRequest = import("node:http").IncomingMessage;
type NodeResponse = import("node:http").ServerResponse;

/** After its answer, the rest of an unread body is dropped unread and the connection closed this soon. */
const LINGER_MS = 1000;

function dropUnreadBody(req: NodeRequest): void {
  if (req.complete) return;
  req.removeAllListeners("data");
  req.on("data", () => undefined);
  req.resume();
  const timer = setTimeout(() => req.socket?.destroy(), LINGER_MS);
  timer.unref();
  req.once("end", () => clearTimeout(timer));
}

/**
 * For the HTTP edge (http-edge.server.ts), before Remix reads anything: a declared `Content-Length`
 * over the cap for its Content-Type is refused with 413. Chunked bodies declare no length: the
 * readers above cap them.
 */
export function declaredBodyTooLarge(headers: import("node:http").IncomingHttpHeaders): boolean {
  const declared = Number(headers["content-length"] ?? "");
  return Number.isFinite(declared) && declared > declaredLimit(headers["content-type"]);
}

/** After its answer, whatever a handler left unread is discarded as it arrives (never buffered) and the connection closed shortly after. */
export function dropUnreadBodyAfter(req: NodeRequest, res: NodeResponse): void {
  res.once("finish", () => dropUnreadBody(req));
}

export { TOO_LARGE as BODY_TOO_LARGE };

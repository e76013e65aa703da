import { tooLarge } from "~/utils/errors";

/**
 * File names with `=` or `;` (security.md L13). Remix's multipart parser
 * (@web3-storage/multipart-parser under `unstable_parseMultipartFormData`, remix-run/remix#10021)
 * splits a part's Content-Disposition at every `;` and `=`, quoted or not, so
 * `filename="a=b.png"` fails the whole form. `escapePartHeaders` rewrites each part's header block
 * as the body streams by: inside quoted Content-Disposition values, `%`, `;` and `=` become `%25`,
 * `%3B` and `%3D`, which that parser reads as plain characters; `unescapePartHeader` gives the
 * original back. Bodies of parts pass through untouched, chunk by chunk.
 *
 * It is also where every byte of the body is counted (CONTRACT.md §10, security-2 N1): that parser
 * collects a part's header lines until a blank line with no limit of its own, so a header block
 * longer than MAX_HEADER_BYTES, or a body longer than the request may be, fails the stream with 413
 * the moment it passes, before the parser has held it.
 */

const HEADER_END = Buffer.from("\r\n\r\n");
/** A part's header block may be this long (a Content-Disposition with a long file name fits many times). */
export const MAX_HEADER_BYTES = 16 * 1024;

export const HEADERS_TOO_LARGE = "A part of the form has headers that are too long.";
export const FORM_TOO_LARGE = "The form is too large.";

/** The boundary exactly as Remix's parser takes it from the Content-Type. */
export function multipartBoundary(contentType: string): string | undefined {
  return contentType.split(/\s*;\s*boundary=/)[1];
}

function escapeDisposition(line: string): string {
  let out = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === "\\" && i + 1 < line.length) {
      out += c + line[++i];
    } else if (c === '"') {
      quoted = !quoted;
      out += c;
    } else if (quoted && (c === "%" || c === ";" || c === "=")) {
      out += `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;
    } else {
      out += c;
    }
  }
  return out;
}

/** One header block (latin1, so every byte survives), Content-Disposition lines escaped. */
function escapeHeaderBlock(block: Buffer): Buffer {
  const lines = block.toString("latin1").split("\r\n");
  return Buffer.from(lines.map((line) => (/^content-disposition\s*:/i.test(line) ? escapeDisposition(line) : line)).join("\r\n"), "latin1");
}

/** Undoes the escaping on a parsed name or file name. */
export function unescapePartHeader(value: string): string {
  return value.replace(/%(25|3B|3D)/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The body with every part's Content-Disposition escaped. Reads only as fast as it is read from:
 * at most one header block (16 KB) and the length of a delimiter are held back at a time. Past
 * `maxBytes` of body, or a header block past 16 KB, the stream fails with `tooLarge` (413); the body
 * underneath is then left unread, not cancelled, so the answer still reaches the client (the HTTP
 * edge drops the rest).
 */
export function escapePartHeaders(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  { maxBytes = Infinity }: { maxBytes?: number } = {},
): ReadableStream<Uint8Array> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const reader = body.getReader();
  // The first delimiter has no CRLF before it: pretend it has, and drop those two bytes again.
  let pending: Buffer = Buffer.from("\r\n");
  let skip = 2;
  let state: "body" | "headers" | "epilogue" = "body";
  let ended = false;
  let read = 0;
  let refused = false;

  /** What can be sent on now; `pending` keeps what may still be part of a delimiter or header block. */
  function advance(): Buffer[] {
    const out: Buffer[] = [];
    for (;;) {
      if (state === "epilogue") {
        out.push(pending);
        pending = Buffer.alloc(0);
        return out;
      }
      if (state === "body") {
        const at = pending.indexOf(delimiter);
        if (at === -1) {
          const keep = ended ? 0 : Math.min(pending.length, delimiter.length - 1);
          out.push(pending.subarray(0, pending.length - keep));
          pending = pending.subarray(pending.length - keep);
          return out;
        }
        out.push(pending.subarray(0, at + delimiter.length));
        pending = pending.subarray(at + delimiter.length);
        state = "headers";
        continue;
      }
      // After a delimiter: "--" closes the body, else the part's headers up to a blank line.
      if (pending.length < 2 && !ended) return out;
      if (pending.subarray(0, 2).toString() === "--") {
        state = "epilogue";
        continue;
      }
      const end = pending.indexOf(HEADER_END);
      if (end > MAX_HEADER_BYTES || (end === -1 && pending.length > MAX_HEADER_BYTES + HEADER_END.length)) {
        throw tooLarge(HEADERS_TOO_LARGE);
      }
      if (end === -1 && !ended) return out;
      const blockEnd = end === -1 ? 0 : end + HEADER_END.length;
      out.push(escapeHeaderBlock(pending.subarray(0, blockEnd)));
      pending = pending.subarray(blockEnd);
      state = "body";
    }
  }

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) ended = true;
        else {
          read += value.byteLength;
          pending = Buffer.concat([pending, value]);
        }
        let chunk: Buffer;
        try {
          if (read > maxBytes) throw tooLarge(FORM_TOO_LARGE);
          chunk = Buffer.concat(advance());
        } catch (error) {
          refused = true;
          reader.releaseLock();
          throw error;
        }
        if (skip) {
          const dropped = Math.min(skip, chunk.length);
          chunk = chunk.subarray(dropped);
          skip -= dropped;
        }
        if (chunk.length) controller.enqueue(chunk);
        if (ended) {
          if (pending.length) controller.enqueue(pending);
          controller.close();
          return;
        }
        if (chunk.length) return;
      }
    },
    cancel(reason) {
      // After a refusal the body stays unread: cancelling it would cut the socket before the 413.
      if (!refused) return reader.cancel(reason);
    },
  });
}

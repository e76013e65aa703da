import type { LoaderFunctionArgs } from "react-router";
import { isPrivateClubMedia, HELD_PREFIX } from "~/models/media/media.server";
import { getStorage, isValidKey, type ByteRange } from "~/utils/media/storage.server";

/**
 * GET /media/<key>: serves stored media (local disk, or S3 when no S3_PUBLIC_URL is set). Keys
 * are random and never reused, so answers are cached for a year; ETag / Last-Modified answer
 * revalidation with 304; video and audio seek with HTTP range requests (206, or 416 when the range
 * lies outside the file). Only keys storeUpload makes are served: no path leaves the storage.
 */
const CACHE_CONTROL = "public, max-age=31536000, immutable";
/** A private club's files: the viewer's browser may keep them, no shared cache (ADR 0022). */
const PRIVATE_CACHE_CONTROL = "private, max-age=31536000, immutable";

type RangeResult = { kind: "none" } | { kind: "range"; range: ByteRange } | { kind: "unsatisfiable" };

/** One `bytes=` range (RFC 9110 §14.1.2). Several ranges, or a malformed header, are ignored: full body. */
export function parseRange(header: string | null, size: number): RangeResult {
  if (!header) return { kind: "none" };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return { kind: "none" };
  const [, first, last] = match;
  if (first === "" && last === "") return { kind: "none" };
  if (first === "") {
    // Suffix range: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "range", range: { start: Math.max(0, size - length), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size) return { kind: "unsatisfiable" };
  if (end < start) return { kind: "none" };
  return { kind: "range", range: { start, end } };
}

function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || bare(tag) === bare(etag));
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const key = params["*"];
  // A visitor's shared files wait under `held/` until they sign in (ADR 0092): never served.
  if (!isValidKey(key) || key.startsWith(HELD_PREFIX))
    return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const storage = getStorage();
  const info = await storage.stat(key);
  if (!info) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });

  const headers = new Headers({
    "Content-Type": info.contentType,
    "Cache-Control": (await isPrivateClubMedia(key, storage)) ? PRIVATE_CACHE_CONTROL : CACHE_CONTROL,
    ETag: info.etag,
    "Last-Modified": info.lastModified.toUTCString(),
    "Accept-Ranges": "bytes",
    "X-Content-Type-Options": "nosniff",
    // Opened on its own (an image in a new tab), a stored file can run nothing.
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
    "Cross-Origin-Resource-Policy": "same-site",
  });

  const ifNoneMatch = request.headers.get("If-None-Match");
  const ifModifiedSince = request.headers.get("If-Modified-Since");
  const notModified = ifNoneMatch
    ? etagMatches(ifNoneMatch, info.etag)
    : ifModifiedSince !== null && Math.floor(info.lastModified.getTime() / 1000) <= Math.floor(Date.parse(ifModifiedSince) / 1000);
  if (notModified) {
    headers.delete("Content-Type");
    return new Response(null, { status: 304, headers });
  }

  // If-Range: a range only applies to the version the client already has part of.
  const ifRange = request.headers.get("If-Range");
  const rangeApplies = !ifRange || ifRange.trim() === info.etag || ifRange.trim() === info.lastModified.toUTCString();
  const range = rangeApplies ? parseRange(request.headers.get("Range"), info.size) : ({ kind: "none" } as const);
  const head = request.method === "HEAD";

  if (range.kind === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${info.size}`);
    headers.set("Content-Type", "text/plain");
    return new Response(head ? null : "Range Not Satisfiable", { status: 416, headers });
  }
  if (range.kind === "range") {
    const { start, end } = range.range;
    headers.set("Content-Range", `bytes ${start}-${end}/${info.size}`);
    headers.set("Content-Length", String(end - start + 1));
    return new Response(head ? null : await storage.read(key, range.range), { status: 206, headers });
  }
  headers.set("Content-Length", String(info.size));
  return new Response(head ? null : await storage.read(key), { status: 200, headers });
}

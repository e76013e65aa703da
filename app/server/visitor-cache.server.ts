import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import zlib from "node:zlib";
import { env } from "~/utils/env.server";

/**
 * The app's own shared cache of visitors' pages (docs/decisions/0043-visitor-page-cache-and-
 * prepared-reads.md): what the reverse proxy's `proxy_cache` does in front (docs/deploy/nginx.conf),
 * inside the process, for a site run without one and for what reaches the app past it.
 *
 * A visitor's page is the same for every visitor asking the same thing: its validator
 * (conditional.server.ts) already names everything it depends on (the build and configuration, the
 * data version that every committed write moves on, the URL, Host, X-Forwarded-Proto, Save-Data, the
 * Referer where it is read, and the minute). So the validator is the cache key: a page drawn once is
 * sent again, byte for byte, to the next visitor whose request has the same validator, until a write
 * or the next minute gives it a new one. Nothing is drawn for a member (their pages carry their likes,
 * their form keys), for an answer that sets a cookie, or for anything not `public`.
 *
 * The app answers a cached request unencoded; this module compresses it once per encoding (brotli at
 * quality 6, gzip at 6, each one-shot) and keeps the encoded bytes, so a hit costs neither a render
 * nor a compression. A request that says `Cache-Control: no-cache` (a browser's hard reload) is drawn
 * afresh. Entries are held up to VISITOR_CACHE_MB (0 turns the cache off), the oldest going first.
 */

export type Encoding = "br" | "gzip" | "identity";

/** `held` while the cache holds it: its encodings, made on first use, count toward the memory then. */
type Entry = {
  status: number;
  headers: OutgoingHttpHeaders;
  bodies: Partial<Record<Encoding, Buffer>>;
  bytes: number;
  storedAt: number;
  held: boolean;
};

const entries = new Map<string, Entry>();
let heldBytes = 0;
/** An entry outlives its minute (the validator moves on with the clock) by at most this much. */
const ENTRY_LIFETIME_MS = 2 * 60_000;
/** Answers smaller than this are sent unencoded (as compression's default threshold). */
const ENCODE_FROM_BYTES = 1024;
const ENCODABLE = /^(text\/|application\/(json|javascript|xml))/i;
/** Headers that belong to one exchange, not to the page. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "date"]);

const capBytes = () => env.VISITOR_CACHE_MB * 1024 * 1024;

/** The encoding to send for an Accept-Encoding: brotli, then gzip, when the client takes them. */
export function negotiateEncoding(header: string | string[] | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of String(header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const takes = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  if (takes("br")) return "br";
  if (takes("gzip")) return "gzip";
  return "identity";
}

function encode(body: Buffer, encoding: Encoding): Buffer {
  if (encoding === "br") {
    return zlib.brotliCompressSync(body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
  }
  if (encoding === "gzip") return zlib.gzipSync(body, { level: 6 });
  return body;
}

/** The entry's body in this encoding, encoded (and kept) on first use; unencoded when not worth it. */
function bodyIn(entry: Entry, wanted: Encoding): { encoding: Encoding; body: Buffer } {
  const identity = entry.bodies.identity!;
  const type = String(entry.headers["content-type"] ?? "");
  if (wanted === "identity" || identity.length < ENCODE_FROM_BYTES || !ENCODABLE.test(type))
    return { encoding: "identity", body: identity };
  let body = entry.bodies[wanted];
  if (!body) {
    body = encode(identity, wanted);
    entry.bodies[wanted] = body;
    if (entry.held) heldBytes += body.length;
  }
  return { encoding: wanted, body };
}

function send(req: IncomingMessage, res: ServerResponse, entry: Entry) {
  const { encoding, body } = bodyIn(entry, negotiateEncoding(req.headers["accept-encoding"]));
  for (const [name, value] of Object.entries(entry.headers)) if (value !== undefined) res.setHeader(name, value);
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  if (ENCODABLE.test(String(entry.headers["content-type"] ?? ""))) {
    const vary = String(res.getHeader("Vary") ?? "");
    if (!/\baccept-encoding\b/i.test(vary)) res.setHeader("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
  }
  res.writeHead(entry.status);
  res.end(req.method === "HEAD" ? undefined : body);
}

function store(key: string, entry: Entry, now: number) {
  const cap = capBytes();
  if (entry.bytes > cap / 4) return;
  for (const [k, e] of entries) if (now - e.storedAt > ENTRY_LIFETIME_MS) drop(k, e);
  for (const [k, e] of entries) {
    if (heldBytes + entry.bytes <= cap) break;
    drop(k, e);
  }
  entry.held = true;
  entries.set(key, entry);
  heldBytes += entry.bytes;
}

function drop(key: string, entry: Entry) {
  entries.delete(key);
  entry.held = false;
  heldBytes -= Object.values(entry.bodies).reduce((n, b) => n + (b?.length ?? 0), 0);
}

/** A cacheable answer: a 200, public, setting no cookie, with no validator of its own. */
function cacheable(res: ServerResponse): boolean {
  return (
    res.statusCode === 200 &&
    !res.hasHeader("Set-Cookie") &&
    !res.hasHeader("ETag") &&
    /\bpublic\b/i.test(String(res.getHeader("Cache-Control") ?? "")) &&
    !/\b(no-store|private)\b/i.test(String(res.getHeader("Cache-Control") ?? ""))
  );
}

const noCacheAsked = (req: IncomingMessage) =>
  /\bno-cache\b/i.test(String(req.headers["cache-control"] ?? "")) || /\bno-cache\b/i.test(String(req.headers.pragma ?? ""));

/**
 * For a visitor's GET or HEAD whose validator is `etag` (and that was not a 304): answer from the
 * cache (true), or leave the request to the app (false).
 */
export function answerFromVisitorCache(req: IncomingMessage, res: ServerResponse, etag: string, now: number = Date.now()): boolean {
  if (capBytes() <= 0) return false;
  const hit = noCacheAsked(req) ? undefined : entries.get(etag);
  if (!hit || now - hit.storedAt > ENTRY_LIFETIME_MS) return false;
  // Most recently used goes last: the oldest-first eviction spares it.
  entries.delete(etag);
  entries.set(etag, hit);
  res.setHeader("ETag", etag);
  send(req, res, hit);
  return true;
}

/** Whether the app's answer, its head set on `res` and not yet written, is one to keep: cacheable, and the cache on. */
export function keepsVisitorAnswers(res: ServerResponse): boolean {
  return capBytes() > 0 && cacheable(res);
}

/**
 * Keep the app's answer to a visitor's GET (its head on `res`, its whole body in `body`) under its
 * validator and send it in the client's encoding, encoded here once per encoding (the app never
 * encodes; the compression layer passes an encoded answer through).
 */
export function keepVisitorAnswer(req: IncomingMessage, res: ServerResponse, etag: string, body: Buffer, now: number = Date.now()): void {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(res.getHeaders())) if (!HOP_BY_HOP.has(name)) headers[name] = value;
  const entry: Entry = { status: res.statusCode, headers, bodies: { identity: body }, bytes: body.length, storedAt: now, held: false };
  store(etag, entry, now);
  res.setHeader("ETag", etag);
  for (const name of ["content-length", "transfer-encoding"]) res.removeHeader(name);
  send(req, res, entry);
}

/** For tests: forget every entry. */
export function clearVisitorCache() {
  for (const [key, entry] of entries) drop(key, entry);
}

/** What the cache holds: entries and bytes (tests, the health of a long-running process). */
export const visitorCacheSize = () => ({ entries: entries.size, bytes: heldBytes });

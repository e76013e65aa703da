/**
 * What a first visit downloads: each page's JavaScript (every script and module preload its HTML
 * names, plus what the inline module imports), gzipped at level 6 as a server would send it, and the
 * home page's HTML as the app actually transfers it compressed, against one-shot gzip of the same
 * bytes (a document flushed in many small pieces compresses worse).
 */
import zlib from "node:zlib";
import { request } from "./load";

export type PageWeight = { page: string; files: number; jsRaw: number; jsGz: number; status: number };

function scriptUrls(html: string): Set<string> {
  const js = new Set<string>();
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g)) js.add(m[1]!);
  for (const m of html.matchAll(/<script[^>]+src="([^"]+)"/g)) js.add(m[1]!);
  for (const m of html.matchAll(/import\s*(?:[^"';]*?from\s*)?["'](\/[^"']+\.js)["']/g)) js.add(m[1]!);
  return js;
}

/** The first-load JavaScript of `page`, fetched as a visitor or with `cookie`. */
export async function pageWeight(port: number, page: string, label: string, cookie?: string): Promise<PageWeight> {
  const html = await request(port, page, cookie ? { Cookie: cookie } : {});
  const urls = scriptUrls(html.body.toString("utf8"));
  let jsRaw = 0;
  let jsGz = 0;
  for (const url of urls) {
    const res = await request(port, url, { "Accept-Encoding": "identity" });
    if (res.status !== 200) continue;
    jsRaw += res.body.length;
    jsGz += zlib.gzipSync(res.body, { level: 6 }).length;
  }
  return { page: label, files: urls.size, jsRaw, jsGz, status: html.status };
}

export type HtmlTransfer = {
  raw: number;
  /** Bytes on the wire when the client accepts gzip only, and when it accepts what browsers do. */
  gzip: number;
  best: number;
  bestEncoding: string;
  oneShotGzip: number;
};

function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === "gzip") return zlib.gunzipSync(body);
  if (encoding === "br") return zlib.brotliDecompressSync(body);
  if (encoding === "deflate") return zlib.inflateSync(body);
  return body;
}

/** `/` for a visitor as transferred: gzip-only and browser-like Accept-Encoding, vs one-shot gzip -6. */
export async function htmlTransfer(port: number, page = "/"): Promise<HtmlTransfer> {
  const gz = await request(port, page, { "Accept-Encoding": "gzip" });
  const best = await request(port, page, { "Accept-Encoding": "gzip, deflate, br" });
  const raw = decode(gz.body, gz.headers["content-encoding"]);
  return {
    raw: raw.length,
    gzip: gz.body.length,
    best: best.body.length,
    bestEncoding: String(best.headers["content-encoding"] ?? "identity"),
    oneShotGzip: zlib.gzipSync(raw, { level: 6 }).length,
  };
}

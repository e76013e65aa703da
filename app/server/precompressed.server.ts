import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { type Encoding, negotiateEncoding } from "./visitor-cache.server";

/**
 * The build's assets as a phone is best sent them: compressed once, at build time, at the strongest
 * settings (brotli 11, gzip 9), where compressing on the fly per request can only afford a quick
 * setting (the `compression` middleware's brotli 4 sent the framework file as 89 KB, brotli 11 makes
 * it 76). `npm run build` writes `<file>.br` and `<file>.gz` beside each asset worth it
 * (scripts/precompress.ts); the server sends the variant the browser takes, with the original's type.
 * An asset without variants, or a browser that takes neither, is served as before.
 */

/** The file suffix of each precompressed variant. */
export const VARIANTS: Record<Exclude<Encoding, "identity">, string> = { br: ".br", gzip: ".gz" };

/**
 * What is worth compressing: text assets whose copy is at least this much smaller than the asset, so
 * that it gains more than the headers it adds (`Content-Encoding`, `Vary`: about 45 bytes). Most of a
 * build's small shared files (400–1000 bytes) come to half their size as brotli; a file of a line or
 * two does not gain it.
 */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|html|xml|webmanifest)$/;
const MIN_SAVING_BYTES = 64;

/** Every file under `dir`, as paths relative to it with forward slashes. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (sub: string) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else if (entry.isFile()) out.push(rel);
    }
  };
  walk("");
  return out;
}

/** Writes the variants of every asset worth it under `dir`; what it wrote, and the bytes before and after. */
export function precompressDir(dir: string): Array<{ file: string; raw: number; br: number; gzip: number }> {
  const written: Array<{ file: string; raw: number; br: number; gzip: number }> = [];
  for (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const body = fs.readFileSync(path.join(dir, file));
    if (body.length <= MIN_SAVING_BYTES) continue;
    const br = zlib.brotliCompressSync(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    const gzip = zlib.gzipSync(body, { level: zlib.constants.Z_BEST_COMPRESSION });
    // Each copy on its own: gzip's framing costs more than brotli's, so a small file may get one only.
    const worth = (copy: Buffer) => body.length - copy.length >= MIN_SAVING_BYTES;
    if (!worth(br) && !worth(gzip)) continue;
    if (worth(br)) fs.writeFileSync(path.join(dir, file + VARIANTS.br), br);
    if (worth(gzip)) fs.writeFileSync(path.join(dir, file + VARIANTS.gzip), gzip);
    written.push({ file, raw: body.length, br: worth(br) ? br.length : body.length, gzip: worth(gzip) ? gzip.length : body.length });
  }
  return written;
}

/**
 * Middleware before `express.static(dir)`: when the browser takes brotli (or gzip) and the asset has
 * that variant, the request is pointed at the variant, with the original's Content-Type, its
 * Content-Encoding and `Vary: Accept-Encoding`; express.static then sends it (length, ETag of the
 * variant's own bytes, ranges, HEAD, the year-long cache). The variants are listed once, when the
 * server starts: a build's assets do not change under it.
 */
export function precompressedAssets(dir: string) {
  const variants = new Map<string, Set<Encoding>>();
  let files: string[] = [];
  try {
    files = filesUnder(dir);
  } catch {
    // No assets directory (a server build without its client): nothing to send precompressed.
  }
  const present = new Set(files);
  for (const file of files) {
    for (const [encoding, suffix] of Object.entries(VARIANTS) as Array<[Exclude<Encoding, "identity">, string]>) {
      const original = file.slice(0, -suffix.length);
      if (file.endsWith(suffix) && present.has(original)) {
        (variants.get(original) ?? variants.set(original, new Set()).get(original)!).add(encoding);
      }
    }
  }
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || variants.size === 0) return next();
    let file: string;
    try {
      file = decodeURIComponent(req.path).replace(/^\/+/, "");
    } catch {
      return next();
    }
    const has = variants.get(file);
    if (!has) return next();
    res.vary("Accept-Encoding");
    const encoding = negotiateEncoding(req.headers["accept-encoding"]);
    if (encoding === "identity" || !has.has(encoding)) return next();
    res.type(path.extname(file));
    res.setHeader("Content-Encoding", encoding);
    const query = req.url.indexOf("?");
    req.url = query < 0 ? req.url + VARIANTS[encoding] : req.url.slice(0, query) + VARIANTS[encoding] + req.url.slice(query);
    next();
  };
}

/**
 * Each page's first-load JavaScript from the build's browser manifest: the entry, then the module
 * and imports of every route from the root down to the page (what the HTML names as scripts and
 * modulepreloads; the bench's `pageWeight` counts the same files from the served HTML), gzipped at
 * level 6 file by file, and what must never reach a browser: classic zod and `new Function`/eval
 * (the CSP has no 'unsafe-eval'). Used by scripts/chunk-sizes.ts and tests/e2e/first-load-js.spec.ts.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { ASSETS_PATH } from "../app/utils/assets-path";
import { readRemixManifest } from "./remix-manifest";

/**
 * Issue 13's budgets. `page` holds for every route's first load as the manifest gives it, which is
 * what a member loads. `home` is a visitor's first load of the home page, which is sent without
 * scripts (docs/decisions/0047): the bench weighs that page as served, and plain-home.spec.ts checks
 * that it names no script. A member's home is held to its size in first-load-js.spec.ts.
 */
export const BUDGET_KB = { home: 90, page: 120 };

export type PageLoad = {
  route: string;
  files: string[];
  raw: number;
  gzip: number;
  evalIn: string[];
  classicZodIn: string[];
};

/** `new Function`, `Function` held for a later `new`, or eval, as minified code writes them. */
const EVAL = /\bnew Function\b|=Function[;,)]|\beval\(/;
/** Classic zod's class names (zod/mini's are ZodMini*). */
const CLASSIC_ZOD = /"Zod(String|Object|Array)"/;

export function firstLoads(assetsDir: string): PageLoad[] {
  const manifest = readRemixManifest(assetsDir);
  const cache = new Map<string, { raw: number; gzip: number; evals: boolean; classicZod: boolean }>();
  const weigh = (url: string) => {
    let w = cache.get(url);
    if (!w) {
      const bytes = fs.readFileSync(path.join(assetsDir, url.slice(ASSETS_PATH.length)));
      const text = bytes.toString();
      w = {
        raw: bytes.length,
        gzip: zlib.gzipSync(bytes, { level: 6 }).length,
        evals: EVAL.test(text),
        classicZod: CLASSIC_ZOD.test(text),
      };
      cache.set(url, w);
    }
    return w;
  };
  const chain = (id: string): string[] => {
    const parent = manifest.routes[id]!.parentId;
    return parent ? [...chain(parent), id] : [id];
  };
  return Object.keys(manifest.routes)
    .filter((id) => !id.startsWith("routes/api."))
    .sort()
    .map((route) => {
      const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
      for (const id of chain(route)) for (const f of [manifest.routes[id]!.module, ...(manifest.routes[id]!.imports ?? [])]) files.add(f);
      const list = [...files];
      const w = list.map((f) => [f, weigh(f)] as const);
      return {
        route,
        files: list,
        raw: w.reduce((n, [, x]) => n + x.raw, 0),
        gzip: w.reduce((n, [, x]) => n + x.gzip, 0),
        evalIn: w.filter(([, x]) => x.evals).map(([f]) => f),
        classicZodIn: w.filter(([, x]) => x.classicZod).map(([f]) => f),
      };
    });
}

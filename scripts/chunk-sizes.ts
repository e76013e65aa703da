/**
 * What each page's browser code weighs: the route module and the chunks it imports beyond the entry,
 * raw and gzipped, and whether zod is in them (pages that only read should not ship it).
 *
 *   npm run build && npx tsx scripts/chunk-sizes.ts [assets dir, default build/client/assets]
 *
 * Then each page's first load (scripts/first-load.ts) against its budget, flagging eval and classic zod.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { ASSETS_PATH } from "../app/utils/assets-path";
import { ASSETS_DIR } from "./build-dirs";
import { BUDGET_KB, firstLoads } from "./first-load";
import { readRemixManifest } from "./remix-manifest";

const dir = process.argv[2] ?? ASSETS_DIR;
const manifest = readRemixManifest(dir);
const read = (url: string) => fs.readFileSync(path.join(dir, url.slice(ASSETS_PATH.length)));

function weigh(files: Iterable<string>) {
  let raw = 0;
  let gzip = 0;
  let zod = false;
  for (const file of files) {
    const bytes = read(file);
    raw += bytes.length;
    gzip += zlib.gzipSync(bytes).length;
    if (/ZodError|_zod/.test(bytes.toString())) zod = true;
  }
  return { raw, gzip, zod };
}

const entry = new Set([manifest.entry.module, ...manifest.entry.imports]);
const shared = weigh(entry);
console.log(`${"entry + shared".padEnd(40)} ${String(shared.raw).padStart(8)} ${String(shared.gzip).padStart(7)} gz`);
for (const [id, route] of Object.entries(manifest.routes).sort(([a], [b]) => a.localeCompare(b))) {
  if (id.startsWith("routes/api.")) continue;
  const own = weigh(new Set([route.module, ...(route.imports ?? [])].filter((f) => !entry.has(f))));
  console.log(`${id.padEnd(40)} ${String(own.raw).padStart(8)} ${String(own.gzip).padStart(7)} gz${own.zod ? "  zod" : ""}`);
}

// First load per page (entry + every route down to the page, each file once) against issue 13's budgets.
console.log(`\n${"first load (entry + route chain)".padEnd(40)} ${"files".padStart(5)} ${"gz".padStart(8)}  budget`);
for (const page of firstLoads(dir)) {
  const over = page.gzip > BUDGET_KB.page * 1024 ? "  OVER" : "";
  const bad = [page.evalIn.length ? "  eval" : "", page.classicZodIn.length ? "  classic zod" : ""].join("");
  console.log(
    `${page.route.padEnd(40)} ${String(page.files.length).padStart(5)} ${(page.gzip / 1024).toFixed(1).padStart(6)} KB  ≤ ${BUDGET_KB.page}${over}${bad}`,
  );
}

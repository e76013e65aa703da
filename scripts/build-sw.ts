/**
 * Bundles the service worker (app/sw/, Workbox) after `react-router build`: `npm run build` runs it,
 * and so does the e2e server's start (playwright.config.ts), so a build made with Vite alone still
 * gets its worker. docs/decisions/0033-service-worker-saved-pages.md.
 *
 *   npx tsx scripts/build-sw.ts          (REMIX_BUILD_DIR is honoured, as in vite.config.ts)
 *
 * The worker is written beside the server build (`build/server/sw.js`, or under `$REMIX_BUILD_DIR`) and
 * served at /sw.js by app/routes/sw[.]js.ts: each build dir has its own, and nothing is written into
 * the checkout's public/. Its precache list is the shell only: the offline page, icon and web
 * manifest (revisioned by content) and this build's entry, root chunks and stylesheet (their names
 * carry their hash). Pages and route modules are cached as they are used, not up front.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { ASSETS_PATH } from "../app/utils/assets-path";
import { ASSETS_DIR, SERVER_BUILD } from "./build-dirs";
import { readRemixManifest } from "./remix-manifest";

const SHELL_FILES = ["offline.html", "favicon.svg", "manifest.webmanifest"];

type PrecacheEntry = { url: string; revision: string | null };

function shellEntries(): PrecacheEntry[] {
  const manifest = readRemixManifest(ASSETS_DIR);
  const root = manifest.routes.root;
  const hashed = [manifest.url, manifest.entry.module, ...manifest.entry.imports, root.module, ...(root.imports ?? [])];
  const styles = fs
    .readdirSync(ASSETS_DIR)
    .filter((file) => file.endsWith(".css"))
    .map((file) => `${ASSETS_PATH}${file}`);
  const files = SHELL_FILES.map((file) => ({
    url: `/${file}`,
    revision: createHash("sha256")
      .update(fs.readFileSync(path.join("public", file)))
      .digest("hex")
      .slice(0, 16),
  }));
  return [...files, ...[...new Set([...hashed, ...styles])].map((url) => ({ url, revision: null }))];
}

const outfile = path.join(path.dirname(SERVER_BUILD), "sw.js");
const entries = shellEntries();
await build({
  entryPoints: ["app/sw/index.ts"],
  bundle: true,
  format: "iife",
  minify: true,
  target: "es2020",
  tsconfig: "app/sw/tsconfig.json",
  define: { "self.__WB_MANIFEST": JSON.stringify(entries), "process.env.NODE_ENV": '"production"' },
  outfile,
  logLevel: "warning",
});
console.log(`service worker: ${outfile} (${fs.statSync(outfile).size} bytes, ${entries.length} precached)`);

/**
 * Bundles the service worker (app/sw/, Workbox) after `react-router build`: `npm run build` runs it,
 * and so does the e2e server's start (playwright.config.ts), so a build made with Vite alone still
 * gets its worker. docs/decisions/0033-service-worker-saved-pages.md.
 *
 *   npx tsx scripts/build-sw.ts          (REMIX_BUILD_DIR is honoured, as in vite.config.ts)
 *
 * The worker is written beside the server build (`build/server/sw.js`, or under `$REMIX_BUILD_DIR`) and
 * served at /sw.js by app/routes/sw[.]js.ts: each build dir has its own, and nothing is written into
 * the checkout's public/. Its precache list is the shell: the offline page, icon and web manifest
 * (revisioned by content) and this build's entry, root chunks and stylesheet (their names carry their
 * hash), fetched as the worker installs. Pages are cached as they are used.
 *
 * Beside it, the route modules a member is likely to open next (ROUTES_AHEAD) with everything they
 * import, statically or lazily (the lazy parts a page asks for as it hydrates or when used: the post
 * editor, the dialogs…), read from the chunk graph vite.config.ts writes. The worker fetches those in
 * the background once a page has loaded, not as it installs (app/sw/routes-ahead.ts, ADR 0088).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { ASSETS_PATH } from "../app/utils/assets-path";
import { ASSETS_DIR, CHUNK_GRAPH, SERVER_BUILD } from "./build-dirs";
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

/**
 * The pages a member is likely to open next, most likely first: a post (from the feed, a
 * notification or a mail), the home feed, writing a post, the bell, a club and its posts, a profile,
 * settings, the club list, search. Staff pages, sign-in and the rare pages are left to be fetched
 * when used.
 */
const ROUTES_AHEAD = [
  "routes/post.$id",
  "routes/_index",
  "routes/create",
  "routes/notifications",
  "routes/clubs.$id",
  "routes/clubs.$id._index",
  "routes/profile.$username",
  "routes/settings",
  "routes/clubs._index",
  "routes/search",
];

type ChunkGraph = Record<string, { imports: string[]; dynamicImports: string[] }>;

/**
 * The build files of ROUTES_AHEAD, in that order, and what each imports (statically or lazily, all
 * the way down), and the shell's own lazy parts (a toast's card, the outbox's sender), leaving out
 * what the shell precache holds.
 */
function routesAhead(shell: Set<string>): string[] {
  const manifest = readRemixManifest(ASSETS_DIR);
  const graph = JSON.parse(fs.readFileSync(CHUNK_GRAPH, "utf8")) as ChunkGraph;
  // The chunk graph names files from the client directory ("assets/x.js"), the manifest by address.
  const toUrl = (file: string) => `/${file}`;
  const toFile = (url: string) => url.slice(1);
  const files: string[] = [];
  const seen = new Set<string>();
  const walk = (url: string) => {
    if (seen.has(url)) return;
    seen.add(url);
    if (!shell.has(url)) files.push(url);
    const chunk = graph[toFile(url)];
    if (!chunk) throw new Error(`${url} is not in the chunk graph: build again`);
    for (const next of [...chunk.imports, ...chunk.dynamicImports]) walk(toUrl(next));
  };
  for (const id of ROUTES_AHEAD) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`ROUTES_AHEAD names ${id}, which this build has not`);
    walk(route.module);
  }
  for (const url of shell) if (url.endsWith(".js") && graph[toFile(url)]) walk(url);
  return files;
}

const outfile = path.join(path.dirname(SERVER_BUILD), "sw.js");
const entries = shellEntries();
const ahead = routesAhead(new Set(entries.map((entry) => entry.url)));
const aheadBytes = ahead.reduce((sum, url) => sum + fs.statSync(path.join(ASSETS_DIR, url.slice(ASSETS_PATH.length))).size, 0);
await build({
  entryPoints: ["app/sw/index.ts"],
  bundle: true,
  format: "iife",
  minify: true,
  target: "es2020",
  tsconfig: "app/sw/tsconfig.json",
  define: {
    "self.__WB_MANIFEST": JSON.stringify(entries),
    // Each build's routes ahead have a cache of their own, named by what it holds.
    "self.__ROUTES_AHEAD": JSON.stringify({
      cache: `routes-ahead-${createHash("sha256").update(ahead.join("\n")).digest("hex").slice(0, 12)}`,
      files: ahead,
    }),
    "process.env.NODE_ENV": '"production"',
  },
  outfile,
  logLevel: "warning",
});
console.log(
  `service worker: ${outfile} (${fs.statSync(outfile).size} bytes, ${entries.length} precached; ` +
    `${ahead.length} files ahead for ${ROUTES_AHEAD.length} routes, ${(aheadBytes / 1024).toFixed(1)} KB before compression)`,
);
if (process.env.SW_AHEAD_FILES) for (const url of ahead) console.log(`  ${url}`);

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import type { GetManualChunk, PreRenderedChunk } from "rollup";
import { defineConfig, type Plugin } from "vite";
import { CHUNK_GRAPH_FILE } from "./scripts/build-dirs";

/** Vite's default browsers ("modules"), named for the stylesheet of both builds. */
const BROWSERS = ["es2020", "edge88", "firefox78", "chrome87", "safari14"];

/**
 * Route modules other than the root go under assets/routes/, named after their route file, so the
 * service worker can tell one it never loaded from a shared chunk (app/sw/index.ts): a stand-in
 * serves for the first, not the second.
 */
function clientEntryName(chunk: PreRenderedChunk): string {
  const file = chunk.facadeModuleId?.replace(/\?.*$/, "") ?? "";
  const routes = fileURLToPath(new URL("./app/routes/", import.meta.url));
  if (!file.startsWith(routes)) return "assets/[name]-[hash].js";
  const name = file
    .slice(routes.length)
    .replace(/\/route\.tsx?$|\.tsx?$/, "")
    .replace(/[^\w.-]/g, "_");
  return `assets/routes/${name}-[hash].js`;
}

/**
 * Small app modules that Rollup would cut into a file each, grouped (issue 40's cold-visit budget,
 * docs/decisions/0097-cold-visit-budget.md): every script is a request with its headers, and a phone
 * on a weak link pays each one. A group holds modules that the same pages load together, so that no
 * page fetches what it does not use and no page's first load grows (first-load-js.spec.ts).
 * `onlyExplicitManualChunks`: a group is what it lists; left to itself, Rollup also pulls into a
 * group every module only its members import (relative time, option lists…), so that a page using
 * one of those loaded the whole group.
 *
 * - `shell-later`: what the shell imports lazily after hydration on every page (the outbox's wire
 *   and the uploader it hands a waiting post's photos to, the toast card, the routes ahead).
 * - `zod`: zod/mini and its core with the text schemas that load them (two files before).
 * - `club`: the club's picture and its "no such club" panel, which a club's pages and its new-post
 *   page share (the join dialog and member count stay together as Rollup makes them: the new-post
 *   page has neither).
 * - `post-options`, `report-link`, `tags`, `report-filter`: option lists, the report link and its
 *   dialog's state, the tags field and its parser, the field reports' words and the select + Show
 *   form that filters them (the pulse, the harvest log), each pair loaded by the same pages (ADR
 *   0099; the home and a post one request fewer each, `/search` and `/clubs` 0.2–0.5 KB gz more for
 *   the half they do not use).
 */
const GROUPS = new Map(
  Object.entries({
    "shell-later": [
      "offline/outbox-wire.ts",
      "components/layout/toast-card.tsx",
      "components/layout/toast-placement.ts",
      "offline/routes-ahead.ts",
      "offline/routes-ahead-message.ts",
      "offline/outbox-upload.ts",
    ],
    zod: ["schemas/text.ts"],
    club: ["components/club/image.tsx", "components/club/not-found.tsx"],
    "post-options": ["schemas/post-options.ts", "schemas/media-options.ts"],
    "report-link": ["components/moderation/report.tsx", "components/ui/dialog-form-state.ts"],
    tags: ["components/ui/tags-input.tsx", "utils/tags.ts"],
    "report-filter": ["components/ui/select-show-form.tsx", "schemas/field-report-options.ts"],
  }).flatMap(([chunk, files]) => files.map((file) => [fileURLToPath(new URL(`./app/${file}`, import.meta.url)), chunk] as const)),
);

/**
 * What every page loads before anything else, in two files: the code the browser entry and the root
 * route import statically (not what they import lazily, which stays on demand), as `framework` (the
 * packages: React, Remix, the router) and `shell` (the app's own: the top bar, the toaster, the
 * outbox…). Left to itself, Rollup cut the shell into a file per module shared by two chunks, and
 * any move of a module changed how many (21 to 24 files on every page after one such move).
 */
/**
 * `card`: a post's card and the app modules it imports statically (its actions, media, link preview
 * and its card, the owner's menu, the report link…), which a page showing posts loads all of, save
 * the small ones other pages use without a card (SHARED_WITH_OTHERS): each of those stays a file of
 * its own, so that no page without posts loads the card for it.
 */
const POST_CARD = fileURLToPath(new URL("./app/components/post/card.tsx", import.meta.url));
const SHARED_WITH_OTHERS = new Set(
  [
    "components/ui/relative-time.tsx",
    "components/ui/dialog-form.tsx",
    "components/ui/dialog-form-state.ts",
    "components/ui/idempotency-key.tsx",
    "schemas/post-options.ts",
    "schemas/media-options.ts",
    "schemas/club-options.ts",
    "schemas/report-options.ts",
    "utils/import-again.ts",
    "utils/remix.ts",
    "utils/feed-links.ts",
    // A club's header reports the club: with the card, every club page (rules, events…) would load it.
    "components/moderation/report.tsx",
  ].map((file) => fileURLToPath(new URL(`./app/${file}`, import.meta.url))),
);
let postCard: Set<string> | undefined;
function postCardModules(getModuleInfo: Parameters<GetManualChunk>[1]["getModuleInfo"], shell: Set<string>): Set<string> {
  if (postCard) return postCard;
  postCard = new Set();
  const ids = [POST_CARD];
  while (ids.length > 0) {
    const next = ids.pop()!;
    if (postCard.has(next) || shell.has(next) || GROUPS.has(next) || SHARED_WITH_OTHERS.has(next)) continue;
    if (next.includes("/node_modules/") || next.startsWith("\0") || !next.startsWith(APP_DIR)) continue;
    const info = getModuleInfo(next);
    if (!info) continue;
    postCard.add(next);
    ids.push(...info.importedIds);
  }
  return postCard;
}
/** Packages grouped with the app module that loads them: zod/mini and its core with the text schemas (always loaded together). */
const PACKAGE_GROUPS: Array<[RegExp, string]> = [[/\/node_modules\/zod\//, "zod"]];
const packageGroup = (id: string) => PACKAGE_GROUPS.find(([pattern]) => pattern.test(id))?.[1];
const APP_DIR = fileURLToPath(new URL("./app/", import.meta.url));

/**
 * Three small modules most pages load (ten of fifteen, eight, seven): in the shell they cost the
 * pages without them about 1 KB gz and save the others a request each (ADR 0099).
 */
const IN_SHELL = new Set(
  ["components/ui/relative-time.tsx", "utils/remix.ts", "utils/import-again.ts"].map((file) =>
    fileURLToPath(new URL(`./app/${file}`, import.meta.url)),
  ),
);
const APP_SHELL_ROOTS = ["./app/entry.client.tsx", "./app/root.tsx"].map((file) => fileURLToPath(new URL(file, import.meta.url)));
let appShell: Set<string> | undefined;
const shellChunk: GetManualChunk = (id, { getModuleInfo }) => {
  if (!appShell) {
    appShell = new Set();
    const ids = [...APP_SHELL_ROOTS];
    while (ids.length > 0) {
      const next = ids.pop()!;
      if (appShell.has(next)) continue;
      const info = getModuleInfo(next);
      if (!info) continue;
      appShell.add(next);
      ids.push(...info.importedIds);
    }
  }
  // The entry itself stays a file of its own: its code (hydration, the worker's registration) must
  // run when Remix imports it, after the page's inline script has set the manifest, not when the
  // root route's module is imported before that.
  if (id === APP_SHELL_ROOTS[0]) return undefined;
  if (IN_SHELL.has(id)) return "shell";
  if (!appShell.has(id))
    return GROUPS.get(id) ?? packageGroup(id) ?? (postCardModules(getModuleInfo, appShell).has(id) ? "card" : undefined);
  // Vite's own helpers (virtual modules, "\0…") go with the packages that call them.
  return id.includes("/node_modules/") || id.startsWith("\0") ? "framework" : "shell";
};

/**
 * The browser build's chunk graph, written beside the client directory (`<build>/client-chunks.json`,
 * not served): each script's static and dynamic imports. React Router's manifest names only a
 * route's static imports; the service worker's routes ahead (scripts/build-sw.ts, ADR 0088) also
 * want the lazy parts a route loads as it hydrates or when used.
 */
function chunkGraph(): Plugin {
  return {
    name: "whitetail-chunk-graph",
    apply: "build",
    writeBundle(options, bundle) {
      if (!options.dir) return;
      const graph: Record<string, { imports: string[]; dynamicImports: string[] }> = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === "chunk") graph[chunk.fileName] = { imports: chunk.imports, dynamicImports: chunk.dynamicImports };
      }
      fs.writeFileSync(path.join(path.dirname(options.dir), CHUNK_GRAPH_FILE), JSON.stringify(graph));
    },
  };
}

// React Router's Vite plugin (docs/decisions/0082-react-router-7.md; its settings in
// react-router.config.ts, the routes in app/routes.ts). Tailwind and autoprefixer run through Vite's
// CSS (postcss.config.js).
export default defineConfig(({ isSsrBuild }) => ({
  resolve: {
    alias: {
      "~": fileURLToPath(new URL("./app", import.meta.url)),
      "#db": fileURLToPath(new URL("./db", import.meta.url)),
    },
  },
  // Packages that ship ESM only, or that the server build must carry, are bundled into it.
  ssr: { noExternal: [/^remix-auth/, /^@mjackson\//, /^@oslojs\//] },
  // The server build keeps its top-level awaits (the database opens as the build is imported). Both
  // builds write the stylesheet for the same browsers, so the page's link and the browser's agree.
  build: isSsrBuild
    ? // One file: server code reads its neighbours (sw.js) beside `import.meta.url`.
      { target: "node20", cssTarget: BROWSERS, rollupOptions: { output: { inlineDynamicImports: true } } }
    : {
        cssTarget: BROWSERS,
        // Terser, two passes: 3–4 % fewer bytes as brotli than esbuild's minifier on every script
        // (the framework file 76.4 → 73.5 KB), for about 8 s more build (ADR 0099).
        minify: "terser",
        terserOptions: { compress: { passes: 2 }, module: true },
        rollupOptions: { output: { entryFileNames: clientEntryName, manualChunks: shellChunk, onlyExplicitManualChunks: true } },
      },
  plugins: isSsrBuild ? [reactRouter()] : [reactRouter(), chunkGraph()],
}));

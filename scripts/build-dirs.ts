/**
 * Where a build lives (vite.config.ts, ADR 0075's layout): `build/` by default, or `$REMIX_BUILD_DIR`
 * so several checkouts' test runs build side by side (tmp/<name>/). One place for the scripts, the
 * Playwright configs and the bench to find the server build, the browser files and the worker.
 */
import path from "node:path";

/** The build directory (Vite's `buildDirectory`). */
export const BUILD_DIR = process.env.REMIX_BUILD_DIR ?? "build";
/** The server build `node server.js` runs. */
export const SERVER_BUILD = path.join(BUILD_DIR, "server", "index.js");
/** What the browser is sent: the public/ files and the hashed assets. */
export const CLIENT_DIR = path.join(BUILD_DIR, "client");
/** The hashed assets (scripts, styles, the route manifest), served under /assets/. */
export const ASSETS_DIR = path.join(CLIENT_DIR, "assets");
/**
 * The browser build's chunk graph (each script's static and dynamic imports), written by
 * vite.config.ts beside the client directory (not served) for the worker's routes ahead (build-sw.ts).
 */
export const CHUNK_GRAPH_FILE = "client-chunks.json";
export const CHUNK_GRAPH = path.join(BUILD_DIR, CHUNK_GRAPH_FILE);

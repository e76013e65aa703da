import { defineConfig } from "@playwright/test";
import { RENDER_CACHE_VERIFY, shared } from "./playwright.config";

/**
 * The end-to-end suite on PostgreSQL (issue 25, `npm run test:e2e:pg`): the options of
 * playwright.config.ts, against two production app nodes on one fresh PostgreSQL database behind
 * the shipped nginx config (docs/deploy/nginx.conf) as their load balancer, started by
 * scripts/e2e-pg-stack.ts. Needs PG_TEST_URL (an admin URL; `.ci/run` starts a cluster and sets it)
 * and nginx; the build in build/ (or REMIX_BUILD_DIR).
 *
 * Ports: nginx on E2E_PORT (default 3300, the baseURL), the nodes on E2E_PORT+80 and +81; the specs
 * that start servers of their own use E2E_PORT+4…+71 and +91…+94, as in the SQLite run.
 *
 * Specs see the run through the environment this file sets (Playwright's workers load it too):
 * E2E_PORT, E2E_DATA_DIR (the shared media folder is its uploads/), E2E_NODE_URL (the first node,
 * not through nginx) and E2E_DATABASE_URL, which tests/e2e/fixtures.ts's `startServer` hands extra
 * servers as DATABASE_URL and `queryDatabase` reads.
 */
const PORT = Number(process.env.E2E_PORT ?? 3300);
const NODE_PORTS = [PORT + 80, PORT + 81];
const DATA_DIR = `tmp/e2e-pg-${PORT}`;
const DATABASE = `whitetail_e2e_${PORT}`;

process.env.E2E_PORT = String(PORT);
process.env.E2E_DATA_DIR = DATA_DIR;
// The first node, for the specs that check what the app itself answers to requests nginx would not pass on as sent.
process.env.E2E_NODE_URL = `http://127.0.0.1:${NODE_PORTS[0]}`;
if (process.env.PG_TEST_URL)
  process.env.E2E_DATABASE_URL = Object.assign(new URL(process.env.PG_TEST_URL), { pathname: `/${DATABASE}` }).toString();

export default defineConfig({
  ...shared,
  // Every request crosses nginx and each query a PostgreSQL round trip, with two nodes, nginx and the
  // database sharing the machine's cores: tests take longer than on one SQLite node (images.spec.ts
  // ran at 29–31 s of the 30 s under load).
  timeout: 45_000,
  // Its own: other runs (the SQLite suite, single specs) empty test-results/ when they start.
  outputDir: `tmp/e2e-pg-results-${PORT}`,
  use: { ...shared.use, baseURL: `http://localhost:${PORT}` },
  webServer: {
    command: "node_modules/.bin/tsx scripts/build-sw.ts && node_modules/.bin/tsx scripts/e2e-pg-stack.ts",
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    // SIGTERM, so the stack stops nginx (a daemon) and the nodes and drops its database.
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
    stdout: "pipe",
    env: {
      E2E_PORT: String(PORT),
      E2E_PG_NODE_PORTS: NODE_PORTS.join(","),
      E2E_PG_DATABASE: DATABASE,
      E2E_DATA_DIR: DATA_DIR,
      RENDER_CACHE_VERIFY,
    },
  },
});

import { defineConfig, type PlaywrightTestConfig } from "@playwright/test";
import { SERVER_BUILD } from "./scripts/build-dirs";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const DATA_DIR = process.env.E2E_DATA_DIR ?? `tmp/e2e-${PORT}`;

/**
 * Render cache verify mode (docs/caching.md): every kept part is drawn in place as well and any
 * difference fails the request. On for the whole suite in CI; RENDER_CACHE_VERIFY=1 turns it on here.
 */
export const RENDER_CACHE_VERIFY = process.env.CI ? "1" : (process.env.RENDER_CACHE_VERIFY ?? "");

/**
 * How long a test and each of its waits may take. CI runs the suite on 2 cores with 2 workers, each
 * a Chromium beside the server; there a member's home took up to 7 s to draw after a sign-in or a
 * logout (stop 36's CI: 3 tests failed waiting 7 s for a toast that came, the same tests passed
 * alone). These are limits on waiting, not budgets (`npm run bench` checks speed): a wait that
 * never ends fails either way, only later in CI.
 */
const WAIT_SCALE = process.env.CI ? 2 : 1;

/**
 * What every end-to-end run shares: this file's (one node on SQLite) and playwright.pg.config.ts's
 * (two nodes on PostgreSQL behind nginx), which add their own baseURL and webServer.
 */
export const shared = {
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000 * WAIT_SCALE,
  expect: { timeout: 7_000 * WAIT_SCALE },
  reporter: "list",
  use: {
    // Recording a trace costs every test its screenshots and DOM snapshots: 5.0 min against 4.2 min
    // for 64 tests here, CPU the 2 cores in CI need for the browsers. Nobody opens a trace from a
    // throw-away CI clone (its log has each failure's page snapshot), so CI records none.
    trace: process.env.CI ? "off" : "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "js-off", use: { javaScriptEnabled: false } },
    { name: "js-on", use: { javaScriptEnabled: true } },
  ],
} satisfies PlaywrightTestConfig;

/**
 * End-to-end tests against the production build on Debian's Chromium, once with JavaScript off
 * (every page must work as plain HTML) and once with it on. `npm test` builds first.
 */
export default defineConfig({
  ...shared,
  use: { ...shared.use, baseURL: `http://localhost:${PORT}` },
  webServer: {
    // The service worker is bundled here too, so a build made with `react-router build` alone has one.
    command: `rm -rf ${DATA_DIR} && mkdir -p ${DATA_DIR} && node_modules/.bin/tsx scripts/build-sw.ts && node server.js ${SERVER_BUILD}`,
    url: `http://localhost:${PORT}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(PORT),
      NODE_ENV: "production",
      DATABASE_PATH: `${DATA_DIR}/app.db`,
      UPLOAD_DIR: `${DATA_DIR}/uploads`,
      SESSION_SECRET: "e2e-session-secret-0123456789abcdef",
      RATE_LIMITS: "off",
      SEED_DEMO: "1",
      RENDER_CACHE_VERIFY,
    },
  },
});

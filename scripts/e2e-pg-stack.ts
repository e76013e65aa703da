/**
 * The site the PostgreSQL end-to-end run tests (playwright.pg.config.ts's webServer, issue 25): a
 * fresh database, two production app nodes on it and the shipped nginx config in front as their
 * load balancer, as docs/deploy/postgres.md runs a site on several machines.
 *
 *   PG_TEST_URL=postgres://postgres@127.0.0.1:55432/postgres tsx scripts/e2e-pg-stack.ts
 *
 * - The database `E2E_PG_DATABASE` is dropped if left over and created from PG_TEST_URL (an admin
 *   URL); it is dropped again when this stops (SIGTERM, SIGINT).
 * - Node 1 (`E2E_PG_NODE_PORTS`, first) seeds the demo (SEED_DEMO=1); node 2 starts at the same time
 *   without it. Both migrate at start-up; db-postgres.server.ts does it under an advisory lock, so
 *   the second waits for the first and then finds nothing to apply.
 * - Both have the same SESSION_SECRET and one UPLOAD_DIR (`E2E_DATA_DIR/uploads`): media written
 *   through one node is served by the other.
 * - nginx (scripts/nginx-local.ts, docs/deploy/nginx.conf adapted to run here) listens on
 *   `E2E_PORT` and balances the two (round-robin) once both answer. Its visitor cache is off: the
 *   specs expect a write to show at once, which the app promises on every node and nginx's copy, by
 *   design, only within the s-maxage (tests/e2e/nginx.spec.ts tests that copy); each node's output goes to
 *   `E2E_DATA_DIR/node-N.log`, nginx's to `E2E_DATA_DIR/nginx/`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { startNginx, type LocalNginx } from "./nginx-local";
import { SERVER_BUILD } from "./build-dirs";

const admin = process.env.PG_TEST_URL;
if (!admin) {
  console.error("PostgreSQL not available (PG_TEST_URL unset): start one with `bash scripts/pg-local.sh start 55432` and export its URL.");
  process.exit(1);
}
const port = Number(process.env.E2E_PORT);
const nodePorts = (process.env.E2E_PG_NODE_PORTS ?? "").split(",").map(Number);
const database = process.env.E2E_PG_DATABASE ?? "";
const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? "");
const build = SERVER_BUILD;
if (!port || nodePorts.length < 2 || nodePorts.some((p) => !p) || !/^[a-z_][a-z0-9_]*$/.test(database) || !process.env.E2E_DATA_DIR) {
  console.error("e2e-pg-stack: set E2E_PORT, E2E_PG_NODE_PORTS (a,b), E2E_PG_DATABASE and E2E_DATA_DIR (playwright.pg.config.ts does)");
  process.exit(2);
}
const databaseUrl = Object.assign(new URL(admin), { pathname: `/${database}` }).toString();

async function onAdmin(statement: string) {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const nodes: ChildProcess[] = [];
let proxy: LocalNginx | undefined;
let stopping = false;

async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  await proxy?.stop().catch(() => {});
  const exited = nodes.filter((node) => node.exitCode === null).map((node) => new Promise((r) => node.once("exit", r)));
  for (const node of nodes) node.kill("SIGTERM");
  await Promise.race([Promise.all(exited), new Promise((r) => setTimeout(r, 5_000))]);
  for (const node of nodes) if (node.exitCode === null) node.kill("SIGKILL");
  await onAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch((error: Error) =>
    console.error(`dropping ${database}: ${error.message}`),
  );
  process.exit(code);
}
process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));

// nginx from an interrupted run still holding the port: stop it by its pid file.
const stalePid = path.join(dataDir, "nginx", "nginx.pid");
if (fs.existsSync(stalePid)) {
  try {
    process.kill(Number(fs.readFileSync(stalePid, "utf8").trim()), "SIGTERM");
  } catch {
    /* gone already */
  }
}
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(path.join(dataDir, "uploads"), { recursive: true });

await onAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
await onAdmin(`CREATE DATABASE ${database}`);

function startNode(index: number, nodePort: number) {
  const log = fs.openSync(path.join(dataDir, `node-${index + 1}.log`), "a");
  const node = spawn(process.execPath, ["server.js", build], {
    env: {
      ...process.env,
      PORT: String(nodePort),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      UPLOAD_DIR: path.join(dataDir, "uploads"),
      SESSION_SECRET: "e2e-session-secret-0123456789abcdef",
      RATE_LIMITS: "off",
      TRUST_PROXY: "1",
      SEED_DEMO: index === 0 ? "1" : "0",
    },
    stdio: ["ignore", log, log],
  });
  node.once("exit", (code, signal) => {
    if (stopping) return;
    console.error(
      `app node ${index + 1} (port ${nodePort}) exited (${code ?? signal}); its log: ${path.join(dataDir, `node-${index + 1}.log`)}`,
    );
    void stop(1);
  });
  nodes.push(node);
}

async function answers(nodePort: number, timeoutMs: number) {
  for (const until = Date.now() + timeoutMs; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
    try {
      if ((await fetch(`http://127.0.0.1:${nodePort}/healthz`, { signal: AbortSignal.timeout(2_000) })).status === 200) return;
    } catch {
      /* not up yet */
    }
  }
  throw new Error(`app node on port ${nodePort} did not answer within ${timeoutMs} ms`);
}

try {
  nodePorts.forEach((nodePort, index) => startNode(index, nodePort));
  // Both up (node 1 has seeded the demo by then) before nginx sends anyone to them.
  await Promise.all(nodePorts.map((nodePort) => answers(nodePort, 90_000)));
  proxy = await startNginx({ port, appPort: nodePorts, dir: path.join(dataDir, "nginx"), hostWithPort: true, visitorCache: false });
  console.log(`e2e on PostgreSQL: nginx http://127.0.0.1:${port} → nodes ${nodePorts.join(", ")} on database ${database}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await stop(1);
}

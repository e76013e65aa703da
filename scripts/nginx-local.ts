/**
 * Runs the shipped reverse-proxy config, docs/deploy/nginx.conf, on this machine: the bench
 * (`npm run bench`) and tests/e2e/nginx.spec.ts start it in front of a local app server, so the
 * file operators install is the file that is measured and tested, not a copy of it.
 *
 * `localNginxConfig` derives a runnable config from the shipped text with as few changes as make it
 * run without root or certificates, each one checked so a changed deploy file fails loudly here
 * instead of being tested half-transformed:
 *   - the port-80 redirect server is dropped; the two `listen … 443 ssl http2` lines become one plain
 *     HTTP `listen 127.0.0.1:PORT` and the `ssl_*` lines go (TLS is nginx's, not the app's);
 *   - the upstream `server 127.0.0.1:3000` points at the app's port, or becomes one `server` line per
 *     port when several app nodes are given (nginx's default round-robin balances them: the
 *     PostgreSQL e2e run, playwright.pg.config.ts, puts two nodes behind it);
 *   - with `hostWithPort` (the browser-driven e2e run on PostgreSQL), `proxy_set_header Host $host`
 *     sends `$http_host`, the Host the client sent, port included: the deploy listens on 443, where a
 *     browser's Origin has no port, so `$host` is the site's origin there; on a local port the app
 *     would see another origin than the browser's and refuse its form posts (CSRF check,
 *     origin.server.ts). The client's Host, not nginx's own `$server_port`: a TCP proxy in front of
 *     nginx (tests/fixtures/cutting-proxy.ts, a cut uplink) is then as transparent as it is on 443;
 *   - with `visitorCache: false` (the same run), nginx keeps no visitor pages (`proxy_cache off`) and
 *     passes the client's If-None-Match on: the suite checks that a write shows at once, which the
 *     app's own caches promise on every node; nginx's copy may lag by the s-maxage by design, and
 *     tests/e2e/nginx.spec.ts tests that copy against this config with the cache on;
 *   - the cache, temp files, pid and logs live in a directory of the caller's (the site's own access
 *     log, in its own masked format, is `DIR/access.log`);
 *   - it is wrapped in the main context a site file gets from /etc/nginx/nginx.conf (one worker).
 * Everything else (cache rules, maps, limits, timeouts, headers) is the shipped text, unchanged.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const NGINX_BIN = process.env.NGINX_BIN ?? "/usr/sbin/nginx";
export const SHIPPED_NGINX_CONF = fileURLToPath(new URL("../docs/deploy/nginx.conf", import.meta.url));

/** Whether nginx is installed here (CI installs Debian's package in `.ci/run`). */
export function nginxAvailable(): boolean {
  return fs.existsSync(NGINX_BIN);
}

function replaceOnce(text: string, pattern: RegExp, replacement: string, what: string): string {
  const matches = text.match(new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`));
  if (!matches || matches.length === 0) throw new Error(`docs/deploy/nginx.conf changed: no ${what} to adapt`);
  return text.replace(pattern, replacement);
}

/** The shipped config, made runnable on 127.0.0.1:`port` in front of the app on `appPort`. */
export function localNginxConfig(
  shipped: string,
  options: { port: number; appPort: number | readonly number[]; dir: string; hostWithPort?: boolean; visitorCache?: boolean },
): string {
  const { port, dir } = options;
  const appPorts = typeof options.appPort === "number" ? [options.appPort] : options.appPort;
  if (appPorts.length === 0) throw new Error("localNginxConfig: no app port for the upstream");
  let site = shipped;
  // The port-80 server only redirects to HTTPS: drop the whole block.
  site = replaceOnce(site, /server\s*\{\s*listen 80;[^}]*\}\n?/, "", "port-80 redirect server");
  site = replaceOnce(site, /^(\s*)listen 443 ssl http2;\n/m, `$1listen 127.0.0.1:${port};\n`, "`listen 443 ssl http2`");
  site = replaceOnce(site, /^\s*listen \[::\]:443 ssl http2;\n/m, "", "`listen [::]:443 ssl http2`");
  site = replaceOnce(site, /^\s*ssl_[a-z_]+\s[^;]*;\n/gm, "", "ssl_* lines");
  site = replaceOnce(
    site,
    /^([ \t]*)server\s+127\.0\.0\.1:3000;/m,
    appPorts.map((appPort) => `$1server 127.0.0.1:${appPort};`).join("\n"),
    "upstream 127.0.0.1:3000",
  );
  if (options.hostWithPort)
    site = replaceOnce(site, /^([ \t]*proxy_set_header Host )\$host;/m, "$1$http_host;", "`proxy_set_header Host $host`");
  if (options.visitorCache === false) {
    site = replaceOnce(site, /^([ \t]*)proxy_cache whitetail_pages;/m, "$1proxy_cache off;", "`proxy_cache whitetail_pages`");
    site = replaceOnce(site, /^[ \t]*proxy_set_header If-None-Match \$whitetail_if_none_match;\n/m, "", "`proxy_set_header If-None-Match`");
  }
  site = replaceOnce(site, /\/var\/cache\/nginx\/whitetail/, path.join(dir, "cache"), "proxy_cache_path");
  site = replaceOnce(
    site,
    /(\baccess_log\s+)\/var\/log\/nginx\/whitetail-pulse\.access\.log(\s+whitetail_masked;)/g,
    `$1${path.join(dir, "access.log")}$2`,
    "site access_log in the masked format",
  );
  if (/\b(ssl|443|:3000|\/var\/)/.test(site.replace(/#.*$/gm, "")))
    throw new Error("docs/deploy/nginx.conf: something TLS- or path-bound left");
  return [
    `pid ${path.join(dir, "nginx.pid")};`,
    `error_log ${path.join(dir, "error.log")} warn;`,
    // Run as root (CI), nginx would hand its workers to `nobody`, who cannot write in `dir`.
    ...(process.getuid?.() === 0 ? ["user root root;"] : []),
    "worker_processes 1;",
    "daemon on;",
    "events { worker_connections 1024; }",
    "http {",
    // Requests nginx answers outside the site (none here) would go to nginx's own combined log.
    `  access_log ${path.join(dir, "nginx-access.log")};`,
    // As Debian's /etc/nginx/nginx.conf does for every site: no version in Server, MIME types unused (all proxied).
    "  server_tokens off;",
    `  client_body_temp_path ${path.join(dir, "client_body")};`,
    `  proxy_temp_path ${path.join(dir, "proxy")};`,
    `  fastcgi_temp_path ${path.join(dir, "fastcgi")};`,
    `  uwsgi_temp_path ${path.join(dir, "uwsgi")};`,
    `  scgi_temp_path ${path.join(dir, "scgi")};`,
    site,
    "}",
    "",
  ].join("\n");
}

export type LocalNginx = { port: number; dir: string; stop: () => Promise<void> };

function nginx(args: string[], dir: string) {
  return spawnSync(NGINX_BIN, ["-p", dir, "-c", path.join(dir, "nginx.conf"), ...args], { encoding: "utf8", timeout: 15_000 });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts nginx (as a daemon of this user) with the shipped config on 127.0.0.1:`port` in front of
 * the app on `appPort` (or the app nodes on each of several ports); `dir` is emptied and holds everything nginx writes. Waits at most
 * `timeoutMs` for it to answer; `stop` waits at most as long for it to exit.
 */
export async function startNginx(options: {
  port: number;
  appPort: number | readonly number[];
  dir: string;
  hostWithPort?: boolean;
  visitorCache?: boolean;
  timeoutMs?: number;
}): Promise<LocalNginx> {
  const { port, timeoutMs = 10_000 } = options;
  const dir = path.resolve(options.dir);
  if (!nginxAvailable()) throw new Error(`nginx is not installed at ${NGINX_BIN} (apt-get install nginx)`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, "cache"), { recursive: true });
  fs.writeFileSync(path.join(dir, "nginx.conf"), localNginxConfig(fs.readFileSync(SHIPPED_NGINX_CONF, "utf8"), { ...options, dir }));
  const check = nginx(["-t", "-q"], dir);
  if (check.status !== 0) throw new Error(`nginx -t refused the derived config: ${check.stderr}`);
  const started = nginx([], dir);
  if (started.status !== 0) throw new Error(`nginx did not start: ${started.stderr}`);
  const pidFile = path.join(dir, "nginx.pid");
  const stop = async () => {
    if (!fs.existsSync(pidFile)) return;
    const pid = Number(fs.readFileSync(pidFile, "utf8").trim());
    nginx(["-s", "stop"], dir);
    for (const until = Date.now() + timeoutMs; Date.now() < until; await sleep(50)) {
      try {
        process.kill(pid, 0);
      } catch {
        return;
      }
    }
    process.kill(pid, "SIGKILL");
  };
  for (const until = Date.now() + timeoutMs; ; await sleep(50)) {
    try {
      await fetch(`http://127.0.0.1:${port}/`, { method: "HEAD", signal: AbortSignal.timeout(2_000) });
      return { port, dir, stop };
    } catch {
      if (Date.now() > until) {
        await stop();
        throw new Error(`nginx on 127.0.0.1:${port} did not answer within ${timeoutMs} ms: ${readLog(dir)}`);
      }
    }
  }
}

/** The tail of nginx's error log, for failure messages. */
export function readLog(dir: string): string {
  const file = path.join(dir, "error.log");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").slice(-2_000) : "";
}

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { localNginxConfig, NGINX_BIN, nginxAvailable, SHIPPED_NGINX_CONF } from "../../scripts/nginx-local";

/**
 * scripts/nginx-local.ts runs the shipped docs/deploy/nginx.conf with only TLS, the ports and the
 * paths changed (tests/e2e/nginx.spec.ts runs it for real). Every other directive must stay as
 * shipped, and a deploy file whose shape changed must fail the transform, not be half-adapted.
 */
const shipped = fs.readFileSync(SHIPPED_NGINX_CONF, "utf8");
const directives = (text: string) =>
  text
    .split("\n")
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter(Boolean);

describe("the local nginx config derived from docs/deploy/nginx.conf", () => {
  const dir = path.join(os.tmpdir(), "whitetail-nginx-config-test");
  const local = localNginxConfig(shipped, { port: 3999, appPort: 3998, dir });

  it("keeps every shipped directive but TLS, the listen lines, the upstream port and the cache path", () => {
    const changed = /^(listen |ssl_|server 127\.0\.0\.1:3000;|proxy_cache_path |return 301 |server_name pulse\.example\.org;)/;
    const kept = directives(shipped).filter((line) => !changed.test(line) && !/^inactive=/.test(line));
    const derived = new Set(directives(local));
    for (const line of kept) expect(derived, line).toContain(line);
    expect(local).toContain("listen 127.0.0.1:3999;");
    expect(local).toContain("server 127.0.0.1:3998;");
    expect(local).toContain(`proxy_cache_path ${dir}/cache `);
    expect(local).not.toMatch(/ssl|443|\blisten 80\b|\/var\//);
  });

  it("refuses a deploy file it does not recognise", () => {
    expect(() => localNginxConfig(shipped.replace("listen 443 ssl http2;", "listen 8443;"), { port: 1, appPort: 2, dir })).toThrow(
      /docs\/deploy\/nginx.conf changed/,
    );
    expect(() => localNginxConfig(shipped.replace("127.0.0.1:3000", "app:3000"), { port: 1, appPort: 2, dir })).toThrow(/upstream/);
  });

  it.skipIf(!nginxAvailable())(`passes \`nginx -t\` (${NGINX_BIN})`, () => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.join(dir, "cache"), { recursive: true });
    fs.writeFileSync(path.join(dir, "nginx.conf"), local);
    const res = spawnSync(NGINX_BIN, ["-t", "-p", dir, "-c", path.join(dir, "nginx.conf")], { encoding: "utf8", timeout: 15_000 });
    expect(res.status, res.stderr).toBe(0);
  });
});

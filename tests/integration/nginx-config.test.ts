import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BODY_LIMITS, declaredLimit } from "~/web/request-body.server";
import { multipartLimit } from "~/web/multipart.server";
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
    const changed =
      /^(listen |ssl_|server 127\.0\.0\.1:3000;|proxy_cache_path |return 301 |server_name pulse\.example\.org;|access_log \/var\/log\/)/;
    const kept = directives(shipped).filter((line) => !changed.test(line) && !/^inactive=/.test(line));
    const derived = new Set(directives(local));
    for (const line of kept) expect(derived, line).toContain(line);
    expect(local).toContain("listen 127.0.0.1:3999;");
    expect(local).toContain("server 127.0.0.1:3998;");
    expect(local).toContain(`proxy_cache_path ${dir}/cache `);
    expect(local).toContain(`access_log ${dir}/access.log whitetail_masked;`);
    expect(local).not.toMatch(/ssl|443|\blisten 80\b|\/var\//);
  });

  it("balances several app nodes: one upstream `server` line per port, the rest of the upstream as shipped", () => {
    const two = localNginxConfig(shipped, { port: 3999, appPort: [3997, 3998], dir });
    const upstream = /upstream whitetail \{([^}]*)\}/.exec(two)?.[1] ?? "";
    expect(directives(upstream)).toEqual(["server 127.0.0.1:3997;", "server 127.0.0.1:3998;", "keepalive 16;", "keepalive_timeout 4s;"]);
    // Nothing else differs from the one-node config.
    expect(two.replace(/\n[ \t]*server 127\.0\.0\.1:3997;/, "")).toBe(local);
    expect(() => localNginxConfig(shipped, { port: 1, appPort: [], dir })).toThrow(/no app port/);
  });

  it("for the two-node e2e run: Host is the one the client sent, port included, and the visitor cache can be turned off, nothing else changed", () => {
    const e2e = localNginxConfig(shipped, { port: 3999, appPort: 3998, dir, hostWithPort: true, visitorCache: false });
    expect(e2e).toContain("proxy_set_header Host $http_host;");
    expect(e2e).toContain("proxy_cache off;");
    expect(e2e).not.toMatch(/proxy_cache whitetail_pages;|If-None-Match \$whitetail_if_none_match/);
    const back = e2e
      .replace("proxy_set_header Host $http_host;", "proxy_set_header Host $host;")
      .replace(/proxy_cache off;(\s+proxy_cache_key)/, "proxy_cache whitetail_pages;$1");
    expect(directives(back)).toEqual(
      directives(local).filter((line) => line !== "proxy_set_header If-None-Match $whitetail_if_none_match;"),
    );
  });

  it("refuses a deploy file it does not recognise", () => {
    expect(() => localNginxConfig(shipped.replace("listen 443 ssl http2;", "listen 8443;"), { port: 1, appPort: 2, dir })).toThrow(
      /docs\/deploy\/nginx.conf changed/,
    );
    expect(() => localNginxConfig(shipped.replace("127.0.0.1:3000", "app:3000"), { port: 1, appPort: 2, dir })).toThrow(/upstream/);
    expect(() => localNginxConfig(shipped.replaceAll(" whitetail_masked;", ";"), { port: 1, appPort: 2, dir })).toThrow(/access_log/);
  });

  it.skipIf(!nginxAvailable())(`passes \`nginx -t\` (${NGINX_BIN})`, () => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.join(dir, "cache"), { recursive: true });
    fs.writeFileSync(path.join(dir, "nginx.conf"), local);
    const res = spawnSync(NGINX_BIN, ["-t", "-p", dir, "-c", path.join(dir, "nginx.conf")], { encoding: "utf8", timeout: 15_000 });
    expect(res.status, res.stderr).toBe(0);
  });
});

/** `client_max_body_size` of each block, keyed by the line that opens it ("server" for the site's own). */
function bodyCaps(text: string): Map<string, number> {
  const units: Record<string, number> = { "": 1, k: 1024, m: 1024 * 1024, g: 1024 * 1024 * 1024 };
  const caps = new Map<string, number>();
  const open: string[] = [];
  for (const line of directives(text)) {
    if (line.endsWith("{")) open.push(line.slice(0, -1).trim());
    else if (line === "}") open.pop();
    const cap = /^client_max_body_size (\d+)([kmg]?);$/i.exec(line);
    if (cap) caps.set(open.at(-1)!, Number(cap[1]) * units[cap[2]!.toLowerCase()]!);
  }
  return caps;
}

describe("docs/deploy/nginx.conf against the app it fronts (security-2)", () => {
  it("takes no bigger body on a path than the app reads there: nginx would spool it only for the app to refuse it (N1)", () => {
    const caps = bodyCaps(shipped);
    const oneFile = BODY_LIMITS.file + BODY_LIMITS.form;
    expect(Object.fromEntries(caps)).toEqual({
      // every page form: readFormData's 1 MB
      server: BODY_LIMITS.form,
      // the post forms without JavaScript: 20 files, every byte counted
      "location ~* ^/(create|clubs/[0-9]+/create)(/|\\.data)?$": multipartLimit(BODY_LIMITS.files),
      // an avatar (the app reads a little past a refused file to keep the form: never more than that)
      "location ~* ^/(settings|profile/[^/]+)(/|\\.data)?$": oneFile,
      // one file: assertDeclaredSize(request) refuses more
      "location = /api/upload": oneFile,
      // the JSON API
      "location ^~ /api/": BODY_LIMITS.json,
      // a tus chunk of 5 MB (the app takes up to one file's worth)
      "location ^~ /api/uploads": 6 * 1024 * 1024,
    });
    // A form sent with JavaScript posts to its page's `.data` (single fetch, ADR 0079): the page's cap.
    const capOf = (path: string) => {
      const location = [...caps.keys()].find((key) => key.startsWith("location ~* ") && new RegExp(key.slice(12).trim(), "i").test(path));
      return location === undefined ? caps.get("server") : caps.get(location);
    };
    for (const [path, cap] of [
      ["/settings", oneFile],
      ["/settings.data", oneFile],
      ["/profile/doe.data", oneFile],
      ["/create", multipartLimit(BODY_LIMITS.files)],
      ["/create.data", multipartLimit(BODY_LIMITS.files)],
      ["/clubs/3/create.data", multipartLimit(BODY_LIMITS.files)],
      ["/post/3.data", BODY_LIMITS.form],
    ] as const)
      expect(capOf(path), path).toBe(cap);
    expect(oneFile).toBeLessThanOrEqual(multipartLimit(1));
    expect(caps.get("location ^~ /api/uploads")!).toBeLessThanOrEqual(declaredLimit("application/offset+octet-stream"));
    expect(multipartLimit(BODY_LIMITS.files)).toBe(declaredLimit("multipart/form-data"));
  });

  it("never serves an expired copy while the app may be answering 404 for it: no `updating`, no background update (N3)", () => {
    const lines = directives(shipped);
    const useStale = lines.find((l) => l.startsWith("proxy_cache_use_stale "));
    expect(useStale).toBeDefined();
    expect(useStale).not.toMatch(/\bupdating\b/);
    expect(lines).toContain("proxy_cache_background_update off;");
  });

  it("logs no request line, query or full Referer, and every server logs in that format (N12)", () => {
    const format = /log_format whitetail_masked([^;]*);/.exec(shipped.replace(/#.*$/gm, ""))?.[1] ?? "";
    expect(format).toContain("$whitetail_log_path");
    expect(format).not.toMatch(/\$(request|request_uri|uri|args|query_string|arg_\w+|http_referer)\b/);
    const servers = shipped
      .replace(/#.*$/gm, "")
      .split(/^server\s*\{/m)
      .slice(1);
    expect(servers).toHaveLength(2);
    for (const server of servers) expect(server).toMatch(/^\s*access_log \S+ whitetail_masked;/m);
  });
});

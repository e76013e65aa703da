import { readFile } from "node:fs/promises";

/**
 * GET /sw.js: the service worker scripts/build-sw.ts bundled beside this server build
 * (docs/decisions/0033-service-worker-saved-pages.md). The page registers `/sw.js?v=<build>`; the
 * query only makes each build's worker a new one. Served from the root so its scope is the whole
 * site, and revalidated on every update check.
 */
let script: Promise<string> | null = null;

export async function loader() {
  script ??= readFile(new URL("./sw.js", import.meta.url), "utf8");
  try {
    return new Response(await script, {
      headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff" },
    });
  } catch {
    script = null;
    return new Response("The service worker is not built: run npm run build.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
}

import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { ifNoneMatchHits } from "~/web/atom-feed.server";

/**
 * GET /sw.js: the service worker scripts/build-sw.ts bundled beside this server build
 * (docs/decisions/0033-service-worker-saved-pages.md). The page registers `/sw.js?v=<build>`; the
 * query only makes each build's worker a new one. Served from the root so its scope is the whole
 * site, and revalidated on every update check: the browser asks on every navigation, so the answer
 * carries a strong ETag (the hash of the script, computed once) and a matching `If-None-Match` is a
 * 304 without the 12–40 KB body (CONTRACT.md §6; audit ux-2 N3). The HTTP edge leaves `/sw.js` to
 * this route (a file path has no page validator).
 */
let worker: Promise<{ body: string; etag: string }> | null = null;

async function readWorker() {
  const body = await readFile(new URL("./sw.js", import.meta.url), "utf8");
  return { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
}

export async function loader({ request }: { request: Request }) {
  worker ??= readWorker();
  try {
    const { body, etag } = await worker;
    const headers = {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "no-cache",
      ETag: etag,
      "X-Content-Type-Options": "nosniff",
    };
    if (ifNoneMatchHits(request.headers.get("If-None-Match"), etag)) return new Response(null, { status: 304, headers });
    return new Response(body, { headers });
  } catch {
    worker = null;
    return new Response("The service worker is not built: run npm run build.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
}

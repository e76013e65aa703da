import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { applyCacheControl, declaredCacheControl } from "~/web/cache-control.server";
import { VIEWER_HEADER } from "~/offline/saved-pages";
import { inlineScriptHashes, securityHeaders } from "~/web/security-headers.server";
import { viewerTag } from "~/web/session.server";
import { drawDocument, withHandoffRead } from "~/web/draw-document.server";
import { renderCacheStore } from "~/web/render-cache.server";
import { setRenderCacheStore } from "~/components/ui/render-cache";
import { setPlainPageScript } from "~/utils/plain-page";
import { plainPageScript } from "~/web/plain-page-script.server";
import { databaseUnavailableError } from "~/utils/db.server";
import { logger, logServerError } from "~/utils/logger.server";
import { logFrameworkPatches } from "~/server/framework-patches.server";
import { loggedPath } from "~/server/request-log.server";
import "~/server/startup.server";

// server.js starts the HTTP server with this build (app/server/node-server.server.ts).
export { startServer } from "~/server/node-server.server";

// The render cache: feed cards drawn once per what they show and kept (docs/caching.md).
setRenderCacheStore(renderCacheStore);
setPlainPageScript(plainPageScript);
// Whether the framework patches (patches/, docs/decisions/0058) are active in this node_modules.
logFrameworkPatches(logger);

/**
 * Documents are drawn whole, then sent in one piece (docs/decisions/0032-validators-and-shared-
 * caching.md): the CSP names the SHA-256 of each inline script the page holds (no per-response
 * nonce, so one body may be served to many from a shared cache), and one piece compresses as well
 * as the whole document can (a stream flushed chunk by chunk compressed 2.6 times worse).
 */
/**
 * Requests whose loaders or action met the database gone away (PostgreSQL unreachable, a connection
 * lost: db.server.ts `databaseUnavailableError`). Remix hides the error itself from the page (the
 * ErrorBoundary draws its plain "Something went wrong"), so `handleError` notes the request here and
 * the answer becomes a 503 with Retry-After instead of a 500: the page side of the 503 that
 * api.server.ts gives the JSON surface.
 */
const unavailable = new WeakMap<Request, number>();

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const context = await withHandoffRead(routerContext);
  const drawn = await drawDocument(<ServerRouter context={context} url={request.url} />, (error) =>
    logServerError(error, { method: request.method, path: loggedPath(new URL(request.url).pathname) }),
  );
  // Without a doctype the browser draws the page in quirks mode (forms get a bottom margin, line
  // boxes and percentage heights follow 1990s rules), not the standards mode Tailwind is written for.
  const body = `<!DOCTYPE html>${drawn.body}`;
  const retryAfter = unavailable.get(request);
  const status = drawn.failed ? 500 : retryAfter !== undefined ? 503 : responseStatusCode;
  for (const [name, value] of Object.entries(securityHeaders(inlineScriptHashes(body)))) responseHeaders.set(name, value);
  await applyCacheControl(request, responseHeaders, declaredCacheControl(routerContext.staticHandlerContext), status);
  // Whose page it is needs the session, which the database holds: not while it is away.
  if (retryAfter !== undefined) responseHeaders.set("Retry-After", String(retryAfter));
  else responseHeaders.set(VIEWER_HEADER, await viewerTag(request));
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status });
}

/**
 * Loader data (single fetch's `.data` answers, and an older page's `?_data=` JSON) gets the headers
 * that apply to it too, and (like documents) names whose page it is for the service worker's saved
 * pages. A `.data` answer's own Cache-Control is what the routes' `headers` exports said
 * (cache-control.server.ts `keepNoStore`); its path is the page's, `.data` added (`request.url`).
 */
export const handleDataRequest: HandleDataRequestFunction = async (answer, { request }) => {
  const retryAfter = unavailable.get(request);
  const response =
    retryAfter === undefined || answer.status < 500
      ? answer
      : new Response(answer.body, { status: 503, statusText: "Service Unavailable", headers: answer.headers });
  response.headers.set("X-Content-Type-Options", "nosniff");
  response.headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  await applyCacheControl(request, response.headers, [response.headers.get("Cache-Control")], response.status);
  if (retryAfter !== undefined) response.headers.set("Retry-After", String(retryAfter));
  else response.headers.set(VIEWER_HEADER, await viewerTag(request));
  return response;
};

export function handleError(error: unknown, { request }: { request: Request }) {
  // An answer the app chose (a 4xx such as a bad route id) is in the request line, not an error.
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  // Logged once per outage by the data layer, not once per request.
  const lost = databaseUnavailableError(error);
  if (lost) {
    unavailable.set(request, lost.retryAfter ?? 5);
    return;
  }
  logServerError(error, { method: request.method, path: loggedPath(new URL(request.url).pathname) });
}

import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { applyCacheControl, declaredCacheControl } from "~/web/cache-control.server";
import { VIEWER_HEADER } from "~/offline/saved-pages";
import { inlineScriptHashes, securityHeaders } from "~/web/security-headers.server";
import { viewerTag } from "~/web/session.server";
import { drawDocument } from "~/web/draw-document.server";
import { renderCacheStore } from "~/web/render-cache.server";
import { setRenderCacheStore } from "~/components/ui/render-cache";
import { logger, logServerError } from "~/utils/logger.server";
import { logFrameworkPatches } from "~/web/framework-patches.server";
import { loggedPath } from "~/web/request-log.server";
import "~/web/startup.server";

// The render cache: feed cards drawn once per what they show and kept (docs/caching.md).
setRenderCacheStore(renderCacheStore);
// Whether the framework patches (patches/, docs/decisions/0058) are active in this node_modules.
logFrameworkPatches(logger);

/**
 * Documents are drawn whole, then sent in one piece (docs/decisions/0032-validators-and-shared-
 * caching.md): the CSP names the SHA-256 of each inline script the page holds (no per-response
 * nonce, so one body may be served to many from a shared cache), and one piece compresses as well
 * as the whole document can (a stream flushed chunk by chunk compressed 2.6 times worse).
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const drawn = await drawDocument(<RemixServer context={remixContext} url={request.url} />, (error) =>
    logServerError(error, { method: request.method, path: loggedPath(new URL(request.url).pathname) }),
  );
  const { body } = drawn;
  const status = drawn.failed ? 500 : responseStatusCode;
  for (const [name, value] of Object.entries(securityHeaders(inlineScriptHashes(body)))) responseHeaders.set(name, value);
  await applyCacheControl(request, responseHeaders, declaredCacheControl(remixContext.staticHandlerContext), status);
  responseHeaders.set(VIEWER_HEADER, await viewerTag(request));
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status });
}

/**
 * JSON answers (loader data, resource routes) get the headers that apply to them too, and (like
 * documents) name whose page they are for the service worker's saved pages.
 */
export const handleDataRequest: HandleDataRequestFunction = async (response, { request }) => {
  response.headers.set("X-Content-Type-Options", "nosniff");
  response.headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  await applyCacheControl(request, response.headers, [response.headers.get("Cache-Control")], response.status);
  response.headers.set(VIEWER_HEADER, await viewerTag(request));
  return response;
};

export function handleError(error: unknown, { request }: { request: Request }) {
  // An answer the app chose (a 4xx such as a bad `?_data=`) is in the request line, not an error.
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  logServerError(error, { method: request.method, path: loggedPath(new URL(request.url).pathname) });
}

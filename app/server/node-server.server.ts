import http from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { writeReadableStreamToWritable } from "@react-router/node";
import { createRequestHandler, type ServerBuild } from "react-router";
import compression from "compression";
import express, { type NextFunction, type Request as ExpressRequest, type Response as ExpressResponse } from "express";
import { databaseUnavailableError } from "~/utils/db.server";
import { ASSETS_PATH } from "~/utils/assets-path";
import { precompressedAssets } from "./precompressed.server";
import { env, listenAddress } from "~/utils/env.server";
import { logger, logServerError } from "~/utils/logger.server";
import { PEER_ADDRESS_HEADER } from "~/web/params.server";
import { notModified, stampValidator, validatorOf, type PageValidator } from "./conditional.server";
import { httpEdge, isShareLaunch, isTokenPost } from "./http-edge.server";
import { learnRoutes, loggedPath, requestLog, trackServer } from "./request-log.server";
import { applyServerTimeouts, timeoutsFromEnv } from "./server-timeouts.server";
import { answerFromVisitorCache, keepsVisitorAnswers, keepVisitorAnswer } from "./visitor-cache.server";

/**
 * The site's own HTTP server (issue 40, docs/decisions/0073-a-server-of-our-own.md): `npm start`
 * runs `server.js`, which imports the server build and calls `startServer`. Every step a request
 * passes through is here, in order, as plain middleware and calls; nothing patches Node's HTTP
 * objects, a framework's router or the request's headers (app/server/README.md has the table):
 *
 * 1. the request log and metrics (request-log.server.ts);
 * 2. the HTTP edge's refusals and headers (http-edge.server.ts);
 * 3. for a GET or HEAD the validator covers: a 304 (conditional.server.ts), or a visitor's page
 *    from the visitor cache (visitor-cache.server.ts), before anything else is done for it;
 * 4. compression, and the build's assets (their brotli or gzip copy made at build time when the
 *    browser takes it: precompressed.server.ts) and public files (`express.static`);
 * 5. the app (React Router's request handler) on a Fetch `Request` made here, with the peer address in
 *    `PEER_ADDRESS_HEADER` (whatever a client sent under that name is never passed on);
 * 6. the answer's head completed (its validator) and, for a visitor's cacheable page, kept.
 *
 * The server itself gets the slow-client limits (server-timeouts.server.ts) and listens where
 * `listenAddress` says, with one start-up line that says where and why.
 */

/** The app behind the edge: a Fetch request in, a Fetch response out (Remix's handler, or a test's). */
export type FetchHandler = (request: Request) => Promise<Response>;

export type SiteOptions = {
  handle: FetchHandler;
  /** The build's assets (hashed names: cached for a year) under their public path. */
  assets?: { publicPath: string; dir: string };
  /** Files served as they are (cached for an hour). */
  publicDir?: string;
};

/** The request listener: the edge in order, then the app. */
export function createSite({ handle, assets, publicDir }: SiteOptions): express.Express {
  const site = express();
  site.disable("x-powered-by");
  site.use(requestLog);
  site.use(httpEdge);
  // Before compression and the static files: a hit costs neither (its bytes are encoded already).
  site.use((req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    answerFromValidator(req, res).then((answered) => answered || next(), next);
  });
  site.use(compression());
  if (assets) site.use(assets.publicPath, precompressedAssets(assets.dir), express.static(assets.dir, { immutable: true, maxAge: "1y" }));
  if (publicDir) site.use(express.static(publicDir, { maxAge: "1h" }));
  site.all("*", (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    answer(req, res, handle).catch(next);
  });
  site.use((error: unknown, req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    void next;
    logServerError(error, { method: req.method, path: loggedPath(req.originalUrl) });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
    res.end("Something went wrong.");
  });
  return site;
}

/**
 * Serve the build: the HTTP server with its limits, listening where `listenAddress` says. Called by
 * server.js with the imported server build (this module is part of it: entry.server re-exports it).
 */
export function startServer(build: ServerBuild, { root = process.cwd() }: { root?: string } = {}): http.Server {
  learnRoutes(build.routes);
  const handleRemix = createRequestHandler(build, process.env.NODE_ENV);
  const site = createSite({
    handle: (request) => handleRemix(request),
    // Vite's client build: public/'s files as they were at build time, and the hashed assets in it.
    assets: {
      publicPath: path.posix.join(build.publicPath, ASSETS_PATH),
      dir: path.resolve(root, build.assetsBuildDirectory, ASSETS_PATH.slice(1)),
    },
    publicDir: path.resolve(root, build.assetsBuildDirectory),
  });
  const server = http.createServer(site);
  applyServerTimeouts(server, timeoutsFromEnv());
  trackServer(server);
  const { host, why } = listenAddress(env);
  server.listen(env.PORT, host, () => {
    const address = server.address();
    if (!address || typeof address === "string") return;
    const where = address.address.includes(":") ? `[${address.address}]` : address.address;
    logger.info({ address: address.address, port: address.port }, `Listening on http://${where}:${address.port} (${why})`);
  });
  return server;
}

/** The validator a GET or HEAD's page was given (step 4), for its answer's head (step 6). */
const validators = new WeakMap<IncomingMessage, PageValidator>();

/** The headers a page validator reads (conditional.server.ts `VALIDATOR_READERS`). */
const VALIDATOR_HEADERS = ["cookie", "host", "x-forwarded-proto", "save-data", "referer"];

/**
 * Step 4, for a GET or HEAD of a path the validator covers: a 304 when the client's copy is
 * current, or a visitor's page from the visitor cache (true: answered). The validator is worked out
 * from a request holding only the headers it reads, without a render.
 */
async function answerFromValidator(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const headers = new Headers();
  for (const name of VALIDATOR_HEADERS) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  let validator: PageValidator | null = null;
  try {
    validator = await validatorOf(new Request(`http://${req.headers.host}${req.url}`, { headers }));
  } catch (error) {
    // The database gone away is logged once per outage (db-postgres.server.ts); the app answers 503.
    if (!databaseUnavailableError(error)) logServerError(error, { method: req.method, path: loggedPath(req.url) });
  }
  if (!validator) return false;
  if (notModified(req, res, validator)) return true;
  if (validator.visitor && answerFromVisitorCache(req, res, validator.etag)) return true;
  validators.set(req, validator);
  return false;
}

/** Steps 5 and 6: the app's answer, its head completed, kept when it is a visitor's cacheable page, and sent. */
async function answer(req: IncomingMessage, res: ServerResponse, handle: FetchHandler): Promise<void> {
  const request = fetchRequest(req, res);
  const validator = validators.get(req);
  const response = await handle(request);
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) res.appendHeader(name, value);
  // Whether to keep it is decided on the app's own head (an ETag of its own is never kept).
  const keep = validator?.visitor === true && request.method === "GET" && keepsVisitorAnswers(res);
  if (validator) stampValidator(res, validator.etag);
  if (validator && keep) {
    keepVisitorAnswer(req, res, validator.etag, Buffer.from(await response.arrayBuffer()));
    return;
  }
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}

/** How much of a body is read ahead of its reader before the socket is paused. */
const BODY_READ_AHEAD = 64 * 1024;

/**
 * A request's body as a Fetch stream that gives its reader every byte that arrived, in order, and
 * only then the error of a connection cut mid-body. A stream that errors at once drops what it
 * had queued (the Streams standard: `controller.error` empties the queue); for a resumable upload
 * cut at half that was up to 64 KB the client had sent and would have to send again (resumable-
 * uploads.spec). Nothing is queued in the Fetch stream itself (a high-water mark of 0): chunks wait
 * here, at most BODY_READ_AHEAD before the socket is paused, and go out one per read.
 */
export function requestBody(req: IncomingMessage): ReadableStream<Uint8Array> {
  const chunks: Buffer[] = [];
  let queued = 0;
  let ended = false;
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    const next = wake;
    wake = null;
    next?.();
  };
  req.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    queued += chunk.byteLength;
    if (queued >= BODY_READ_AHEAD) req.pause();
    notify();
  });
  req.once("end", () => {
    ended = true;
    notify();
  });
  req.once("error", (error) => {
    failure = error;
    notify();
  });
  req.once("close", () => {
    // Closed before its end without an error of its own: the client went away mid-body.
    if (!ended && !failure) failure = new Error("The request's body was cut off");
    notify();
  });
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (chunks.length === 0 && !ended && !failure) {
          req.resume();
          await new Promise<void>((resolve) => (wake = resolve));
        }
        const chunk = chunks.shift();
        if (chunk) {
          queued -= chunk.byteLength;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        } else if (failure) controller.error(failure);
        else controller.close();
      },
      cancel(reason) {
        req.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The Fetch request the app sees. Its URL is the Host and the path as sent (the edge refused any
 * other target); its signal aborts when the client goes before the answer is sent. The socket's
 * address rides in `PEER_ADDRESS_HEADER` (params.server.ts `clientAddress`), any copy a client sent
 * dropped. A POST whose address is its credential (`isTokenPost`: a mail provider's one-click
 * unsubscribe) goes without its Origin, which would make Remix refuse it before the action runs; so
 * does the share target's POST the browser opened from another app (`isShareLaunch`, ADR 0092).
 */
export function fetchRequest(req: IncomingMessage, res: ServerResponse): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === PEER_ADDRESS_HEADER) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const peer = req.socket?.remoteAddress;
  if (peer) headers.set(PEER_ADDRESS_HEADER, peer);
  if (isTokenPost(req) || isShareLaunch(req)) headers.delete("origin");
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const method = req.method ?? "GET";
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: controller.signal };
  if (method !== "GET" && method !== "HEAD") {
    init.body = requestBody(req);
    init.duplex = "half";
  }
  return new Request(`http://${req.headers.host}${req.url}`, init);
}

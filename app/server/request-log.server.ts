import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { matchRoutes, type RouteObject } from "react-router";
import { logger, requestNotes, type RequestNotes } from "~/utils/logger.server";
import { httpDuration } from "~/utils/metrics.server";
import { timeZoneOfCookie } from "~/utils/reader-time.server";
import { ASSETS_PATH } from "~/utils/assets-path";
import { DATA_SUFFIX, isDataPath, pagePath } from "~/utils/data-path";

/**
 * One JSON line per request, and the count of requests in flight that a clean shutdown waits for
 * (shutdown.server.ts; docs/decisions/0040-health-logs-backups-shutdown.md).
 *
 * It is the server's first middleware (node-server.server.ts), so the HTTP edge's own answers are
 * logged too. It opens the request's notes (logger.server.ts `requestNotes`), where the session
 * code records the member it finds; the reader's time zone is noted from the start.
 */

/** Path segments that are secrets: a reset link's token, an invite code, an unsubscribe link's token. */
const SECRET_SEGMENTS: [RegExp, string][] = [
  [/^\/reset-password\/[^/]+/, "/reset-password/:token"],
  [/^\/unsubscribe\/[^/]+/, "/unsubscribe/:token"],
  [/^\/join\/[^/]+/, "/join/:code"],
  [/^\/api\/invites\/[^/]+/, "/api/invites/:code"],
];

/** Query parameters whose values are logged; any other keeps its name with the value left out. */
const SHOWN_PARAMS = new Set(["_routes", "_data", "index", "cursor", "page", "tab", "view"]);

/**
 * The path as it is logged: secret segments replaced, query values other than routing ones dropped.
 * A page's data request keeps its `.data` after a masked segment (`/join/:code.data`).
 */
export function loggedPath(url: string | undefined): string {
  const raw = url ?? "/";
  const q = raw.indexOf("?");
  const asked = q === -1 ? raw : raw.slice(0, q);
  const data = isDataPath(asked);
  let path = data ? asked.slice(0, -DATA_SUFFIX.length) : asked;
  for (const [pattern, replacement] of SECRET_SEGMENTS) path = path.replace(pattern, replacement);
  if (data) path += DATA_SUFFIX;
  if (q === -1) return path;
  const params = new URLSearchParams(raw.slice(q + 1));
  const shown = [...params].map(([name, value]) => (SHOWN_PARAMS.has(name) ? `${name}=${encodeURIComponent(value)}` : name));
  return shown.length ? `${path}?${shown.join("&")}` : path;
}

/** A route of the server build's manifest (`build.routes`). */
export type ManifestRoute = { id: string; path?: string; index?: boolean; parentId?: string };
let routeTree: RouteObject[] | null = null;
const routeIds = new Set<string>();

/** The app's routes, from the server build, so /metrics can name each request's route (startup.server.ts). */
export function learnRoutes(routes: Record<string, ManifestRoute | undefined>) {
  const children = new Map<string | undefined, ManifestRoute[]>();
  for (const route of Object.values(routes)) if (route) children.set(route.parentId, [...(children.get(route.parentId) ?? []), route]);
  const tree = (parent: string | undefined): RouteObject[] =>
    (children.get(parent) ?? []).map((route) =>
      route.index ? { id: route.id, path: route.path, index: true } : { id: route.id, path: route.path, children: tree(route.id) },
    );
  routeTree = tree(undefined);
  labels.clear();
  routeIds.clear();
  for (const id of Object.keys(routes)) routeIds.add(id);
}

/**
 * The route a request was for, as /metrics labels it: the deepest route its page's path matches
 * (a page's `.data` request counts as the page's: `/_root.data` is `/`, docs/decisions/0079), an
 * older page's `?_data=` request's route id, `static` for built assets, `unmatched` otherwise.
 * Never the raw path: ids, names and tokens stay out of the labels, and their number stays that of
 * the routes.
 */
export function routeLabel(url: string | undefined): string {
  const raw = url ?? "/";
  const q = raw.indexOf("?");
  const path = pagePath(q === -1 ? raw : raw.slice(0, q));
  if (q !== -1) {
    const data = new URLSearchParams(raw.slice(q + 1)).get("_data");
    if (data) return routeIds.has(data) ? data : "unmatched";
  }
  if (path.startsWith(ASSETS_PATH)) return "static";
  if (!routeTree) return "unmatched";
  let label = labels.get(path);
  if (label === undefined) {
    try {
      label = matchRoutes(routeTree, path)?.at(-1)?.route.id ?? "unmatched";
    } catch {
      label = "unmatched";
    }
    if (labels.size >= MAX_LABELS) labels.clear();
    labels.set(path, label);
  }
  return label;
}

/**
 * Each path's route, once: React Router's public `matchRoutes` flattens and ranks the whole route
 * tree on every call (about 1 ms here; its request handler keeps its own ranked branches), which
 * was a third of a visitor-cache hit's cost (ADR 0082). At most MAX_LABELS paths are kept.
 */
const labels = new Map<string, string>();
const MAX_LABELS = 1000;

type Tracked = { inFlight: number; draining: boolean; idle: Set<() => void>; servers: Set<Server> };
const state: Tracked = { inFlight: 0, draining: false, idle: new Set(), servers: new Set() };

/** Requests started and not yet answered (or abandoned). */
export const requestsInFlight = () => state.inFlight;

/** From now on every answer closes its connection: the process is shutting down. */
export function startDraining() {
  state.draining = true;
  for (const server of state.servers) {
    // No new connections; those open are closed once idle.
    server.close();
    server.closeIdleConnections?.();
  }
}
export const isDraining = () => state.draining;

/** Resolves true when no request is in flight, or false after `timeoutMs`. */
export function whenIdle(timeoutMs: number): Promise<boolean> {
  if (state.inFlight === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (idle: boolean) => {
      clearTimeout(timer);
      state.idle.delete(onIdle);
      resolve(idle);
    };
    const onIdle = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    state.idle.add(onIdle);
  });
}

/** The server whose idle connections a shutdown closes (node-server.server.ts). */
export function trackServer(server: Server) {
  state.servers.add(server);
}

/**
 * The server's first middleware: the request is counted in flight and timed, and the rest of it
 * runs inside its notes; one JSON line and one metrics observation when its response closes (sent,
 * or the client went away).
 */
export function requestLog(request: IncomingMessage, response: ServerResponse, next: () => void): void {
  const started = process.hrtime.bigint();
  // Read now: a mounted middleware (the build's assets) may leave request.url rewritten.
  const url = request.url;
  const notes: RequestNotes = { timeZone: timeZoneOfCookie(request.headers.cookie) };
  state.inFlight += 1;
  if (state.draining) response.setHeader("Connection", "close");
  response.once("close", () => {
    state.inFlight -= 1;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const line: Record<string, unknown> = {
      method: request.method,
      path: loggedPath(url),
      status: response.statusCode,
      ms: Math.round(ms * 10) / 10,
    };
    if (notes.memberId !== undefined) line.member = notes.memberId;
    if (!response.writableFinished) line.aborted = true;
    logger.info(line, "request");
    httpDuration.observe(
      {
        route: routeLabel(url),
        method: request.method ?? "GET",
        status: response.writableFinished ? String(response.statusCode) : "aborted",
      },
      ms / 1000,
    );
    // A request in flight when draining began was answered with keep-alive: its connection is
    // idle now, and a client would send its next request into a stopping process. Close it.
    if (state.draining) for (const server of state.servers) server.closeIdleConnections?.();
    if (state.inFlight === 0) for (const fn of [...state.idle]) fn();
  });
  requestNotes.run(notes, next);
}

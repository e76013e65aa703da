import { OPEN_SAVED_TARGET } from "../offline/saved-pages";

/**
 * The parts of opening a page from its saved loader data (./open-saved.ts) that need no worker:
 * reading saved documents and route manifests, deciding, and the script.
 */

/** The worker's own script, named by the saved document it opens on (same origin: the CSP's 'self'). */
export const OPEN_SAVED_SCRIPT = "/__pulse/open-saved.js";
/** React Router's route discovery answers (`/__manifest?paths=…&version=…`), kept by the worker. */
export const ROUTE_MANIFEST_CACHE = "route-manifest";

/**
 * The paths a route discovery request asks about: React Router 7 sends them sorted and joined by
 * commas (`?paths=/a,/b`); a page of a Remix 2 build, one `p` each (`?p=/a&p=/b`).
 */
export function manifestPaths(url: URL): string[] {
  const joined = url.searchParams.get("paths");
  return joined ? joined.split(",").filter(Boolean) : url.searchParams.getAll("p");
}

/**
 * Whether a route discovery request asks about `pathname` alone: React Router 7 adds each ancestor
 * of a path it discovers (`/post` with `/post/3`), which need nothing the page's own routes lack.
 */
export function asksOnlyFor(paths: string[], pathname: string): boolean {
  return paths.includes(pathname) && paths.every((path) => path === pathname || path === "/" || pathname.startsWith(`${path}/`));
}

/** What a route discovery answer says of a route (the fields used here). */
export type DiscoveredRoute = { id: string; parentId?: string; module: string; imports?: string[]; hasLoader: boolean };

/**
 * The app's build version of a document that runs it, or null (a page sent without scripts): the
 * version of the route manifest it carries inline (route discovery on), or the name of the
 * manifest file it loads (`/assets/manifest-<VERSION>.js`).
 */
export function buildVersionOf(html: string): string | null {
  if (/<html[^>]*\sdata-scripts="none"/.test(html)) return null;
  const inline = /window\.__reactRouterManifest\s*=\s*\{[\s\S]*?"version":\s*"([0-9a-f]+)"/.exec(html)?.[1];
  return inline ?? /\/assets\/manifest-([0-9A-Fa-f]+)\.js/.exec(html)?.[1]?.toLowerCase() ?? null;
}

/** The routes and version of a build's manifest file (`window.__reactRouterManifest={…};`), or null. */
export function parseBuildManifest(text: string): { version: string; routes: Record<string, DiscoveredRoute> } | null {
  const json = /^\s*window\.__reactRouterManifest\s*=\s*(\{[\s\S]*\})\s*;?\s*$/.exec(text)?.[1];
  try {
    const manifest = json ? (JSON.parse(json) as { version?: unknown; routes?: unknown }) : null;
    if (typeof manifest?.version !== "string" || typeof manifest.routes !== "object" || !manifest.routes) return null;
    return { version: manifest.version, routes: manifest.routes as Record<string, DiscoveredRoute> };
  } catch {
    return null;
  }
}

/**
 * Whether opening `parts` (route id → saved) by navigation can be done from the device: each
 * route from those up to the root is known, and each one with a loader but the root (which the
 * saved document brings) has saved data. Returns the route modules the navigation will load, or
 * null when something is missing.
 */
export function routesToOpen(
  parts: Set<string>,
  routes: Map<string, DiscoveredRoute>,
): { routes: DiscoveredRoute[]; modules: string[] } | null {
  if (parts.size === 0) return null;
  const needed = new Map<string, DiscoveredRoute>();
  const modules = new Set<string>();
  for (const part of parts) {
    for (let id: string | undefined = part; id && id !== "root";) {
      const route = routes.get(id);
      if (!route || (route.hasLoader && !parts.has(id))) return null;
      needed.set(id, route);
      modules.add(route.module);
      for (const file of route.imports ?? []) modules.add(file);
      id = route.parentId;
    }
  }
  return { routes: [...needed.values()], modules: [...modules] };
}

/** A saved document with the worker's script first in its head (before the app's, which are deferred). */
export function withOpenScript(html: string, from: string): string | null {
  const head = /<head\b[^>]*>/i.exec(html);
  if (!head) return null;
  const src = `${OPEN_SAVED_SCRIPT}?from=${encodeURIComponent(from)}`.replace(/&/g, "&amp;");
  const at = head.index + head[0].length;
  return `${html.slice(0, at)}<script src="${src}"></script>${html.slice(at)}`;
}

/**
 * The script: run before the app's, on the saved document of `from`. The app checks that the
 * address is the one its document was drawn for, so `from` goes back in the address bar first; the
 * address asked for is left in `window[OPEN_SAVED_TARGET]` for the app, which navigates there once it has hydrated
 * (offline/open-saved-target.ts) and shows the page when that is done. The page stays hidden
 * meanwhile (at most 8 s: then whatever is drawn is shown).
 *
 * It takes its own element out of the head first: React 18 hydrates the whole document, and a
 * `<script>` the saved page was not drawn with made it fail (#418 twelve times, then #423) and draw
 * the page again on the client (ux-3 U18). A classic script runs as the parser meets it, before the
 * app's deferred modules, so the document is as saved when React starts.
 */
export function openSavedScript(from: string): string {
  return `(() => {
  const own = document.currentScript;
  if (own) own.remove();
  const root = document.documentElement;
  window[${JSON.stringify(OPEN_SAVED_TARGET)}] = location.pathname + location.search + location.hash;
  history.replaceState(history.state, "", ${JSON.stringify(from)});
  root.style.visibility = "hidden";
  setTimeout(() => { root.style.visibility = ""; }, 8000);
})();
`;
}

/** An address of this site's own (`/path?query`), or null: what `from` may be. */
export function openedFrom(value: string | null): string | null {
  return value && value.startsWith("/") && !value.startsWith("//") && !value.includes("\\") ? value : null;
}

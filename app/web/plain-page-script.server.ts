import { ASSETS_PATH } from "~/utils/assets-path";

/**
 * The only script of a page sent without the app's code (docs/decisions/0047): it registers the
 * service worker (SPEC.md §1) for this build, as offline/service-worker.ts does on other pages. Once
 * the worker takes control, it asks it to save this page and its stylesheet, so that the page
 * opens offline like any page seen later. Nothing here reloads the page: it runs no build's code.
 * Drawn inline, so it costs no request; the CSP names it by its hash (security-headers.server.ts).
 * Server-only: the browser never draws a page without scripts, so its code stays out of theirs
 * (entry.server.tsx hands it to root.tsx through utils/plain-page.ts).
 */
export function plainPageScript(buildVersion: string): string {
  const worker = JSON.stringify(`/sw.js?v=${encodeURIComponent(buildVersion)}`);
  return [
    `if ("serviceWorker" in navigator) {`,
    `  var sw = navigator.serviceWorker, unsaved = !sw.controller;`,
    `  sw.addEventListener("controllerchange", function () {`,
    `    if (!unsaved || !sw.controller) return;`,
    `    unsaved = false;`,
    `    var build = location.origin + ${JSON.stringify(ASSETS_PATH)};`,
    `    var assets = performance.getEntriesByType("resource").map(function (e) { return e.name; })`,
    `      .filter(function (name) { return name.indexOf(build) === 0; });`,
    `    sw.controller.postMessage({ type: "save-page", page: location.pathname + location.search, assets: assets });`,
    `  });`,
    `  addEventListener("load", function () { sw.register(${worker}, { scope: "/" }).catch(function () {}); });`,
    `}`,
  ].join("\n");
}

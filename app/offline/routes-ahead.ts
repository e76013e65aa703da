import { browserSavesData, ROUTES_AHEAD_MESSAGE, type RoutesAheadMessage } from "./routes-ahead-message";

/**
 * The page's side of the worker's routes-ahead fetch (app/sw/routes-ahead.ts, ADR 0088): once a
 * member's page has hydrated, it asks the worker after the page's load event, when the browser is
 * idle, to fetch in the background the code of the pages the member is likely to open next, unless
 * data saver is on (the member's setting, or the browser's `Save-Data`).
 */

let asked = false;

/** Called once the page has hydrated: asks after its load event, when the browser is idle. */
export function askForRoutesAhead({ member, dataSaver }: { member: boolean; dataSaver: boolean }) {
  if (asked || !member || dataSaver || !("serviceWorker" in navigator) || browserSavesData(navigator)) return;
  asked = true;
  const loaded =
    document.readyState === "complete"
      ? Promise.resolve()
      : new Promise<void>((resolve) => window.addEventListener("load", () => resolve(), { once: true }));
  void loaded.then(ownWorker).then((worker) => {
    const ask = () => worker.postMessage({ type: ROUTES_AHEAD_MESSAGE } satisfies RoutesAheadMessage);
    if ("requestIdleCallback" in window) window.requestIdleCallback(ask, { timeout: 5_000 });
    else setTimeout(ask, 1_000);
  });
}

/**
 * The worker of this page's build, once it controls the page. Not another build's: after a deploy
 * the old worker would fetch its own build's files, about to be replaced, and keep the new worker
 * from taking over until it was done (a browser lets a worker finish what it was doing first).
 */
function ownWorker(): Promise<ServiceWorker> {
  const version = window.__reactRouterManifest?.version ?? "dev";
  const ours = () => {
    const controller = navigator.serviceWorker.controller;
    return controller && new URL(controller.scriptURL).searchParams.get("v") === version ? controller : null;
  };
  return new Promise((resolve) => {
    const now = ours();
    if (now) return resolve(now);
    const changed = () => {
      const worker = ours();
      if (!worker) return;
      navigator.serviceWorker.removeEventListener("controllerchange", changed);
      resolve(worker);
    };
    navigator.serviceWorker.addEventListener("controllerchange", changed);
  });
}

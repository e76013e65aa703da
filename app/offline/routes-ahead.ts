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
  void loaded
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      const ask = () => registration.active?.postMessage({ type: ROUTES_AHEAD_MESSAGE } satisfies RoutesAheadMessage);
      if ("requestIdleCallback" in window) window.requestIdleCallback(ask, { timeout: 5_000 });
      else setTimeout(ask, 1_000);
    });
}

/**
 * What the page and the service worker agree on about the routes ahead (ADR 0088; the page's side in
 * ./routes-ahead.ts, the worker's in app/sw/routes-ahead.ts). No worker or DOM globals: both sides
 * import it.
 */

/** Page → worker: fetch the routes ahead now, if they are not here yet. */
export type RoutesAheadMessage = { type: "routes-ahead" };
export const ROUTES_AHEAD_MESSAGE = "routes-ahead";

/** The Network Information API's data-saver flag, where the browser has it (Chromium). */
export function browserSavesData(nav: object): boolean {
  return Boolean((nav as { connection?: { saveData?: boolean } }).connection?.saveData);
}

/**
 * What decides whether a page's data is loaded again after a send, for the `shouldRevalidate`s of
 * app/offline/client-action.ts and utils/remix.ts. Browser-safe, and free of the outbox itself, so
 * utils reads it without importing app/offline (the outbox writes it: offline → utils, never back).
 */

/** What a send that did not go through answers the page: nothing changed, nothing to show. */
export type Unsent = { unsent: true };
export const isUnsent = (data: unknown): data is Unsent =>
  typeof data === "object" && data !== null && (data as Partial<Unsent>).unsent === true;

/** A send that found no signal and waits in the outbox (offline/outbox-client.ts) to go by itself. */
export type Queued = Unsent & { queued: true };
export const isQueued = (data: unknown): data is Queued => isUnsent(data) && (data as Partial<Queued>).queued === true;

let outboxReloading = false;
/** True while the outbox reloads the page's data after sending what waited (ADR 0034): let it through. */
export const outboxRevalidating = () => outboxReloading;
/** Set by the outbox (offline/outbox-client.ts) when it asks for the reload, and cleared when it is over. */
export function setOutboxRevalidating(on: boolean): void {
  outboxReloading = on;
}

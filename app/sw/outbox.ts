import { closeOutbox, idbOutboxStore, OUTBOX_SYNC_TAG, type OutboxChangedMessage } from "../offline/outbox";
import { sendWaiting as sendFrom } from "../offline/outbox-wire";
import { answerEndsSession } from "../offline/saved-pages";
import { sessionEnded } from "./saved-pages";

/**
 * The worker's half of the outbox (docs/decisions/0034-outbox.md): Background Sync, where the
 * browser has it, sends what waits once the signal is back, even with no page of the site open.
 * Only the items of the member the pages last saw signed in are sent (a logout forgets them all);
 * each carries its idempotency key, so a page sending the same item at the same time makes one.
 */

declare const self: ServiceWorkerGlobalScope;

type SyncEvent = ExtendableEvent & { tag: string };

async function sendWaiting(): Promise<void> {
  const store = idbOutboxStore();
  // A post written offline with photos: they go up first, resuming where the server is (ADR 0093);
  // one sender at a time, so a page sending the same post waits, then finds it sent.
  const report = await sendFrom(store, self.location.origin, async (path, status) => {
    // The worker's own send heard that this device's session ended: the member's saved pages go too (ADR 0078).
    if (answerEndsSession(path, status)) await sessionEnded();
  });
  if (report.changed) {
    const sent = report.sent.map(({ key, draft, memberId }) => ({ key, draft, memberId }));
    const message: OutboxChangedMessage = { type: "outbox-changed", sent };
    for (const client of await self.clients.matchAll({ type: "window" })) client.postMessage(message);
  }
  // Still no way through: the browser tries the sync again later.
  if (report.stopped) throw new Error("The outbox is still waiting for a signal");
}

export function listenForOutbox(): void {
  self.addEventListener("sync", (event) => {
    const sync = event as SyncEvent;
    if (sync.tag === OUTBOX_SYNC_TAG) sync.waitUntil(sendWaiting());
  });
}

/** Signing out (the request leaving): nothing waiting is sent as the next person. */
export const forgetOutbox = () => closeOutbox(idbOutboxStore()).catch(() => undefined);

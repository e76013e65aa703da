import { browserStorage, removeDraft } from "./drafts";
import type { ForgetPagesMessage } from "./saved-pages";
import { IDEMPOTENCY_FIELD, markKeyUsed } from "~/utils/idempotency";
// Whether the outbox is reloading the page lives in utils, where ignoreSearchParams (utils/remix.ts) reads it.
import { setOutboxRevalidating } from "~/utils/revalidation";
import {
  closeOutbox,
  enqueue,
  idbOutboxStore,
  itemsOf,
  noteMember,
  OUTBOX_SYNC_TAG,
  type OutboxChangedMessage,
  type OutboxItem,
  type OutboxRoute,
  type OutboxStore,
  type StoredOutboxItem,
} from "./outbox";

export type { OutboxRoute };

type Wire = typeof import("./outbox-wire");
let wire: Promise<Wire> | null = null;
/**
 * What sends (outbox-wire.ts), out of every page's first load: fetched when the outbox starts for a
 * member, so it is there (and kept by the service worker) before the signal drops; a fetch that
 * failed is tried again on the next call.
 */
const loadWire = (): Promise<Wire> =>
  (wire ??= import("./outbox-wire").catch((error: unknown) => {
    wire = null;
    throw error;
  }));

/**
 * The page's half of the outbox (docs/decisions/0034-outbox.md): keeps a send that found no
 * signal (offline/client-action.ts calls `queueSend`), lists the member's waiting items for the notes
 * that show them in place (`useOutbox`, components/ui/outbox-note.tsx), and sends them when the
 * signal returns: the `online` event, the next page load (`startOutbox`, from the root), or the
 * service worker's Background Sync (app/sw/outbox.ts), which tells the page when it sent something.
 */

/** How the page reloads its data: React Router's `useRevalidator`, handed in by `<OutboxRevalidator />` in the root. */
type Revalidate = () => void;
let revalidator: Revalidate | null = null;
let pendingReload = false;
let revalidateTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * The root's `useRevalidator().revalidate` (ADR 0057: React Router's public API, not `window.__reactRouterDataRouter`).
 * A reload asked for before the root rendered runs once it does.
 */
export function setOutboxRevalidator(next: Revalidate | null): void {
  revalidator = next;
  if (next && pendingReload) revalidatePage();
}

/** The revalidator went back to idle after a reload the outbox asked for. */
export function outboxRevalidated(): void {
  setOutboxRevalidating(false);
  clearTimeout(revalidateTimer);
}

/** Something waiting was sent: every route's data is loaded again, so the real comment or like shows. */
function revalidatePage() {
  if (!revalidator) {
    pendingReload = true;
    return;
  }
  pendingReload = false;
  setOutboxRevalidating(true);
  // Over once the reload has run (the root sees the revalidator idle again), or after a bound.
  clearTimeout(revalidateTimer);
  revalidateTimer = setTimeout(outboxRevalidated, 15_000);
  revalidator();
}

/** The window event that tells a form its restored draft was sent by the outbox (detail: the draft's name). */
export const DRAFT_SENT_EVENT = "wp-draft-sent";
/** How a waiting send is described wherever it is shown. */
export const WAITING_TEXT = "Waiting — will send when you're back in coverage";

let store: OutboxStore | null | undefined;
function outboxStore(): OutboxStore | null {
  if (store === undefined) {
    try {
      store = typeof indexedDB === "undefined" ? null : idbOutboxStore();
    } catch {
      store = null;
    }
  }
  return store;
}

/** Tests hand in their own store. */
export function setOutboxStore(next: OutboxStore | null): void {
  store = next;
}

let memberId: number | null = null;
let items: StoredOutboxItem[] = [];
const listeners = new Set<() => void>();

/** For useSyncExternalStore: the member's items, and a call when they change. */
export function subscribeOutbox(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
export const outboxItems = () => items;
const NONE: StoredOutboxItem[] = [];
export const noOutboxItems = () => NONE;

async function refresh(s: OutboxStore) {
  items = await itemsOf(s, memberId);
  for (const listener of listeners) listener();
}

/**
 * Keeps a send that found no signal, as the `/api/*` call it stands for (ADR 0057, `itemFor` in
 * outbox-wire.ts); false when it cannot be kept (not a member, a file, nothing to send it as, no
 * IndexedDB).
 */
export async function queueSend(request: Request, form: FormData, route: OutboxRoute, now = Date.now()): Promise<boolean> {
  const s = outboxStore();
  if (!s || memberId === null) return false;
  try {
    const item = (await loadWire()).itemFor(request, form, route, { memberId, now, keyField: IDEMPOTENCY_FIELD });
    if (!item) return false;
    await enqueue(s, item);
  } catch {
    return false;
  }
  await refresh(s);
  askForSync();
  return true;
}

/**
 * What keeps a post with its files (offline/outbox-files-client.ts, in the create page's code, not
 * every page's: ADR 0093): this device's outbox and member, then `kept` once it is in.
 */
export function outboxForFiles(): { store: OutboxStore; memberId: number; wire: () => Promise<Wire>; kept: () => Promise<void> } | null {
  const s = outboxStore();
  if (!s || memberId === null) return null;
  return {
    store: s,
    memberId,
    wire: loadWire,
    kept: async () => {
      await refresh(s);
      askForSync();
    },
  };
}

/** Background Sync, where the browser has it, sends what waits even with no page open (app/sw/outbox.ts). */
function askForSync() {
  void globalThis.navigator?.serviceWorker?.ready
    .then((registration) => (registration as { sync?: { register(tag: string): Promise<void> } }).sync?.register(OUTBOX_SYNC_TAG))
    .catch(() => undefined);
}

let flushing: Promise<void> | null = null;

/** Sends what waits (one run at a time in this page; the keys keep other senders from doubling it). */
export function replayOutbox(): Promise<void> {
  const s = outboxStore();
  if (!s || memberId === null) return Promise.resolve();
  flushing ??= (async () => {
    try {
      // A waiting post's photos go up first (ADR 0093); one sender at a time with the worker.
      const report = await (
        await loadWire()
      ).sendWaiting(s, location.origin, (_path, status) => {
        // This device's session has ended (signed out elsewhere): the worker forgets the member's
        // saved pages now, as it does for a 401 it sees itself (it does not relay sends with a body; ADR 0078).
        if (status === 401) navigator.serviceWorker?.controller?.postMessage({ type: "forget-pages" } satisfies ForgetPagesMessage);
      });
      sentItems(report.sent, true);
      await refresh(s);
    } catch {
      // IndexedDB refused: the items wait for the next try.
    } finally {
      flushing = null;
    }
  })();
  return flushing;
}

/**
 * Sent: its draft goes and the page shows the real thing. Sent by this page (at load, or when the
 * signal came back), forms holding its key take a new one and a form showing its draft is emptied
 * (use-draft.ts). Sent by the worker while this page was open, the form stays as the member left
 * it, key included: pressing Send again is answered as that send (a lost reply, ADR 0030).
 */
function sentItems(sent: Array<Pick<OutboxItem, "key" | "draft" | "memberId">>, byThisPage: boolean) {
  const storage = browserStorage();
  for (const item of sent) {
    if (item.draft && storage) removeDraft(storage, item.memberId, item.draft);
    if (!byThisPage) continue;
    const form = new FormData();
    form.set(IDEMPOTENCY_FIELD, item.key);
    markKeyUsed(form);
    if (item.draft) window.dispatchEvent(new CustomEvent(DRAFT_SENT_EVENT, { detail: item.draft }));
  }
  if (sent.length) revalidatePage();
}

/** A send of this form went through by hand: the outbox no longer holds it (same key). */
export function forgetSentKey(form: FormData): void {
  const key = form.get(IDEMPOTENCY_FIELD);
  if (typeof key === "string" && key && items.some((item) => item.key === key)) void dismissOutboxItem(key);
}

/**
 * The member gives up on an item the note shows (refused, too old, or a waiting post cancelled):
 * its files go with it, and an upload of them the server holds unfinished is dropped there (tus
 * termination; offline, the server drops it itself a day later).
 */
export async function dismissOutboxItem(key: string): Promise<void> {
  const s = outboxStore();
  if (!s) return;
  const item = (await s.all().catch(() => [])).find((kept) => kept.key === key);
  await s.remove(key).catch(() => undefined);
  await refresh(s);
  if (item?.files?.length)
    void loadWire().then(
      (w) => w.dropStartedUploads(item),
      () => undefined,
    );
}

let started = false;

/**
 * Every page load (the root): notes who is signed in (another member's items are removed, and
 * only this member's are ever sent) and sends what waits; from then on, whenever the signal returns.
 */
export async function startOutbox(member: number | null): Promise<void> {
  const s = outboxStore();
  if (!s) return;
  memberId = member;
  if (!started && typeof window !== "undefined") {
    started = true;
    window.addEventListener("online", () => void replayOutbox());
    navigator.serviceWorker?.addEventListener("message", (event: MessageEvent<OutboxChangedMessage | null>) => {
      if (event.data?.type !== "outbox-changed") return;
      sentItems(event.data.sent, false);
      void refresh(s);
    });
  }
  if (member !== null) void loadWire().catch(() => undefined);
  try {
    await noteMember(s, member);
    await refresh(s);
  } catch {
    return;
  }
  if (member !== null && typeof window !== "undefined" && navigator.onLine !== false) await replayOutbox();
}

/** Logout: the member's waiting items go, and nothing is sent until a member is signed in again. */
export function forgetOutbox(): void {
  const s = outboxStore();
  memberId = null;
  items = [];
  for (const listener of listeners) listener();
  if (s) void closeOutbox(s).catch(() => undefined);
}

/** A waiting post is named by its title in the note. */
export const postLabel = (form: FormData) => {
  const title = String(form.get("title") ?? "").trim();
  return title ? `Post “${title.length > 60 ? `${title.slice(0, 60)}…` : title}”` : "Post";
};

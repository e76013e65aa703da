/**
 * The outbox (issue 12, docs/decisions/0034-outbox.md): a comment, like, follow, join request or
 * text-only post sent with no signal is kept here, per member, with its idempotency key, and sent
 * again when the signal returns (the page's `online` event, Background Sync in the service worker,
 * the next page load). Pure logic over an injected `OutboxStore`, so the page (outbox-client.ts),
 * the service worker (app/sw/) and the tests share it; `idbOutboxStore()` is the IndexedDB one.
 * Exactly once: the server answers a repeat of a key as the first send (CONTRACT.md §6), so a
 * second sender (another tab, the worker) never doubles a comment or post.
 */

export type OutboxState = "waiting" | "sign-in" | "gave-up";

export type OutboxItem = {
  /** The idempotency key the send carries (also the item's id). */
  key: string;
  memberId: number;
  /** Where it posts: the route's path and its `?_data=` route id (Remix's script request). */
  url: string;
  /** The form's fields, files left out (only text-only sends are kept). */
  fields: Array<[string, string]>;
  multipart: boolean;
  intent: string;
  /** The page it belongs to (`/post/12`): where it is shown as waiting. */
  page: string;
  /** What to call it in the note ("Comment", a post's title …). */
  label: string;
  /** A local draft (utils/drafts.ts) that the send's success makes obsolete. */
  draft?: string;
  queuedAt: number;
  state: OutboxState;
  /** Why it was not sent (a refusal, or too old). */
  error?: string;
};

export interface OutboxStore {
  all(): Promise<OutboxItem[]>;
  put(item: OutboxItem): Promise<void>;
  remove(key: string): Promise<void>;
  /** The member signed in on this device as far as the pages know (null: nobody). */
  member(): Promise<number | null>;
  setMember(id: number | null): Promise<void>;
}

/** An item still unsent after this long is given up, and the member told (the same bound as drafts). */
export const OUTBOX_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** Sends that may wait for the signal, by intent. Only text: a form with a file is never kept. */
export const QUEUED_INTENTS = ["comment", "like", "unlike", "follow", "unfollow", "join", "create-post"] as const;

/** A like and an unlike of one post (a follow and unfollow) replace each other: only the last counts. */
const toggleGroup = (intent: string) =>
  intent === "like" || intent === "unlike" ? "like" : intent === "follow" || intent === "unfollow" ? "follow" : null;

/**
 * Keeps an item. A same-key item is replaced, so pressing Send twice stays one send; so is an
 * earlier like/unlike (follow/unfollow) of the same page, and an earlier send of the same draft (the
 * post form sent again after a reload, which gave the form a new key).
 */
export async function enqueue(store: OutboxStore, item: OutboxItem): Promise<void> {
  const group = toggleGroup(item.intent);
  for (const old of await store.all()) {
    if (old.key === item.key || old.memberId !== item.memberId || old.state === "gave-up") continue;
    const sameToggle = group !== null && old.page === item.page && toggleGroup(old.intent) === group;
    const sameDraft = item.draft !== undefined && old.draft === item.draft;
    if (sameToggle || sameDraft) await store.remove(old.key);
  }
  await store.put(item);
}

/** The items of one member, oldest first. */
export async function itemsOf(store: OutboxStore, memberId: number | null): Promise<OutboxItem[]> {
  if (memberId === null) return [];
  return (await store.all()).filter((item) => item.memberId === memberId).sort((a, b) => a.queuedAt - b.queuedAt);
}

/**
 * Who is signed in on this device. Only that member's items are ever sent; a different member
 * signing in removes everything another member left (a shared device shows nobody else's text).
 */
export async function noteMember(store: OutboxStore, memberId: number | null): Promise<void> {
  await store.setMember(memberId);
  if (memberId === null) return;
  for (const item of await store.all()) if (item.memberId !== memberId) await store.remove(item.key);
}

/** Logout: nothing of the member stays to be sent as (or read by) the next person. */
export async function closeOutbox(store: OutboxStore): Promise<void> {
  await store.setMember(null);
  for (const item of await store.all()) await store.remove(item.key);
}

/** What one attempt came to. */
export type SendOutcome = { sent: true } | { retry: true } | { signIn: true } | { refused: string };

/** Reads the server's answer to a replayed send (a Remix `?_data=` request). */
export async function outcomeOf(response: Response): Promise<SendOutcome> {
  const redirect = response.headers.get("X-Remix-Redirect");
  if (redirect) return /^\/auth(\?|$)/.test(redirect) ? { signIn: true } : { sent: true };
  if (response.status < 400) return { sent: true };
  if (response.status === 401) return { signIn: true };
  // In flight elsewhere (409), slowed down, or the server's trouble: try again later.
  if (response.status === 408 || response.status === 409 || response.status === 429 || response.status >= 500) return { retry: true };
  const body = (await response.json().catch(() => null)) as { error?: unknown; message?: unknown } | null;
  const message = typeof body?.error === "string" ? body.error : typeof body?.message === "string" ? body.message : "";
  return { refused: message || "The server refused it." };
}

export const TOO_OLD = "Not sent: it waited more than 7 days for a signal.";

/** What a flush did: the items sent, whether anything changed, whether it stopped for want of a signal. */
export type FlushReport = { sent: OutboxItem[]; changed: boolean; stopped: boolean };

/**
 * Sends the signed-in member's waiting items, oldest first, each with its key; stops at the first
 * that cannot reach the server (the rest would fail the same way). A sent item is removed; a
 * refused one (4xx) or one too old is kept as given up, to tell the member; an ended session keeps
 * it until the member signs in again.
 */
export async function flush(
  store: OutboxStore,
  send: (item: OutboxItem) => Promise<Response>,
  now: () => number = Date.now,
): Promise<FlushReport> {
  const report: FlushReport = { sent: [], changed: false, stopped: false };
  const member = await store.member();
  for (const item of await itemsOf(store, member)) {
    if (item.state === "gave-up") continue;
    if (now() - item.queuedAt > OUTBOX_MAX_AGE_MS) {
      await store.put({ ...item, state: "gave-up", error: TOO_OLD });
      report.changed = true;
      continue;
    }
    let outcome: SendOutcome;
    try {
      outcome = await outcomeOf(await send(item));
    } catch {
      outcome = { retry: true };
    }
    // Signed out (or someone else signed in) while this was on its way: leave the rest.
    if ((await store.member()) !== member) break;
    if ("retry" in outcome) {
      report.stopped = true;
      break;
    }
    report.changed = true;
    if ("sent" in outcome) {
      await store.remove(item.key);
      report.sent.push(item);
    } else if ("signIn" in outcome) {
      await store.put({ ...item, state: "sign-in" });
      break;
    } else {
      await store.put({ ...item, state: "gave-up", error: outcome.refused });
    }
  }
  return report;
}

/** The request that replays an item: the same route, body and key as the first send. */
export function replayRequest(item: OutboxItem, origin: string): Request {
  let body: FormData | URLSearchParams;
  if (item.multipart) {
    body = new FormData();
    for (const [name, value] of item.fields) body.append(name, value);
  } else body = new URLSearchParams(item.fields);
  return new Request(new URL(item.url, origin), {
    method: "POST",
    body,
    credentials: "same-origin",
  });
}

const DB_NAME = "wp-outbox";
const ITEMS = "items";
const META = "meta";

function asPromise<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** The outbox in IndexedDB (pages and the service worker open the same database). */
export function idbOutboxStore(factory: IDBFactory = indexedDB): OutboxStore {
  let db: Promise<IDBDatabase> | undefined;
  const open = () =>
    (db ??= new Promise((resolve, reject) => {
      const request = factory.open(DB_NAME, 1);
      request.onupgradeneeded = () => {
        request.result.createObjectStore(ITEMS, { keyPath: "key" });
        request.result.createObjectStore(META);
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    }));
  const run = async <T>(name: string, mode: IDBTransactionMode, fn: (store: IDBObjectStore) => IDBRequest<T>) =>
    asPromise(fn((await open()).transaction(name, mode).objectStore(name)));
  return {
    all: () => run(ITEMS, "readonly", (s) => s.getAll() as IDBRequest<OutboxItem[]>),
    put: async (item) => void (await run(ITEMS, "readwrite", (s) => s.put(item))),
    remove: async (key) => void (await run(ITEMS, "readwrite", (s) => s.delete(key))),
    member: async () => (await run(META, "readonly", (s) => s.get("member") as IDBRequest<number | undefined>)) ?? null,
    setMember: async (id) => void (await run(META, "readwrite", (s) => s.put(id, "member"))),
  };
}

/** Background Sync's tag for the outbox (the worker's `sync` event). */
export const OUTBOX_SYNC_TAG = "outbox";
/** The worker tells pages the outbox changed (something sent or given up). */
export type OutboxChangedMessage = { type: "outbox-changed"; sent: Array<Pick<OutboxItem, "key" | "draft" | "memberId">> };

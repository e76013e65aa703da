/**
 * The outbox (issue 12, docs/decisions/0034-outbox.md): a comment, like, follow, join request or
 * text-only post sent with no signal is kept here, per member, with its idempotency key, and sent
 * again when the signal returns (the page's `online` event, Background Sync in the service worker,
 * the next page load). It is sent as the public `/api/*` call with an `Idempotency-Key` (ADR 0057,
 * docs/offline.md). Pure logic over an injected `OutboxStore`, so the page (outbox-client.ts), the
 * service worker (app/sw/) and the tests share it; `idbOutboxStore()` is the IndexedDB one.
 * Exactly once: the server answers a repeat of a key as the first send (CONTRACT.md §6), so a
 * second sender (another tab, the worker) never doubles a comment or post.
 */

export type OutboxState = "waiting" | "sign-in" | "gave-up";

/**
 * The wire format (docs/decisions/0057-outbox-speaks-the-public-api.md): a waiting send is kept as
 * the public `/api/*` call it stands for (CONTRACT.md §2, §6) with its `Idempotency-Key`, never as
 * Remix's internal `?_data=<route id>` request, which a renamed route file breaks. Format 1 (builds
 * before issue 28) kept that internal request; it is translated when read (`upgradeItem`).
 */
export const OUTBOX_FORMAT = 2;

/** One `/api/*` call: its method, path and JSON body (none for a like or follow). */
export type ApiCall = { method: "POST" | "DELETE"; path: string; json?: Record<string, unknown> };

export type OutboxItem = {
  format: typeof OUTBOX_FORMAT;
  /** The idempotency key the send carries (also the item's id): the page form's, so a lost reply stays one send. */
  key: string;
  memberId: number;
  /** What it sends; null when an item of an older build named nothing this build can send (kept, shown, never dropped). */
  call: ApiCall | null;
  /** The form's fields, files left out: what the member wrote, shown while it waits. */
  fields: Array<[string, string]>;
  intent: string;
  /** The page it belongs to (`/post/12`): where it is shown as waiting. */
  page: string;
  /** What to call it in the note ("Comment", a post's title …). */
  label: string;
  /** A local draft (offline/drafts.ts) that the send's success makes obsolete. */
  draft?: string;
  queuedAt: number;
  state: OutboxState;
  /** Why it was not sent (a refusal, or too old). */
  error?: string;
};

/** An item as a build before issue 28 kept it: Remix's script request (`/post/12?_data=routes/post.$id`). */
export type OutboxItemV1 = Omit<OutboxItem, "format" | "call"> & { format?: undefined; url: string; multipart: boolean };

/** What IndexedDB may hold: this build's items and those an older build queued. */
export type StoredOutboxItem = OutboxItem | OutboxItemV1;

const valueOf = (fields: Array<[string, string]>, name: string) => fields.find(([n]) => n === name)?.[1];
const valuesOf = (fields: Array<[string, string]>, name: string) => fields.filter(([n]) => n === name).map(([, v]) => v);

/**
 * The `/api/*` call a queued form stands for, read from the page it was sent on (its path, not a
 * route id, so a route file can be renamed) and its fields. Null: nothing this build can send.
 */
export function apiCallFor(intent: string, page: string, fields: Array<[string, string]>): ApiCall | null {
  const post = /^\/post\/(\d+)\/?$/.exec(page)?.[1];
  const club = /^\/clubs\/(\d+)(?:\/|$)/.exec(page)?.[1];
  const profile = /^\/profile\/([^/?#]+)\/?$/.exec(page)?.[1];
  switch (intent) {
    case "comment":
      return post ? { method: "POST", path: `/api/posts/${post}/comments`, json: { content: valueOf(fields, "content") ?? "" } } : null;
    case "like":
    case "unlike":
      return post ? { method: intent === "like" ? "POST" : "DELETE", path: `/api/posts/${post}/like` } : null;
    case "follow":
    case "unfollow":
      return profile ? { method: intent === "follow" ? "POST" : "DELETE", path: `/api/users/${profile}/follow` } : null;
    case "join": {
      if (!club) return null;
      const json: Record<string, unknown> = {};
      const message = valueOf(fields, "message");
      const inviteCode = valueOf(fields, "inviteCode");
      if (message) json.message = message;
      if (inviteCode) json.inviteCode = inviteCode;
      return { method: "POST", path: `/api/clubs/${club}/join`, json };
    }
    case "create-post": {
      const clubPage = /^\/clubs\/(\d+)\/create\/?$/.exec(page)?.[1];
      if (page !== "/create" && !clubPage) return null;
      // The form's fields as /api/posts reads them (postInputSchema): the server fetches the link
      // preview itself, as it does for the form, so `urlMetadata` is not sent.
      const json: Record<string, unknown> = {};
      for (const name of ["title", "content", "type", "mediaUrl"]) {
        const value = valueOf(fields, name);
        if (value !== undefined) json[name] = value;
      }
      const tags = valuesOf(fields, "tags");
      if (tags.length) json.tags = tags.length === 1 ? tags[0] : tags;
      const files = valuesOf(fields, "uploadedFiles").filter(Boolean);
      if (files.length) json.uploadedFiles = files;
      const clubId = clubPage ?? valueOf(fields, "clubId");
      if (clubId) json.clubId = Number(clubId);
      return { method: "POST", path: "/api/posts", json };
    }
    default:
      return null;
  }
}

/** Shown for an older build's item that names nothing this build can send. */
export const CANNOT_SEND = "This version of the site cannot send it. Copy your text before dismissing it.";

/**
 * An item as this build sends it. An older build's (format 1, `?_data=`) is translated from the
 * page it was sent on, its intent and fields, keeping its key (a send that did arrive is answered
 * as the first one); one that names nothing sendable is given up, text kept, for the member to see.
 */
export function upgradeItem(stored: StoredOutboxItem): OutboxItem {
  if (stored.format === OUTBOX_FORMAT) return stored;
  const { url, multipart: _multipart, format: _format, ...rest } = stored;
  const page = new URL(url, "http://outbox.invalid").pathname;
  const call = apiCallFor(stored.intent, page, stored.fields);
  const item: OutboxItem = { ...rest, format: OUTBOX_FORMAT, call };
  return call || item.state === "gave-up" ? item : { ...item, state: "gave-up", error: CANNOT_SEND };
}

/** What a member wrote in a waiting item (a comment, a post's text; a join request's message), to show it. */
export function itemText(item: Pick<OutboxItem, "fields">): string {
  return valueOf(item.fields, "content") ?? valueOf(item.fields, "message") ?? "";
}

export interface OutboxStore {
  /** Everything kept, as stored (read it through `allItems`, which upgrades older items). */
  all(): Promise<StoredOutboxItem[]>;
  put(item: OutboxItem): Promise<void>;
  remove(key: string): Promise<void>;
  /** The member signed in on this device as far as the pages know (null: nobody). */
  member(): Promise<number | null>;
  setMember(id: number | null): Promise<void>;
}

/** An item still unsent after this long is given up, and the member told (the same bound as drafts). */
export const OUTBOX_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** Every kept item in this build's format (older ones translated as they are read). */
export async function allItems(store: OutboxStore): Promise<OutboxItem[]> {
  return (await store.all()).map(upgradeItem);
}

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
  for (const old of await allItems(store)) {
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
  return (await allItems(store)).filter((item) => item.memberId === memberId).sort((a, b) => a.queuedAt - b.queuedAt);
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

/**
 * The server's refusals that mean the key itself, not the send (web/idempotency.server.ts): the same
 * key still running elsewhere (409: try again later), and the key already used for another request
 * (422). The second is how the first send of an item answers: the page's own form send (a path and
 * fields, not this `/api/*` call) reached the server and was stored before its reply was lost, so
 * the item was sent. Only a successful answer keeps a key, so nothing was refused.
 */
const KEY_IN_FLIGHT = /idempotency key is still in progress/i;
const KEY_USED_FOR_OTHER = /idempotency key was already used for a different request/i;

/** Reads the server's answer to a replayed send (an `/api/*` call; an older build's script request too). */
export async function outcomeOf(response: Response): Promise<SendOutcome> {
  const redirect = response.headers.get("X-Remix-Redirect");
  if (redirect) return /^\/auth(\?|$)/.test(redirect) ? { signIn: true } : { sent: true };
  if (response.status < 400) return { sent: true };
  if (response.status === 401) return { signIn: true };
  // Slowed down, or the server's trouble: try again later.
  if (response.status === 408 || response.status === 429 || response.status >= 500) return { retry: true };
  const body = (await response.json().catch(() => null)) as { error?: unknown; message?: unknown } | null;
  const message = typeof body?.error === "string" ? body.error : typeof body?.message === "string" ? body.message : "";
  if (response.status === 409 && (KEY_IN_FLIGHT.test(message) || !message)) return { retry: true };
  if (response.status === 422 && KEY_USED_FOR_OTHER.test(message)) return { sent: true };
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
    if (!item.call) {
      await store.put({ ...item, state: "gave-up", error: CANNOT_SEND });
      report.changed = true;
      continue;
    }
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

/** The request that sends an item: its `/api/*` call, JSON, with the item's key as `Idempotency-Key`. */
export function replayRequest(item: OutboxItem, origin: string): Request {
  if (!item.call) throw new Error("Nothing to send");
  const { method, path, json } = item.call;
  const headers: Record<string, string> = { "Idempotency-Key": item.key, Accept: "application/json" };
  if (json) headers["Content-Type"] = "application/json";
  return new Request(new URL(path, origin), {
    method,
    headers,
    body: json ? JSON.stringify(json) : undefined,
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
    all: () => run(ITEMS, "readonly", (s) => s.getAll() as IDBRequest<StoredOutboxItem[]>),
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

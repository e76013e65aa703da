/**
 * The outbox (issue 12, docs/decisions/0034-outbox.md): a comment, like, follow, join request or
 * text-only post sent with no signal is kept here, per member, with its idempotency key, and sent
 * again when the signal returns (the page's `online` event, Background Sync in the service worker,
 * the next page load). It is sent as the public `/api/*` call with an `Idempotency-Key` (ADR 0057,
 * docs/offline.md). Pure logic over an injected `OutboxStore`, so the page (outbox-client.ts), the
 * service worker (app/sw/) and the tests share it; `idbOutboxStore()` is the IndexedDB one. What
 * keeps and shows items is here, in every page's first load; what sends them (the `/api` wire,
 * reading older items, the answers) is outbox-wire.ts, fetched when there is something to send.
 * Exactly once: the server answers a repeat of a key as the first send (CONTRACT.md §6), so a
 * second sender (another tab, the worker) never doubles a comment or post.
 */

export type OutboxState = "waiting" | "sign-in" | "gave-up";

/**
 * The wire format (docs/decisions/0057-outbox-speaks-the-public-api.md): a waiting send is kept as
 * the public `/api/*` call it stands for (CONTRACT.md §2, §6) with its `Idempotency-Key`, never as
 * Remix's internal `?_data=<route id>` request, which a renamed route file breaks. Format 1 (builds
 * before issue 28) kept that internal request; it is translated when read (`upgradeItem`, outbox-wire.ts).
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
  /**
   * Photos (or video, audio) chosen with no signal, kept with the post (ADR 0093): each is uploaded
   * by tus before the call goes, and its stored URL added to the call's `uploadedFiles`.
   */
  files?: OutboxFile[];
};

/** A file that waits with a post: its bytes, and how far its upload got (kept as it goes, so a reload or a cut resumes). */
export type OutboxFile = {
  name: string;
  type: string;
  blob: Blob;
  /** The tus upload's address once it was created on the server (a later run resumes it from the server's offset). */
  uploadUrl?: string;
  /** What the server stored: the upload is done, only the post is left. */
  stored?: { type: string; url: string; name: string };
};

/** An item as a build before issue 28 kept it: Remix's script request (`/post/12?_data=routes/post.$id`). */
export type OutboxItemV1 = Omit<OutboxItem, "format" | "call"> & { format?: undefined; url: string; multipart: boolean };

/** What IndexedDB may hold: this build's items and those an older build queued. */
export type StoredOutboxItem = OutboxItem | OutboxItemV1;

const valueOf = (fields: Array<[string, string]>, name: string) => fields.find(([n]) => n === name)?.[1];

/** What a member wrote in a waiting item (a comment, a post's text; a join request's message), to show it. */
export function itemText(item: Pick<StoredOutboxItem, "fields">): string {
  return valueOf(item.fields, "content") ?? valueOf(item.fields, "message") ?? "";
}

/** What a route's client action needs to keep one of its sends (keepPageOnFailure's `outbox`). */
export type OutboxRoute = {
  /** The intent when the form has none (the create page's post). */
  intent?: string;
  /** What the note calls it. */
  label: (form: FormData) => string;
  /** The local draft the send makes obsolete once it arrives. */
  draft?: (form: FormData) => string;
};

export interface OutboxStore {
  /** Everything kept, as stored (outbox-wire.ts `allItems` upgrades older items). */
  all(): Promise<StoredOutboxItem[]>;
  put(item: OutboxItem): Promise<void>;
  remove(key: string): Promise<void>;
  /** The member signed in on this device as far as the pages know (null: nobody). */
  member(): Promise<number | null>;
  setMember(id: number | null): Promise<void>;
}

/** An item still unsent after this long is given up, and the member told (the same bound as drafts). */
export const OUTBOX_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** Sends that may wait for the signal, by intent. Only text: a form with a file is never kept. */
export const QUEUED_INTENTS = ["comment", "like", "unlike", "follow", "unfollow", "join", "create-post", "rsvp"] as const;

/** A like and an unlike of one post (a follow and unfollow) replace each other: only the last counts. */
const toggleGroup = (intent: string) =>
  intent === "like" || intent === "unlike"
    ? "like"
    : intent === "follow" || intent === "unfollow"
      ? "follow"
      : // A hunt's answer (issue 44): the member's last choice is the one that goes.
        intent === "rsvp"
        ? "rsvp"
        : null;

/**
 * Keeps an item. A same-key item is replaced, so pressing Send twice stays one send; so is an
 * earlier like/unlike (follow/unfollow, a hunt's answer) of the same page, and an earlier send of the same draft (the
 * post form sent again after a reload, which gave the form a new key).
 */
export async function enqueue(store: OutboxStore, item: OutboxItem): Promise<void> {
  const group = toggleGroup(item.intent);
  let files = item.files;
  for (const old of await store.all()) {
    if (old.memberId !== item.memberId || old.state === "gave-up") continue;
    const sameKey = old.key === item.key;
    const sameToggle = group !== null && old.page === item.page && toggleGroup(old.intent) === group;
    const sameDraft = item.draft !== undefined && old.draft === item.draft;
    if (!sameKey && !sameToggle && !sameDraft) continue;
    // The same post sent again (Publish pressed twice, or after a reload) keeps the photos that
    // waited with it: they are no longer in the form (ADR 0093).
    if (!files?.length && "files" in old && old.files?.length) files = old.files;
    if (!sameKey) await store.remove(old.key);
  }
  await store.put(files?.length ? { ...item, files } : item);
}

/**
 * The items of one member, oldest first, as stored: an older build's too (what they show, the text,
 * label, page and state, is the same in both formats; outbox-wire.ts translates them to send).
 */
export async function itemsOf(store: OutboxStore, memberId: number | null): Promise<StoredOutboxItem[]> {
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

/**
 * Local drafts of what a member is typing (issue 12, ADR 0031): one entry per member and form in
 * localStorage, `wp-draft:<memberId>:<form key>` → `{ v: values, t: saved at }`. Values are the
 * form's named fields as strings (several for a repeated name, e.g. tag chips). Pure functions over a
 * `Storage`, so tests hand in a fake and the browser's storage failing (private mode, quota) never
 * breaks a form: every call swallows storage errors.
 */

export type DraftValues = Record<string, string[]>;
export type Draft = { values: DraftValues; savedAt: number };
type StorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">;

const PREFIX = "wp-draft:";
/** A draft untouched this long is dropped (ADR 0031): long enough for a hunting trip, short enough for a shared device. */
export const DRAFT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export const draftStorageKey = (memberId: number, form: string) => `${PREFIX}${memberId}:${form}`;

/** True when nothing was typed: every value empty or blank. */
export function isBlank(values: DraftValues): boolean {
  return Object.values(values).every((list) => list.every((v) => v.trim() === ""));
}

/** Same names with the same values in the same order. */
export function sameValues(a: DraftValues, b: DraftValues): boolean {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const name of names) {
    const x = a[name] ?? [];
    const y = b[name] ?? [];
    if (x.length !== y.length || x.some((v, i) => v !== y[i])) return false;
  }
  return true;
}

function safely<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

function parse(raw: string | null): Draft | null {
  if (!raw) return null;
  const data = safely(() => JSON.parse(raw) as unknown, null);
  if (!data || typeof data !== "object") return null;
  const { v, t } = data as { v?: unknown; t?: unknown };
  if (typeof t !== "number" || !v || typeof v !== "object") return null;
  const values: DraftValues = {};
  for (const [name, list] of Object.entries(v)) {
    if (Array.isArray(list)) values[name] = list.filter((x): x is string => typeof x === "string");
  }
  return { values, savedAt: t };
}

/** Keeps the member's draft of a form; a blank one is removed instead. */
/**
 * Logout closes drafts: every draft is removed and none is written again until a form mounts for a
 * signed-in member (a form still on screen while the logout is sent may have a save pending). The
 * addresses tus-js-client keeps for unfinished uploads (`tus::<file fingerprint>`, ADR 0035) go too:
 * they name the member's files, and only that member could resume them.
 */
let closed = false;
const UNFINISHED_UPLOAD_PREFIX = "tus::";
export function closeDrafts(storage: StorageLike): void {
  closed = true;
  clearDrafts(storage);
  const keys = safely(() => Array.from({ length: storage.length }, (_, i) => storage.key(i)), [] as (string | null)[]);
  for (const key of keys) if (key?.startsWith(UNFINISHED_UPLOAD_PREFIX)) safely(() => storage.removeItem(key), undefined);
}
export function reopenDrafts(): void {
  closed = false;
}

export function saveDraft(storage: StorageLike, memberId: number, form: string, values: DraftValues, now = Date.now()): void {
  if (closed) return;
  const key = draftStorageKey(memberId, form);
  if (isBlank(values)) return removeDraft(storage, memberId, form);
  safely(() => storage.setItem(key, JSON.stringify({ v: values, t: now })), undefined);
}

/** The member's draft of a form, or null; an expired or unreadable one is removed. */
export function loadDraft(storage: StorageLike, memberId: number, form: string, now = Date.now()): Draft | null {
  const key = draftStorageKey(memberId, form);
  const draft = parse(safely(() => storage.getItem(key), null));
  if (draft && now - draft.savedAt <= DRAFT_MAX_AGE_MS) return draft;
  removeDraft(storage, memberId, form);
  return null;
}

export function removeDraft(storage: StorageLike, memberId: number, form: string): void {
  safely(() => storage.removeItem(draftStorageKey(memberId, form)), undefined);
}

/**
 * Removes drafts: all of them (logout), or, with `keepMember`, every other member's and any expired
 * one (a member signed in on a shared device never leaves the last person's text readable there).
 */
export function clearDrafts(storage: StorageLike, { keepMember, now = Date.now() }: { keepMember?: number; now?: number } = {}): void {
  const keys = safely(() => Array.from({ length: storage.length }, (_, i) => storage.key(i)), [] as (string | null)[]);
  for (const key of keys) {
    if (!key?.startsWith(PREFIX)) continue;
    const mine = keepMember !== undefined && key.startsWith(`${PREFIX}${keepMember}:`);
    const draft = mine ? parse(safely(() => storage.getItem(key), null)) : null;
    if (!mine || !draft || now - draft.savedAt > DRAFT_MAX_AGE_MS) safely(() => storage.removeItem(key), undefined);
  }
}

/** The browser's localStorage, or null where there is none (server render) or it is refused. */
export function browserStorage(): Storage | null {
  return safely(() => (typeof window === "undefined" ? null : window.localStorage), null);
}

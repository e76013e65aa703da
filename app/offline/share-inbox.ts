/**
 * The share inbox (docs/decisions/0092-share-target.md): where the service worker keeps what a phone's
 * share sheet sent to `/share` (the web app manifest's share target) until the create page takes it.
 * Written by the worker (app/sw/share-target.ts), read once and emptied by the page
 * (components/post/editor.tsx), in Cache Storage, which both can open: one entry of the text and
 * the files' names, and one per file with its bytes. Nothing waits longer than an hour.
 */

export const SHARE_INBOX_CACHE = "share-inbox";
/** The create page's parameter naming what the worker kept. */
export const SHARED_PARAM = "shared";
/** What the inbox keeps at most this long (the server keeps a visitor's share as long). */
export const SHARE_INBOX_MAX_AGE_MS = 3_600_000;

export type SharedFromPhone = { title: string; text: string; url: string; files: File[] };
type InboxMeta = { title: string; text: string; url: string; files: Array<{ name: string; type: string }>; at: number };

const metaKey = (id: string) => `/__share-inbox/${id}/meta`;
const fileKey = (id: string, n: number) => `/__share-inbox/${id}/file/${n}`;
const idOf = (url: string) => /\/__share-inbox\/([\w-]+)\//.exec(new URL(url, "http://x").pathname)?.[1] ?? null;

/** The share's text parts and files, as the form the browser posted holds them. */
export function readShareForm(form: FormData, fileField = "files"): SharedFromPhone {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.trim() : "";
  };
  const files = form.getAll(fileField).filter((f): f is File => typeof f !== "string" && f.size > 0);
  return { title: text("title"), text: text("text"), url: text("url"), files };
}

export const isEmptyShare = (share: SharedFromPhone) => !share.files.length && !share.title && !share.text && !share.url;

/** Keep a share (the worker), returning its id; what is older than an hour goes first. */
export async function keepShare(share: SharedFromPhone, now = Date.now()): Promise<string> {
  const cache = await caches.open(SHARE_INBOX_CACHE);
  await forgetOld(cache, now);
  const id = crypto.randomUUID();
  try {
    for (const [n, file] of share.files.entries()) {
      await cache.put(fileKey(id, n), new Response(file, { headers: { "Content-Type": file.type || "application/octet-stream" } }));
    }
    const meta: InboxMeta = {
      title: share.title,
      text: share.text,
      url: share.url,
      files: share.files.map((f) => ({ name: f.name, type: f.type })),
      at: now,
    };
    await cache.put(metaKey(id), new Response(JSON.stringify(meta), { headers: { "Content-Type": "application/json" } }));
  } catch (error) {
    await forget(cache, id);
    throw error;
  }
  return id;
}

/** Take a share (the page): its text and files, and the inbox forgets it. Null when it is not there. */
export async function takeShare(id: string, now = Date.now()): Promise<SharedFromPhone | null> {
  if (typeof caches === "undefined" || !/^[\w-]+$/.test(id)) return null;
  const cache = await caches.open(SHARE_INBOX_CACHE);
  const answer = await cache.match(metaKey(id));
  if (!answer) return null;
  const meta = (await answer.json()) as InboxMeta;
  if (now - meta.at > SHARE_INBOX_MAX_AGE_MS) {
    await forget(cache, id);
    return null;
  }
  const files: File[] = [];
  for (const [n, file] of meta.files.entries()) {
    const kept = await cache.match(fileKey(id, n));
    if (kept) files.push(new File([await kept.blob()], file.name, { type: file.type }));
  }
  await forget(cache, id);
  return { title: meta.title, text: meta.text, url: meta.url, files };
}

async function forget(cache: Cache, id: string) {
  for (const key of await cache.keys()) if (idOf(key.url) === id) await cache.delete(key);
}

async function forgetOld(cache: Cache, now: number) {
  for (const key of await cache.keys()) {
    if (!key.url.endsWith("/meta")) continue;
    const answer = await cache.match(key);
    const at = answer ? ((await answer.json()) as InboxMeta).at : 0;
    if (now - at > SHARE_INBOX_MAX_AGE_MS) await forget(cache, idOf(key.url) ?? "");
  }
}

import {
  enqueue,
  OUTBOX_FORMAT,
  OUTBOX_MAX_AGE_MS,
  QUEUED_INTENTS,
  itemsOf,
  type ApiCall,
  type OutboxRoute,
  type OutboxFile,
  type OutboxItem,
  type OutboxStore,
  type StoredOutboxItem,
} from "./outbox";

/**
 * The outbox's wire (docs/decisions/0057-outbox-speaks-the-public-api.md): what a waiting item is sent
 * as (its public `/api/*` call with `Idempotency-Key`), how an older build's item is read, how the
 * answers are read, and the run that sends a member's items. Out of the pages' first load: the page
 * fetches it when the outbox starts for a member (outbox-client.ts), the service worker bundles it.
 */

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
    case "rsvp": {
      // A club hunt's answer (issue 44), sent from the hunt's page.
      const hunt = /^\/clubs\/(\d+)\/events\/(\d+)\/?$/.exec(page);
      return hunt
        ? { method: "POST", path: `/api/clubs/${hunt[1]}/events/${hunt[2]}/rsvp`, json: { status: valueOf(fields, "status") ?? "" } }
        : null;
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
      // "Graphic photo" (CONTRACT.md §14): the box's "on", which postInputSchema reads as true.
      if (valuesOf(fields, "sensitive").includes("on")) json.sensitive = true;
      // The field report's part (`field.kind`, `field.county`…) as the `field` object; a part left
      // blank is no report to postInputSchema, as it is for the form.
      const field = Object.fromEntries(fields.filter(([n, v]) => n.startsWith("field.") && v !== "").map(([n, v]) => [n.slice(6), v]));
      if (Object.keys(field).length) json.field = field;
      return { method: "POST", path: "/api/posts", json };
    }
    default:
      return null;
  }
}

/** A form's fields for the outbox (null: it carries a chosen file, which is kept only when handed in apart, ADR 0093). */
function textFields(form: FormData): Array<[string, string]> | null {
  const fields: Array<[string, string]> = [];
  let file = false;
  form.forEach((value, name) => {
    if (typeof value === "string") fields.push([name, value]);
    else if (value.size > 0 || value.name) file = true;
  });
  return file ? null : fields;
}

const randomKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * The item a send that found no signal becomes: its `/api` call, the form's text fields and key (a
 * fresh one, added as the field, for a like or follow). Null: not a queued intent, a file, or no
 * `/api` twin.
 */
export function itemFor(
  request: Request,
  form: FormData,
  route: OutboxRoute,
  { memberId, now, keyField }: { memberId: number; now: number; keyField: string },
  /** Files chosen for a post with no signal (the upload widget's, ADR 0093): they go up before the post. */
  files: File[] = [],
): OutboxItem | null {
  const intent = String(form.get("intent") ?? route.intent ?? "");
  const fields = (QUEUED_INTENTS as readonly string[]).includes(intent) ? textFields(form) : null;
  const page = new URL(request.url).pathname;
  const call = fields && apiCallFor(intent, page, fields);
  if (!fields || !call || (files.length && intent !== "create-post")) return null;
  let key = String(form.get(keyField) ?? "");
  if (!key) {
    key = randomKey();
    fields.push([keyField, key]);
  }
  if (!form.has("intent")) fields.push(["intent", intent]);
  return {
    format: OUTBOX_FORMAT,
    key,
    memberId,
    call,
    fields,
    intent,
    page,
    label: route.label(form),
    draft: route.draft?.(form),
    queuedAt: now,
    state: "waiting",
    ...(files.length ? { files: files.map((file) => ({ name: file.name, type: file.type, blob: file })) } : {}),
  };
}

import { uploadOutboxFile } from "./outbox-upload";
export { uploadOutboxFile };

/**
 * Keeps a post written with no signal together with the files chosen for it (the upload widget's
 * Publish, ADR 0093), after checking the upload limits: a message when they are broken.
 */
export async function keepPostWithFiles(
  store: OutboxStore,
  {
    request,
    form,
    route,
    files,
    limits,
    memberId,
    now,
    keyField,
  }: {
    request: Request;
    form: FormData;
    route: OutboxRoute;
    files: File[];
    limits: { maxFileBytes: number; maxFileLabel: string };
    memberId: number;
    now: number;
    keyField: string;
  },
): Promise<{ queued: true } | { refused: string } | { queued: false }> {
  const waitingBytes = (await store.all())
    .flatMap((item) => item.files ?? [])
    .reduce((sum, file) => sum + (file.stored ? 0 : file.blob.size), 0);
  const refusal = refuseQueuedFiles(files, { ...limits, uploaded: form.getAll("uploadedFiles").length, waitingBytes });
  if (refusal) return { refused: refusal };
  const item = itemFor(request, form, route, { memberId, now, keyField }, files);
  if (!item) return { queued: false };
  await enqueue(store, item);
  return { queued: true };
}

/**
 * A cancelled post's uploads the server holds unfinished are dropped there (tus termination; with
 * no signal the server drops them itself a day later).
 */
export async function dropStartedUploads(item: Pick<OutboxItem, "files">): Promise<void> {
  for (const file of item.files ?? [])
    if (file.uploadUrl && !file.stored)
      await fetch(file.uploadUrl, { method: "DELETE", headers: { "Tus-Resumable": "1.0.0" }, credentials: "same-origin" }).catch(
        () => undefined,
      );
}

/**
 * One run of a sender (a page or the worker) from `origin`: each item's photos uploaded first, then
 * its call with its key; `heard` sees each answer's path and status. One sender at a time (below).
 */
export function sendWaiting(store: OutboxStore, origin: string, heard: (path: string, status: number) => unknown): Promise<FlushReport> {
  return oneSender(() =>
    flush(
      store,
      async (item) => {
        const request = replayRequest(item, origin);
        const response = await fetch(request);
        await heard(new URL(request.url).pathname, response.status);
        return response;
      },
      Date.now,
      (file, hooks) => uploadOutboxFile(file, { origin, ...hooks }),
    ),
  );
}

/** The Web Lock one sender holds while it sends (a page or the worker; ADR 0093). */
export const OUTBOX_LOCK = "wp-outbox-send";

/**
 * One sender at a time across this device's pages and the worker (Web Locks, where the browser has
 * them): a post's photos are uploaded once, not by a page and the worker side by side.
 */
export function oneSender<T>(run: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as { locks?: { request(name: string, fn: () => Promise<T>): Promise<T> } } | undefined)?.locks;
  return locks ? locks.request(OUTBOX_LOCK, run) : run();
}

/** The most a post's files waiting on this device may weigh together (IndexedDB's room on a phone is not endless). */
export const MAX_QUEUED_BYTES = 200 * 1024 * 1024;
/** As many files as a post takes (postInputSchema's uploadedFiles). */
export const MAX_POST_FILES = 20;

/**
 * Why files chosen with no signal cannot wait with a post (null: they can), checked before they are
 * kept, with the limits the server applies when they go up (ADR 0093): size and kind per file, files
 * per post, and what this device keeps waiting altogether.
 */
export function refuseQueuedFiles(
  files: ReadonlyArray<Pick<File, "name" | "size" | "type">>,
  {
    uploaded,
    waitingBytes,
    maxFileBytes,
    maxFileLabel,
  }: { uploaded: number; waitingBytes: number; maxFileBytes: number; maxFileLabel: string },
): string | null {
  for (const file of files) {
    if (file.size > maxFileBytes) return `${file.name} is too large. The limit is ${maxFileLabel} per file.`;
    if (!/^(image|video|audio)\//.test(file.type)) return `${file.name} is not an image, video or audio file.`;
  }
  if (files.length + uploaded > MAX_POST_FILES) return `A post takes at most ${MAX_POST_FILES} files.`;
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  if (bytes + waitingBytes > MAX_QUEUED_BYTES)
    return "These files are too large to keep on this phone until the signal returns (200 MB at most). Publish with fewer or smaller files, or wait for a signal.";
  return null;
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
  const call = apiCallFor(stored.intent, new URL(url, "http://outbox.invalid").pathname, stored.fields);
  // With no call, `flush` gives it up (CANNOT_SEND) and keeps it, text and all, for the member to see.
  return { ...rest, format: OUTBOX_FORMAT, call };
}

/** Every kept item in this build's format (older ones translated as they are read). */
export async function allItems(store: OutboxStore): Promise<OutboxItem[]> {
  return (await store.all()).map(upgradeItem);
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

/** Uploads one of an item's files (outbox-upload.ts); `keepUrl` and `wanted` are the item's, handed in by `flush`. */
export type UploadOne = (
  file: OutboxFile,
  hooks: { keepUrl(url: string | undefined): Promise<void>; wanted(): Promise<boolean> },
) => Promise<import("./outbox-upload").UploadOutcome>;

type FilesOutcome = { done: OutboxItem } | { retry: true } | { signIn: true } | { refused: string } | { cancelled: true };

/**
 * Uploads an item's files that are not on the server yet, one by one, keeping each upload's address
 * and result in the item as they come (a run cut short resumes there, ADR 0093). Cancelled: the
 * member removed the item meanwhile.
 */
async function uploadFiles(store: OutboxStore, item: OutboxItem, upload: UploadOne): Promise<FilesOutcome> {
  const files = (item.files ?? []).map((file) => ({ ...file }));
  const current = (): OutboxItem => ({ ...item, files });
  const wanted = async () => (await store.all()).some((kept) => kept.key === item.key);
  for (const file of files) {
    if (file.stored) continue;
    const outcome = await upload(file, {
      wanted,
      keepUrl: async (url) => {
        file.uploadUrl = url;
        if (await wanted()) await store.put(current());
      },
    });
    if (!(await wanted())) return { cancelled: true };
    if (!("stored" in outcome)) return outcome;
    file.stored = { type: outcome.stored.type, url: outcome.stored.url, name: outcome.stored.name ?? file.name };
    await store.put(current());
  }
  return { done: current() };
}

/** The item's call with the URLs of its uploaded files added to `uploadedFiles` (a post written offline with photos). */
export function callWithFiles(item: OutboxItem): ApiCall | null {
  const stored = (item.files ?? []).flatMap((file) => (file.stored ? [file.stored.url] : []));
  if (!item.call || !stored.length) return item.call;
  const json = { ...item.call.json };
  const before = json.uploadedFiles;
  json.uploadedFiles = [...(Array.isArray(before) ? (before as unknown[]) : before ? [before] : []), ...stored];
  return { ...item.call, json };
}

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
  /** Uploads a waiting post's files; without it, an item with files still to upload waits for a sender that has it. */
  upload?: UploadOne,
): Promise<FlushReport> {
  const report: FlushReport = { sent: [], changed: false, stopped: false };
  const member = await store.member();
  for (const item of (await itemsOf(store, member)).map(upgradeItem)) {
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
    let sending = item;
    if (item.files?.some((file) => !file.stored)) {
      if (!upload) {
        report.stopped = true;
        break;
      }
      let files: FilesOutcome;
      try {
        files = await uploadFiles(store, item, upload);
      } catch {
        files = { retry: true };
      }
      if ((await store.member()) !== member) break;
      if ("cancelled" in files) {
        report.changed = true;
        continue;
      }
      if ("retry" in files) {
        report.stopped = true;
        break;
      }
      report.changed = true;
      if ("signIn" in files) {
        await store.put({ ...(await freshItem(store, item)), state: "sign-in" });
        break;
      }
      if ("refused" in files) {
        await store.put({ ...(await freshItem(store, item)), state: "gave-up", error: files.refused });
        continue;
      }
      sending = files.done;
    }
    let outcome: SendOutcome;
    try {
      outcome = await outcomeOf(await send(sending));
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
      await store.put({ ...sending, state: "sign-in" });
      break;
    } else {
      await store.put({ ...sending, state: "gave-up", error: outcome.refused });
    }
  }
  return report;
}

/** The item as kept now (its files' progress included). */
async function freshItem(store: OutboxStore, item: OutboxItem): Promise<OutboxItem> {
  const kept = (await store.all()).find((other) => other.key === item.key);
  return kept ? upgradeItem(kept) : item;
}

/** The request that sends an item: its `/api/*` call, JSON, with the item's key as `Idempotency-Key`. */
export function replayRequest(item: OutboxItem, origin: string): Request {
  const call = callWithFiles(item);
  if (!call) throw new Error("Nothing to send");
  const { method, path, json } = call;
  const headers: Record<string, string> = { "Idempotency-Key": item.key, Accept: "application/json" };
  if (json) headers["Content-Type"] = "application/json";
  return new Request(new URL(path, origin), {
    method,
    headers,
    body: json ? JSON.stringify(json) : undefined,
    credentials: "same-origin",
  });
}

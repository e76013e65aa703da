import {
  OUTBOX_FORMAT,
  OUTBOX_MAX_AGE_MS,
  QUEUED_INTENTS,
  itemsOf,
  type ApiCall,
  type OutboxRoute,
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

/** A form's fields for the outbox (null: it carries a chosen file, which is never kept). */
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
): OutboxItem | null {
  const intent = String(form.get("intent") ?? route.intent ?? "");
  const fields = (QUEUED_INTENTS as readonly string[]).includes(intent) ? textFields(form) : null;
  const page = new URL(request.url).pathname;
  const call = fields && apiCallFor(intent, page, fields);
  if (!fields || !call) return null;
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
  };
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

import dns from "node:dns";
import net from "node:net";
import { and, desc, eq, getTableColumns, gt, inArray, isNull, ne, notInArray, or } from "drizzle-orm";
import { fetch, type Dispatcher } from "undici";
import webpush from "web-push";
import { pushSubscriptions, sessions, siteKeys } from "#db/schema";
import { pushSubscriptionSchema, type PushSubscriptionInput } from "~/schemas/push";
import { createGuardedAgent, isPublicAddress, type GuardOptions } from "~/utils/address-guard.server";
import { APP_NAME } from "~/utils/brand";
import { db, first, writeTransaction, type Tx } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { badRequest } from "~/utils/errors";
import { logger } from "~/utils/logger.server";
import { requireSignedIn } from "~/models/access.server";
import type { Actor } from "~/models/members/user.server";
import { upsertSettings } from "./notification-settings.server";

/**
 * Web push (CONTRACT.md §7 "Web push", issue 26).
 *
 * - The site's VAPID pair is made once and kept in `site_keys` (one row, so two processes racing to
 *   make it can never keep halves of two pairs: insert-or-ignore, then read back what won).
 * - A member's subscriptions are keyed by endpoint: subscribing again from the same browser moves it to
 *   whoever is signed in there now. A member keeps at most MAX_SUBSCRIPTIONS (newest win).
 * - A subscription belongs to the session it was made in (`session_id`, ON DELETE CASCADE): when that
 *   session ends (sign out, Settings › Security, a password change, expiry, suspension) the row goes
 *   with it, so the next person on a shared browser never gets the member's pushes. This is done by
 *   the database, not by the page's JavaScript, so it holds for a sign-out without JavaScript too.
 * - Endpoints are member-given addresses the server connects to, so they go through the link
 *   previews' public-address guard: https on a public address when subscribing (DNS checked) and
 *   again on every send (the guarded agent checks each connection; DNS can change). Only
 *   `PUSH_ALLOW_PRIVATE=1` (tests; refused in production) lets http and private addresses through.
 * - A push says no more than the site already shows the member: the notification's sentence, the
 *   path it opens and a tag. Encrypted with aes128gcm (RFC 8291), kept by the push service a day.
 * - A subscription the push service answers 404 or 410 for is gone for good and dropped; any other
 *   failure is logged and never thrown (the delivery worker goes on with the next member).
 * - The member's `push` setting (CONTRACT.md §7) means "push to the devices where I turned push on".
 *   Settings › Notifications has one control for it, on each device (ux-3 U17): turning a device on
 *   subscribes it and turns the setting on, in one transaction; turning the member's last device off
 *   turns the setting off. A device that goes with its session (sign out) leaves the setting as it is:
 *   with no device left nothing is pushed, and the next device turned on is pushed to at once.
 */

export const VAPID_KEY_NAME = "vapid";
export const MAX_SUBSCRIPTIONS = 20;
/** Seconds a push service keeps a push for a device that is offline. */
export const PUSH_TTL_SECONDS = 24 * 3600;
export const PUSH_TIMEOUT_MS = 10_000;
/** Push services accept about 4 KB; a notification's sentence is far shorter. */
const BODY_MAX = 240;

type VapidKeys = { publicKey: string; privateKey: string };

let vapid: VapidKeys | null = null;

/** The site's VAPID pair, made on first use and the same for every process afterwards. */
export async function vapidKeys(): Promise<VapidKeys> {
  if (vapid) return vapid;
  const read = async () => first(await db.select({ value: siteKeys.value }).from(siteKeys).where(eq(siteKeys.name, VAPID_KEY_NAME)));
  let row = await read();
  if (!row) {
    const made = webpush.generateVAPIDKeys();
    await db
      .insert(siteKeys)
      .values({ name: VAPID_KEY_NAME, value: JSON.stringify({ publicKey: made.publicKey, privateKey: made.privateKey }) })
      .onConflictDoNothing();
    row = await read();
  }
  if (!row) throw new Error("The VAPID keys could not be kept in site_keys");
  const parsed = JSON.parse(row.value) as VapidKeys;
  vapid = { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
  return vapid;
}

/** GET /api/push/key: the application server key the browser subscribes with. */
export async function pushPublicKey(): Promise<string> {
  return (await vapidKeys()).publicKey;
}

/** Tests: forget the key this process read (as a fresh process would). */
export function forgetVapidKeysForTests() {
  vapid = null;
}

// ---------------------------------------------------------------------------------------------
// The endpoint guard

function allowPrivate(): boolean {
  return env.PUSH_ALLOW_PRIVATE;
}

const ENDPOINT_REFUSED = "Push endpoints must be https addresses of a public push service";

/** The scheme and form of an endpoint (no DNS): the reason it is refused, or null. */
export function endpointFormProblem(endpoint: string, allowPrivateEndpoints = allowPrivate()): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "The push endpoint must be a web address";
  }
  const schemes = allowPrivateEndpoints ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol)) return ENDPOINT_REFUSED;
  if (url.username || url.password) return "The push endpoint must not carry a user name or password";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivateEndpoints && net.isIP(host) && !isPublicAddress(host)) return ENDPOINT_REFUSED;
  return null;
}

type Lookup = (hostname: string) => Promise<{ address: string }[]>;
const systemLookup: Lookup = (hostname) => dns.promises.lookup(hostname, { all: true });

/** Subscribe-time check: the form, and every address the name resolves to must be public. */
export async function assertPushEndpoint(endpoint: string, lookup: Lookup = systemLookup): Promise<void> {
  const problem = endpointFormProblem(endpoint);
  if (problem) throw badRequest(problem);
  if (allowPrivate()) return;
  const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host)) return;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host);
  } catch {
    throw badRequest("The push service's address could not be found");
  }
  if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address))) throw badRequest(ENDPOINT_REFUSED);
}

/**
 * The agent pushes are sent through: the link previews' guard, widened to private addresses only
 * under PUSH_ALLOW_PRIVATE. `extra` is for tests (a trusted CA for a local server, a DNS stub).
 */
export function createPushAgent(extra: Pick<GuardOptions, "ca" | "lookup"> = {}) {
  return createGuardedAgent({
    ...extra,
    isAllowedAddress: allowPrivate() ? () => true : isPublicAddress,
    connectTimeoutMs: PUSH_TIMEOUT_MS,
    responseTimeoutMs: PUSH_TIMEOUT_MS,
  });
}

let defaultAgent: Dispatcher | null = null;

// ---------------------------------------------------------------------------------------------
// Subscriptions

/**
 * POST /api/push/subscriptions: keep this browser's subscription for the member (moving it from whoever
 * had it), tied to `sessionId`, the session the request came with: ending that session drops it
 * (null ties it to no session: only for callers with no browser session, such as tests).
 */
export async function subscribe(
  actor: Actor,
  input: PushSubscriptionInput,
  sessionId: number | null,
  now = new Date(),
): Promise<{ endpoint: string }> {
  const me = requireSignedIn(actor, "Please sign in to turn on push notifications");
  const parsed = pushSubscriptionSchema.safeParse(input);
  if (!parsed.success) throw badRequest("The push subscription is not valid");
  const { endpoint, keys } = parsed.data;
  const point = Buffer.from(keys.p256dh, "base64url");
  if (point.length !== 65 || point[0] !== 4) throw badRequest("The p256dh key must be a P-256 public key in base64url");
  await assertPushEndpoint(endpoint);
  await writeTransaction(async (tx) => {
    await tx
      .insert(pushSubscriptions)
      .values({ userId: me.id, sessionId, endpoint, p256dh: keys.p256dh, auth: keys.auth, createdAt: now })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { userId: me.id, sessionId, p256dh: keys.p256dh, auth: keys.auth, createdAt: now },
      });
    // The newest MAX_SUBSCRIPTIONS stay: a member's old browsers are forgotten, not the one just added.
    const keep = await tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, me.id))
      .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id))
      .limit(MAX_SUBSCRIPTIONS);
    await tx.delete(pushSubscriptions).where(
      and(
        eq(pushSubscriptions.userId, me.id),
        notInArray(
          pushSubscriptions.id,
          keep.map((k) => k.id),
        ),
      ),
    );
    // Turning a device on is asking for push: the member's setting goes on with it (ux-3 U17).
    await upsertSettings(tx, me.id, { push: true });
  });
  return { endpoint };
}

/**
 * DELETE /api/push/subscriptions: forget one of the member's own subscriptions (idempotent; another's
 * is left alone). When none of theirs is left, their push setting goes off (ux-3 U17).
 */
export async function unsubscribe(actor: Actor, endpoint: string): Promise<void> {
  const me = requireSignedIn(actor, "Please sign in to turn off push notifications");
  await writeTransaction(async (tx) => {
    await tx.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, me.id), eq(pushSubscriptions.endpoint, endpoint.trim())));
    await pushOffWhenNoDeviceLeft(tx, me.id);
  });
}

/**
 * Settings › Notifications without this device (JavaScript off, or a lost phone): forget every one of
 * the member's subscriptions but those made in `sessionId` (this browser's session), and turn their push
 * setting off when none is left. Returns how many went.
 */
export async function unsubscribeElsewhere(actor: Actor, sessionId: number | null): Promise<number> {
  const me = requireSignedIn(actor, "Please sign in to turn off push notifications");
  return writeTransaction(async (tx) => {
    const others = and(
      eq(pushSubscriptions.userId, me.id),
      sessionId === null ? undefined : or(isNull(pushSubscriptions.sessionId), ne(pushSubscriptions.sessionId, sessionId)),
    );
    const gone = await tx.delete(pushSubscriptions).where(others).returning({ id: pushSubscriptions.id });
    await pushOffWhenNoDeviceLeft(tx, me.id);
    return gone.length;
  });
}

async function pushOffWhenNoDeviceLeft(tx: Tx, userId: number) {
  const left = first(
    await tx.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).limit(1),
  );
  if (!left) await upsertSettings(tx, userId, { push: false });
}

/** A live subscription: its session has not ended or expired (one with no session: made outside a browser session). */
const live = () => or(isNull(pushSubscriptions.sessionId), gt(sessions.expiresAt, new Date()));

/**
 * Settings › Notifications: whether this browser's session has a subscription kept (`here`: the page
 * then trusts the browser's own subscription to be this member's), and how many other live devices
 * are pushed to (`elsewhere`).
 */
export async function pushDevicesOf(userId: number, sessionId: number | null): Promise<{ here: boolean; elsewhere: number }> {
  const rows = await db
    .select({ sessionId: pushSubscriptions.sessionId })
    .from(pushSubscriptions)
    .leftJoin(sessions, eq(sessions.id, pushSubscriptions.sessionId))
    .where(and(eq(pushSubscriptions.userId, userId), live()));
  const here = sessionId !== null && rows.some((r) => r.sessionId === sessionId);
  return { here, elsewhere: rows.filter((r) => sessionId === null || r.sessionId !== sessionId).length };
}

/** The member's subscriptions (the settings page's count, tests). */
export async function subscriptionsOf(userId: number) {
  return db
    .select({
      id: pushSubscriptions.id,
      endpoint: pushSubscriptions.endpoint,
      sessionId: pushSubscriptions.sessionId,
      createdAt: pushSubscriptions.createdAt,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(desc(pushSubscriptions.createdAt));
}

// ---------------------------------------------------------------------------------------------
// Sending

/** What a push needs of a notification (NotificationItem has these and more, which stays home). */
export type PushItem = { id: number; text: string; href: string };

/** What the service worker gets (app/sw/push.ts reads the same names). */
export type PushPayload = { title: string; body: string; url: string; tag: string };

const sitePath = (href: string) => (href.startsWith("/") && !href.startsWith("//") ? href : "/notifications");
const short = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > BODY_MAX ? `${flat.slice(0, BODY_MAX - 1)}…` : flat;
};

/** One push for what is owed: the notification itself when there is one, else one summary. */
export function pushPayload(items: PushItem[]): PushPayload | null {
  if (items.length === 0) return null;
  if (items.length === 1) {
    const item = items[0]!;
    return { title: APP_NAME, body: short(item.text), url: sitePath(item.href), tag: `notification-${item.id}` };
  }
  const newest = items.reduce((a, b) => (b.id > a.id ? b : a));
  return {
    title: APP_NAME,
    body: short(`${items.length} new notifications. ${newest.text}`),
    url: "/notifications",
    tag: "notifications",
  };
}

function vapidSubject(): string {
  if (env.PUBLIC_URL?.startsWith("https:")) return env.PUBLIC_URL;
  const mail = env.MAIL_FROM?.match(/[^\s<>@]+@[^\s<>@]+/)?.[0];
  return mail ? `mailto:${mail}` : "mailto:operator@whitetail-pulse.invalid";
}

export type PushSendOptions = { dispatcher?: Dispatcher; timeoutMs?: number };
export type PushOutcome = { sent: number; dropped: number; failed: number };

/**
 * Sends the member one push about `items` on each of their subscriptions (the delivery worker calls
 * it when their push setting is on). Never throws for a push service's answer or a network failure.
 */
export async function pushToMember(userId: number, items: PushItem[], options: PushSendOptions = {}): Promise<PushOutcome> {
  const outcome: PushOutcome = { sent: 0, dropped: 0, failed: 0 };
  const payload = pushPayload(items);
  if (!payload) return outcome;
  // Only subscriptions whose session is live: an expired session reads as signed out before it is swept.
  const subscriptions = await db
    .select(getTableColumns(pushSubscriptions))
    .from(pushSubscriptions)
    .leftJoin(sessions, eq(sessions.id, pushSubscriptions.sessionId))
    .where(and(eq(pushSubscriptions.userId, userId), live()));
  if (subscriptions.length === 0) return outcome;
  const keys = await vapidKeys();
  const dispatcher = options.dispatcher ?? (defaultAgent ??= createPushAgent());
  const gone: number[] = [];
  await Promise.all(
    subscriptions.map(async (subscription) => {
      const problem = endpointFormProblem(subscription.endpoint);
      if (problem) {
        outcome.failed += 1;
        logger.warn({ subscriptionId: subscription.id, problem }, "push endpoint refused");
        return;
      }
      try {
        const details = webpush.generateRequestDetails(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          JSON.stringify(payload),
          {
            vapidDetails: { subject: vapidSubject(), publicKey: keys.publicKey, privateKey: keys.privateKey },
            TTL: PUSH_TTL_SECONDS,
            contentEncoding: "aes128gcm",
            urgency: "normal",
          },
        );
        const headers = Object.fromEntries(Object.entries(details.headers).map(([k, v]) => [k, String(v)]));
        const response = await fetch(details.endpoint, {
          method: "POST",
          headers,
          body: details.body,
          dispatcher,
          redirect: "manual",
          signal: AbortSignal.timeout(options.timeoutMs ?? PUSH_TIMEOUT_MS),
        });
        await response.body?.cancel().catch(() => undefined);
        if (response.status === 404 || response.status === 410) {
          gone.push(subscription.id);
        } else if (response.status >= 200 && response.status < 300) {
          outcome.sent += 1;
        } else {
          outcome.failed += 1;
          logger.warn({ subscriptionId: subscription.id, status: response.status }, "push service refused a push");
        }
      } catch (error) {
        outcome.failed += 1;
        const e = error as Error & { cause?: Error };
        logger.warn({ subscriptionId: subscription.id, err: e.cause?.message ?? e.message }, "push could not be sent");
      }
    }),
  );
  if (gone.length > 0) {
    await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, gone));
    outcome.dropped = gone.length;
  }
  return outcome;
}

import { eq } from "drizzle-orm";
import { statusOf } from "#tests/fixtures/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pushSubscriptions, siteKeys } from "#db/schema";
import { createMember } from "#tests/fixtures/members";
import { browserKeys, startPushService } from "#tests/fixtures/push-service";
import { createGuardedAgent, isPublicAddress, type LookupFunction } from "~/utils/address-guard.server";
import { db } from "~/utils/db.server";
import {
  assertPushEndpoint,
  createPushAgent,
  forgetVapidKeysForTests,
  MAX_SUBSCRIPTIONS,
  pushPayload,
  pushPublicKey,
  pushDevicesOf,
  pushToMember,
  subscribe,
  subscriptionsOf,
  unsubscribe,
  unsubscribeElsewhere,
  vapidKeys,
} from "./push.server";
import { notificationSettingsOf, updateNotificationSettings } from "./notification-settings.server";
import { createSession, SESSION_LIFETIME_MS } from "~/models/members/session.server";

/** Push subscriptions and sending (CONTRACT.md §7 "Web push"), with the SSRF guard on (no PUSH_ALLOW_PRIVATE). */

async function messageOf(fn: () => unknown): Promise<string> {
  try {
    await fn();
  } catch (error) {
    return (error as Error).message;
  }
  return "";
}

const endpointRow = async (endpoint: string) =>
  (await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)))[0];

let n = 0;
/** A public address as an IP literal, so the tests need no DNS (a name's answers are checked with a stub below). */
const publicEndpoint = () => `https://142.250.74.10/fcm/send/test-${Date.now()}-${++n}`;

/** Only for these tests: the loopback address the local push service listens on. */
const allowTestServer = (address: string) => address === "127.0.0.1" || isPublicAddress(address);
const resolvesTo =
  (address: string): LookupFunction =>
  (_hostname, _options, callback) =>
    callback(null, [{ address, family: 4 }]);

describe("VAPID keys", () => {
  it("are made once, kept in site_keys and read back by a fresh process", async () => {
    forgetVapidKeysForTests();
    // Two callers racing with no key yet: each makes a pair, one is kept, both answer with it.
    const [a, b] = await Promise.all([vapidKeys(), vapidKeys()]);
    expect(a).toEqual(b);
    forgetVapidKeysForTests();
    expect(await vapidKeys()).toEqual(a);
    expect(await pushPublicKey()).toBe(a.publicKey);
    expect(Buffer.from(a.publicKey, "base64url")).toHaveLength(65);
    const rows = await db.select().from(siteKeys).where(eq(siteKeys.name, "vapid"));
    expect(rows).toHaveLength(1);
  });

  it("a pair another process kept first wins over this one's", async () => {
    await db.delete(siteKeys).where(eq(siteKeys.name, "vapid"));
    const theirs = { publicKey: "their-public", privateKey: "their-private" };
    await db.insert(siteKeys).values({ name: "vapid", value: JSON.stringify(theirs) });
    forgetVapidKeysForTests();
    expect(await vapidKeys()).toEqual(theirs);
    await db.delete(siteKeys).where(eq(siteKeys.name, "vapid"));
    forgetVapidKeysForTests();
  });
});

describe("subscribe / unsubscribe", () => {
  it("refuses anonymous callers (401) and changes nothing", async () => {
    const endpoint = publicEndpoint();
    expect(await statusOf(() => subscribe(null, { endpoint, keys: browserKeys().keys }, null))).toBe(401);
    expect(await statusOf(() => unsubscribe(null, endpoint))).toBe(401);
    expect(await endpointRow(endpoint)).toBeUndefined();
  });

  it("keeps the owner's subscription, which another member cannot remove; the owner can", async () => {
    const owner = await createMember();
    const other = await createMember();
    const endpoint = publicEndpoint();
    await subscribe({ id: owner.id }, { endpoint, keys: browserKeys().keys }, null);
    expect((await endpointRow(endpoint))?.userId).toBe(owner.id);

    await unsubscribe({ id: other.id }, endpoint);
    expect((await endpointRow(endpoint))?.userId).toBe(owner.id);

    await unsubscribe({ id: owner.id }, endpoint);
    expect(await endpointRow(endpoint)).toBeUndefined();
    // Idempotent.
    await unsubscribe({ id: owner.id }, endpoint);
  });

  it("subscribing the same endpoint again moves it to the member signed in now, with the new keys", async () => {
    const first = await createMember();
    const second = await createMember();
    const endpoint = publicEndpoint();
    await subscribe({ id: first.id }, { endpoint, keys: browserKeys().keys }, null);
    const keys = browserKeys().keys;
    await subscribe({ id: second.id }, { endpoint, keys }, null);
    const rows = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: second.id, p256dh: keys.p256dh, auth: keys.auth });
    expect(await subscriptionsOf(first.id)).toHaveLength(0);
  });

  it("turning a device on turns the member's push on; turning their last device off turns it off, not before (ux-3 U17)", async () => {
    const member = await createMember();
    expect((await notificationSettingsOf(member.id)).push).toBe(false);
    const phone = publicEndpoint();
    const laptop = publicEndpoint();
    await subscribe({ id: member.id }, { endpoint: phone, keys: browserKeys().keys }, null);
    expect((await notificationSettingsOf(member.id)).push).toBe(true);
    await subscribe({ id: member.id }, { endpoint: laptop, keys: browserKeys().keys }, null);

    await unsubscribe({ id: member.id }, phone);
    expect((await notificationSettingsOf(member.id)).push).toBe(true);
    await unsubscribe({ id: member.id }, laptop);
    expect((await notificationSettingsOf(member.id)).push).toBe(false);

    // Paused through the API, a device turned on again turns it on again.
    await subscribe({ id: member.id }, { endpoint: phone, keys: browserKeys().keys }, null);
    await updateNotificationSettings({ id: member.id }, { push: false });
    await subscribe({ id: member.id }, { endpoint: phone, keys: browserKeys().keys }, null);
    expect((await notificationSettingsOf(member.id)).push).toBe(true);
    // Another member's endpoint changes nothing of theirs.
    const other = await createMember();
    await unsubscribe({ id: other.id }, phone);
    expect((await notificationSettingsOf(other.id)).push).toBe(false);
    expect((await notificationSettingsOf(member.id)).push).toBe(true);
  });

  it("tells the settings page of this session's device and the others; the others can be turned off from here", async () => {
    const member = await createMember();
    const here = await createSession(member.id, "Phone");
    const laptop = await createSession(member.id, "Laptop");
    const tablet = await createSession(member.id, "Tablet");
    const expired = await createSession(member.id, "Old phone", Date.now() - SESSION_LIFETIME_MS - 60_000);
    expect(await pushDevicesOf(member.id, here.id)).toEqual({ here: false, elsewhere: 0 });
    await subscribe({ id: member.id }, { endpoint: publicEndpoint(), keys: browserKeys().keys }, laptop.id);
    await subscribe({ id: member.id }, { endpoint: publicEndpoint(), keys: browserKeys().keys }, tablet.id);
    await subscribe({ id: member.id }, { endpoint: publicEndpoint(), keys: browserKeys().keys }, expired.id);
    expect(await pushDevicesOf(member.id, here.id)).toEqual({ here: false, elsewhere: 2 });
    const mine = publicEndpoint();
    await subscribe({ id: member.id }, { endpoint: mine, keys: browserKeys().keys }, here.id);
    expect(await pushDevicesOf(member.id, here.id)).toEqual({ here: true, elsewhere: 2 });

    // Another member's call takes nothing of theirs.
    const other = await createMember();
    expect(await unsubscribeElsewhere({ id: other.id }, null)).toBe(0);
    expect(await statusOf(() => unsubscribeElsewhere(null, here.id))).toBe(401);

    expect(await unsubscribeElsewhere({ id: member.id }, here.id)).toBe(3);
    expect((await subscriptionsOf(member.id)).map((s) => s.endpoint)).toEqual([mine]);
    expect(await pushDevicesOf(member.id, here.id)).toEqual({ here: true, elsewhere: 0 });
    expect((await notificationSettingsOf(member.id)).push).toBe(true);

    // From a browser with no device of its own (JavaScript off), push goes off with the last one.
    await subscribe({ id: member.id }, { endpoint: publicEndpoint(), keys: browserKeys().keys }, laptop.id);
    expect(await unsubscribeElsewhere({ id: member.id }, tablet.id)).toBe(2);
    expect(await subscriptionsOf(member.id)).toEqual([]);
    expect((await notificationSettingsOf(member.id)).push).toBe(false);
  });

  it(`keeps a member's newest ${MAX_SUBSCRIPTIONS} subscriptions`, async () => {
    const member = await createMember();
    const start = Date.now() - 3_600_000;
    const endpoints: string[] = [];
    for (let i = 0; i < MAX_SUBSCRIPTIONS + 2; i++) {
      const endpoint = publicEndpoint();
      endpoints.push(endpoint);
      await subscribe({ id: member.id }, { endpoint, keys: browserKeys().keys }, null, new Date(start + i * 1000));
    }
    const kept = (await subscriptionsOf(member.id)).map((s) => s.endpoint);
    expect(kept).toHaveLength(MAX_SUBSCRIPTIONS);
    expect(kept).not.toContain(endpoints[0]);
    expect(kept).not.toContain(endpoints[1]);
    expect(kept).toContain(endpoints.at(-1));
  });

  it("refuses keys that are not a P-256 point and a 16-byte secret (400)", async () => {
    const member = await createMember();
    const { keys } = browserKeys();
    const endpoint = publicEndpoint();
    expect(await statusOf(() => subscribe({ id: member.id }, { endpoint, keys: { ...keys, auth: "short" } }, null))).toBe(400);
    const notAPoint = Buffer.alloc(65, 7).toString("base64url");
    expect(await statusOf(() => subscribe({ id: member.id }, { endpoint, keys: { ...keys, p256dh: notAPoint } }, null))).toBe(400);
    expect(await endpointRow(endpoint)).toBeUndefined();
  });
});

describe("the endpoint guard at subscribe time", () => {
  const refused = [
    "http://fcm.googleapis.com/fcm/send/x", // not https
    "https://127.0.0.1/push",
    "https://10.0.0.8/push",
    "https://192.168.1.1/push",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]/push",
    "https://[::ffff:127.0.0.1]/push",
    "https://localhost/push", // resolves to loopback
    "https://user:pass@fcm.googleapis.com/x",
    "ftp://fcm.googleapis.com/x",
  ];
  it.each(refused)("refuses %s with a clear 400 and keeps nothing", async (endpoint) => {
    const member = await createMember();
    const error = await statusOf(() => subscribe({ id: member.id }, { endpoint, keys: browserKeys().keys }, null));
    expect(error).toBe(400);
    expect(await endpointRow(endpoint)).toBeUndefined();
  });

  it("says why", async () => {
    const member = await createMember();
    expect(await messageOf(() => subscribe({ id: member.id }, { endpoint: "https://127.0.0.1/x", keys: browserKeys().keys }, null))).toBe(
      "Push endpoints must be https addresses of a public push service",
    );
  });

  it("refuses a public-looking name whose DNS answer is private", async () => {
    const lookup = async () => [{ address: "10.1.2.3" }];
    expect(await statusOf(() => assertPushEndpoint("https://push.example.com/x", lookup))).toBe(400);
    const mixed = async () => [{ address: "8.8.8.8" }, { address: "127.0.0.1" }];
    expect(await statusOf(() => assertPushEndpoint("https://push.example.com/x", mixed))).toBe(400);
    const fine = async () => [{ address: "8.8.8.8" }];
    expect(await statusOf(() => assertPushEndpoint("https://push.example.com/x", fine))).toBeUndefined();
  });
});

describe("pushToMember", () => {
  let service: Awaited<ReturnType<typeof startPushService>>;
  beforeAll(async () => {
    service = await startPushService(["push.test"]);
  });
  afterAll(async () => {
    await service.close();
  });

  /** Puts a subscription in as if it had passed the guard when made (DNS can change afterwards). */
  async function storedSubscription(userId: number, endpoint: string, sessionId: number | null = null) {
    const { keys } = browserKeys();
    await db.insert(pushSubscriptions).values({ userId, endpoint, p256dh: keys.p256dh, auth: keys.auth, sessionId });
  }

  it("pushes only to subscriptions whose session is live: an expired one not yet swept gets nothing (issue 26)", async () => {
    const member = await createMember();
    const dispatcher = createGuardedAgent({ ca: service.ca, lookup: resolvesTo("127.0.0.1"), isAllowedAddress: allowTestServer });
    const live = await createSession(member.id, "Laptop");
    const expired = await createSession(member.id, "Shared phone", Date.now() - SESSION_LIFETIME_MS - 60_000);
    await storedSubscription(member.id, `https://push.test:${service.port}/send/live`, live.id);
    await storedSubscription(member.id, `https://push.test:${service.port}/send/expired`, expired.id);
    const before = service.received.length;
    const outcome = await pushToMember(member.id, [{ id: 5, text: "Alex followed you", href: "/profile/alex" }], { dispatcher });
    expect(outcome).toEqual({ sent: 1, dropped: 0, failed: 0 });
    expect(service.received.slice(before).map((r) => r.path)).toEqual(["/send/live"]);
  });

  it("refuses at send time a name that now resolves to a private address, and says so in the log only", async () => {
    const member = await createMember();
    await storedSubscription(member.id, `https://push.test:${service.port}/send/a`);
    const before = service.received.length;
    // The certificate is trusted, so only the address guard can stop it.
    const dispatcher = createPushAgent({ ca: service.ca, lookup: resolvesTo("127.0.0.1") });
    const outcome = await pushToMember(member.id, [{ id: 1, text: "Alex followed you", href: "/profile/alex" }], { dispatcher });
    expect(outcome).toEqual({ sent: 0, dropped: 0, failed: 1 });
    expect(service.received.length).toBe(before);
    expect(await subscriptionsOf(member.id)).toHaveLength(1);
  });

  it("refuses at send time an IP literal endpoint that is not public", async () => {
    const member = await createMember();
    await storedSubscription(member.id, `https://127.0.0.1:${service.port}/send/b`);
    const before = service.received.length;
    const outcome = await pushToMember(member.id, [{ id: 1, text: "x", href: "/" }], {
      dispatcher: createGuardedAgent({ ca: service.ca, isAllowedAddress: allowTestServer }),
    });
    expect(outcome.failed).toBe(1);
    expect(service.received.length).toBe(before);
  });

  for (const status of [404, 410]) {
    it(`drops a subscription the push service answers ${status} for, and keeps the member's others`, async () => {
      const member = await createMember();
      const dispatcher = createGuardedAgent({ ca: service.ca, lookup: resolvesTo("127.0.0.1"), isAllowedAddress: allowTestServer });
      await storedSubscription(member.id, `https://push.test:${service.port}/send/gone-${status}`);
      service.answer(status);
      const outcome = await pushToMember(member.id, [{ id: 2, text: "Sam liked your post", href: "/post/2" }], { dispatcher });
      service.answer(201);
      expect(outcome).toEqual({ sent: 0, dropped: 1, failed: 0 });
      expect(await subscriptionsOf(member.id)).toHaveLength(0);
    });
  }

  it("keeps a subscription on other failures (500) and does not throw", async () => {
    const member = await createMember();
    const dispatcher = createGuardedAgent({ ca: service.ca, lookup: resolvesTo("127.0.0.1"), isAllowedAddress: allowTestServer });
    await storedSubscription(member.id, `https://push.test:${service.port}/send/busy`);
    service.answer(500);
    const outcome = await pushToMember(member.id, [{ id: 3, text: "x", href: "/" }], { dispatcher });
    service.answer(201);
    expect(outcome).toEqual({ sent: 0, dropped: 0, failed: 1 });
    expect(await subscriptionsOf(member.id)).toHaveLength(1);
  });

  it("sends nothing for nothing owed or a member without subscriptions", async () => {
    const member = await createMember();
    expect(await pushToMember(member.id, [{ id: 4, text: "x", href: "/" }])).toEqual({ sent: 0, dropped: 0, failed: 0 });
    expect(await pushToMember(member.id, [])).toEqual({ sent: 0, dropped: 0, failed: 0 });
  });
});

describe("pushPayload", () => {
  it("is the notification's sentence and path for one, a summary for several, and only site paths", () => {
    expect(pushPayload([{ id: 7, text: "Alex commented on your post “Rut”", href: "/post/3#comment-9" }])).toEqual({
      title: "Whitetail Pulse",
      body: "Alex commented on your post “Rut”",
      url: "/post/3#comment-9",
      tag: "notification-7",
    });
    expect(
      pushPayload([
        { id: 7, text: "a", href: "/post/3" },
        { id: 9, text: "Sam followed you", href: "/profile/sam" },
      ]),
    ).toEqual({ title: "Whitetail Pulse", body: "2 new notifications. Sam followed you", url: "/notifications", tag: "notifications" });
    expect(pushPayload([{ id: 1, text: "x", href: "https://evil.example/" }])?.url).toBe("/notifications");
    expect(pushPayload([{ id: 1, text: "x", href: "//evil.example/" }])?.url).toBe("/notifications");
    expect(pushPayload([{ id: 1, text: "y".repeat(1000), href: "/" }])?.body.length).toBeLessThanOrEqual(240);
    expect(pushPayload([])).toBeNull();
  });
});

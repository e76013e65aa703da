import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { browserKeys, decryptPush, startPushService, verifyVapid } from "#tests/fixtures/push-service";
import { createPushAgent, PUSH_TTL_SECONDS, pushPublicKey, pushToMember, subscriptionsOf } from "~/models/notifications/push.server";
import * as subscriptionsRoute from "~/routes/api.push.subscriptions";
import { call, createMember, makeRequest } from "../fixtures/members";

/**
 * Web push end to end (issue 26, CONTRACT.md §7): a member subscribes through the API with keys made
 * as a browser makes them, pushToMember sends to a local HTTPS push service (self-signed certificate,
 * trusted only by the push agent of this test), which decrypts the aes128gcm body with the browser's
 * keys and verifies the VAPID signature and TTL; then it answers 410 and the subscription is gone.
 * PUSH_ALLOW_PRIVATE=1 (set before the app's env is read) lets the guard reach 127.0.0.1.
 */
vi.hoisted(() => {
  process.env.PUSH_ALLOW_PRIVATE = "1";
});

let service: Awaited<ReturnType<typeof startPushService>>;
beforeAll(async () => {
  service = await startPushService();
});
afterAll(async () => {
  await service.close();
});

describe("web push against a local HTTPS push service", () => {
  it("delivers an encrypted, VAPID-signed push the browser can read, then drops the subscription on 410", async () => {
    const member = await createMember();
    const bystander = await createMember();
    const browser = browserKeys();
    const endpoint = `https://localhost:${service.port}/push/v1/${member.id}-abc`;
    const subscribed = await call(
      subscriptionsRoute.action,
      makeRequest("/api/push/subscriptions", { json: { endpoint, keys: browser.keys }, cookie: member.cookie }),
    );
    expect(subscribed.status).toBe(201);
    const bystanderBrowser = browserKeys();
    const bystanderEndpoint = `https://localhost:${service.port}/push/v1/${bystander.id}-xyz`;
    await call(
      subscriptionsRoute.action,
      makeRequest("/api/push/subscriptions", {
        json: { endpoint: bystanderEndpoint, keys: bystanderBrowser.keys },
        cookie: bystander.cookie,
      }),
    );

    const dispatcher = createPushAgent({ ca: service.ca });
    const item = { id: 41, text: "Alex commented on your post “Opening morning”", href: "/post/12#comment-41" };
    const outcome = await pushToMember(member.id, [item], { dispatcher });
    expect(outcome).toEqual({ sent: 1, dropped: 0, failed: 0 });

    // Only the member's own subscription heard it.
    expect(service.received).toHaveLength(1);
    const push = service.received[0]!;
    expect(push.path).toBe(`/push/v1/${member.id}-abc`);
    expect(push.headers["content-encoding"]).toBe("aes128gcm");
    expect(push.headers["content-type"]).toBe("application/octet-stream");
    expect(push.headers.ttl).toBe(String(PUSH_TTL_SECONDS));
    expect(push.headers.urgency).toBe("normal");
    const claims = verifyVapid(push.headers.authorization as string, await pushPublicKey(), `https://localhost:${service.port}`);
    expect(claims.sub).toMatch(/^(mailto:|https:)/);

    const payload = JSON.parse(decryptPush(push.body, browser.ecdh, browser.authSecret));
    expect(payload).toEqual({ title: "Whitetail Pulse", body: item.text, url: item.href, tag: "notification-41" });
    // Someone else's keys cannot read it.
    expect(() => decryptPush(push.body, bystanderBrowser.ecdh, bystanderBrowser.authSecret)).toThrow();

    // The push service says this subscription is gone: it is dropped, the bystander's stays.
    service.answer(410);
    expect(await pushToMember(member.id, [item], { dispatcher })).toEqual({ sent: 0, dropped: 1, failed: 0 });
    expect(await subscriptionsOf(member.id)).toHaveLength(0);
    expect(await subscriptionsOf(bystander.id)).toHaveLength(1);
    service.answer(201);
  });

  it("several owed notifications make one summary push", async () => {
    const member = await createMember();
    const browser = browserKeys();
    const endpoint = `https://localhost:${service.port}/push/v1/${member.id}-summary`;
    await call(
      subscriptionsRoute.action,
      makeRequest("/api/push/subscriptions", { json: { endpoint, keys: browser.keys }, cookie: member.cookie }),
    );
    const before = service.received.length;
    const items = [
      { id: 50, text: "Sam followed you", href: "/profile/sam" },
      { id: 51, text: "Jo liked your post “Scrapes”", href: "/post/7" },
    ];
    expect(await pushToMember(member.id, items, { dispatcher: createPushAgent({ ca: service.ca }) })).toMatchObject({ sent: 1 });
    expect(service.received).toHaveLength(before + 1);
    const payload = JSON.parse(decryptPush(service.received.at(-1)!.body, browser.ecdh, browser.authSecret));
    expect(payload).toEqual({
      title: "Whitetail Pulse",
      body: "2 new notifications. Jo liked your post “Scrapes”",
      url: "/notifications",
      tag: "notifications",
    });
  });

  it("without the test's certificate the push fails (logged, not thrown) and the subscription stays", async () => {
    const member = await createMember();
    const endpoint = `https://localhost:${service.port}/push/v1/${member.id}-untrusted`;
    await call(
      subscriptionsRoute.action,
      makeRequest("/api/push/subscriptions", { json: { endpoint, keys: browserKeys().keys }, cookie: member.cookie }),
    );
    const before = service.received.length;
    expect(await pushToMember(member.id, [{ id: 60, text: "x", href: "/" }])).toEqual({ sent: 0, dropped: 0, failed: 1 });
    expect(service.received).toHaveLength(before);
    expect(await subscriptionsOf(member.id)).toHaveLength(1);
  });
});

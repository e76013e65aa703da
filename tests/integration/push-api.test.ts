import { describe, expect, it } from "vitest";
import { browserKeys } from "#tests/fixtures/push-service";
import { subscriptionsOf } from "~/models/notifications/push.server";
import * as keyRoute from "~/routes/api.push.key";
import * as subscriptionsRoute from "~/routes/api.push.subscriptions";
import { call, createMember, makeRequest } from "../fixtures/members";

/** /api/push/* (CONTRACT.md §7 "Web push"), with the public-address guard on (no PUSH_ALLOW_PRIVATE). */

type Member = Awaited<ReturnType<typeof createMember>>;

const post = (who: Member | null, json: unknown) =>
  call(subscriptionsRoute.action, makeRequest("/api/push/subscriptions", { json, cookie: who?.cookie }));
const del = (who: Member | null, json: unknown) =>
  call(subscriptionsRoute.action, makeRequest("/api/push/subscriptions", { method: "DELETE", json, cookie: who?.cookie }));

let n = 0;
const endpoint = () => `https://142.250.74.10/fcm/send/api-${Date.now()}-${++n}`;

describe("GET /api/push/key", () => {
  it("answers the same base64url VAPID public key to anyone", async () => {
    const first = await call(keyRoute.loader, makeRequest("/api/push/key"));
    expect(first.status).toBe(200);
    const { publicKey } = (await first.json()) as { publicKey: string };
    expect(Buffer.from(publicKey, "base64url")).toHaveLength(65);
    const member = await createMember();
    const again = await call(keyRoute.loader, makeRequest("/api/push/key", { cookie: member.cookie }));
    expect(await again.json()).toEqual({ publicKey });
  });
});

describe("POST / DELETE /api/push/subscriptions", () => {
  it("201 for the member, 401 signed out, 400 for a bad body or a private endpoint; refusals keep nothing", async () => {
    const member = await createMember();
    const body = { endpoint: endpoint(), keys: browserKeys().keys };

    expect((await post(null, body)).status).toBe(401);
    const missingKeys = await post(member, { endpoint: endpoint() });
    expect(missingKeys.status).toBe(400);
    expect((await missingKeys.json()).fieldErrors).toBeDefined();
    expect((await post(member, { ...body, keys: { p256dh: "x", auth: "y" } })).status).toBe(400);
    expect((await post(member, { ...body, endpoint: "not a url" })).status).toBe(400);
    const loopback = await post(member, { ...body, endpoint: "https://127.0.0.1/push" });
    expect(loopback.status).toBe(400);
    expect(await loopback.json()).toEqual({ error: "Push endpoints must be https addresses of a public push service" });
    expect((await post(member, { ...body, endpoint: "http://142.250.74.10/push" })).status).toBe(400);
    expect(await subscriptionsOf(member.id)).toHaveLength(0);

    const created = await post(member, body);
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ endpoint: body.endpoint });
    expect((await subscriptionsOf(member.id)).map((s) => s.endpoint)).toEqual([body.endpoint]);
  });

  it("DELETE: 204 and gone for the owner; another member's DELETE leaves it; 401 signed out; 400 without an endpoint", async () => {
    const owner = await createMember();
    const other = await createMember();
    const body = { endpoint: endpoint(), keys: browserKeys().keys };
    expect((await post(owner, body)).status).toBe(201);

    expect((await del(null, { endpoint: body.endpoint })).status).toBe(401);
    expect((await del(owner, {})).status).toBe(400);
    expect((await del(other, { endpoint: body.endpoint })).status).toBe(204);
    expect(await subscriptionsOf(owner.id)).toHaveLength(1);

    expect((await del(owner, { endpoint: body.endpoint })).status).toBe(204);
    expect(await subscriptionsOf(owner.id)).toHaveLength(0);
  });

  it("refuses a cross-site request (403) and GET (405)", async () => {
    const member = await createMember();
    const body = { endpoint: endpoint(), keys: browserKeys().keys };
    const crossSite = makeRequest("/api/push/subscriptions", {
      json: body,
      cookie: member.cookie,
      headers: { Origin: "https://evil.example" },
    });
    expect((await call(subscriptionsRoute.action, crossSite)).status).toBe(403);
    expect((await call(subscriptionsRoute.loader, makeRequest("/api/push/subscriptions"))).status).toBe(405);
    expect(await subscriptionsOf(member.id)).toHaveLength(0);
  });
});

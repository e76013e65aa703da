import { describe, expect, it } from "vitest";
import { browserKeys } from "#tests/fixtures/push-service";
import { subscriptionsOf } from "~/models/notifications/push.server";
import * as subscriptionsRoute from "~/routes/api.push.subscriptions";
import { action as logoutApi } from "~/routes/api.auth.logout";
import { action as logoutPage } from "~/routes/logout/route";
import * as settingsPage from "~/routes/settings/route";
import { commitUserSession } from "~/web/session.server";
import { call, createMember, makeRequest } from "../fixtures/members";

/**
 * Signing out ends this browser's push for the member (issue 26, CONTRACT.md §7 "Web push"): a
 * subscription belongs to the session it was made in, so on a shared phone the next person does not
 * keep getting the previous member's pushes. Ending a session any other way (Settings › Security,
 * "sign out of all other devices") drops that browser's subscription too; other sessions' stay.
 */

let n = 0;
const endpoint = () => `https://142.250.74.10/fcm/send/sign-out-${Date.now()}-${++n}`;

/** A second sign-in of the member (another browser): its own session cookie. */
const anotherSession = async (member: { id: number }) => (await commitUserSession(member)).split(";")[0]!;

async function subscribeWith(cookie: string) {
  const body = { endpoint: endpoint(), keys: browserKeys().keys };
  const res = await call(subscriptionsRoute.action, makeRequest("/api/push/subscriptions", { json: body, cookie }));
  expect(res.status).toBe(201);
  return body.endpoint;
}

const endpointsOf = async (userId: number) => (await subscriptionsOf(userId)).map((s) => s.endpoint).sort();

describe("signing out ends this browser's push subscription", () => {
  it("POST /logout (the form, no JavaScript needed): this session's subscription goes, another session's stays", async () => {
    const member = await createMember();
    const phone = member.cookie;
    const laptop = await anotherSession(member);
    const onPhone = await subscribeWith(phone);
    const onLaptop = await subscribeWith(laptop);
    expect(await endpointsOf(member.id)).toEqual([onPhone, onLaptop].sort());

    const res = await call(logoutPage, makeRequest("/logout", { form: {}, cookie: phone }));
    expect(res.status).toBe(302);
    expect(await endpointsOf(member.id)).toEqual([onLaptop]);
  });

  it("POST /api/auth/logout: the same", async () => {
    const member = await createMember();
    const laptop = await anotherSession(member);
    const onPhone = await subscribeWith(member.cookie);
    const onLaptop = await subscribeWith(laptop);
    expect(await endpointsOf(member.id)).toEqual([onPhone, onLaptop].sort());

    expect((await call(logoutApi, makeRequest("/api/auth/logout", { method: "POST", cookie: laptop }))).status).toBeLessThan(300);
    expect(await endpointsOf(member.id)).toEqual([onPhone]);
  });

  it("the next member signing in on the shared browser gets it, and their sign-out drops it", async () => {
    const first = await createMember();
    const second = await createMember();
    const shared = await subscribeWith(first.cookie);
    await call(logoutPage, makeRequest("/logout", { form: {}, cookie: first.cookie }));
    expect(await endpointsOf(first.id)).toEqual([]);

    // The browser keeps its push subscription (same endpoint); the second member turns push on there.
    const body = { endpoint: shared, keys: browserKeys().keys };
    const res = await call(subscriptionsRoute.action, makeRequest("/api/push/subscriptions", { json: body, cookie: second.cookie }));
    expect(res.status).toBe(201);
    expect(await endpointsOf(second.id)).toEqual([shared]);
    await call(logoutPage, makeRequest("/logout", { form: {}, cookie: second.cookie }));
    expect(await endpointsOf(second.id)).toEqual([]);
    expect(await endpointsOf(first.id)).toEqual([]);
  });

  it("Settings › Security: ending one session or all the others drops their subscriptions, not this browser's", async () => {
    const member = await createMember();
    const here = member.cookie;
    const [phone, tablet] = [await anotherSession(member), await anotherSession(member)];
    const onHere = await subscribeWith(here);
    const onPhone = await subscribeWith(phone);
    const onTablet = await subscribeWith(tablet);
    const sessionOf = async (endpointOf: string) => (await subscriptionsOf(member.id)).find((s) => s.endpoint === endpointOf)!.sessionId;
    const phoneSession = await sessionOf(onPhone);
    expect(phoneSession).toEqual(expect.any(Number));

    const settings = (form: Record<string, string>) =>
      call(settingsPage.action, makeRequest("/settings?tab=security", { form, cookie: here }));
    expect((await settings({ intent: "end-session", sessionId: String(phoneSession) })).status).toBeLessThan(400);
    expect(await endpointsOf(member.id)).toEqual([onHere, onTablet].sort());

    expect((await settings({ intent: "end-other-sessions" })).status).toBeLessThan(400);
    expect(await endpointsOf(member.id)).toEqual([onHere]);
  });
});

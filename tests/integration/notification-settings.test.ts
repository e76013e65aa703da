import { describe, expect, it } from "vitest";
import { notificationSettingsOf } from "~/models/notifications/notification-settings.server";
import { followUser } from "~/models/members/follow.server";
import { listNotifications } from "~/models/notifications/notification.server";
import * as settingsApi from "~/routes/api.notifications.settings";
import * as settingsPage from "~/routes/settings/route";
import * as subscriptionsRoute from "~/routes/api.push.subscriptions";
import { subscriptionsOf } from "~/models/notifications/push.server";
import { commitUserSession } from "~/web/session.server";
import { browserKeys } from "#tests/fixtures/push-service";
import { call, createMember, makeRequest } from "../fixtures/members";
import { addMember, makeClub } from "../fixtures/posts";

/** Settings › Notifications (CONTRACT.md §7): GET / PUT /api/notifications/settings and the page's plain form. */

type Member = Awaited<ReturnType<typeof createMember>>;
const get = (who: Member | null) => call(settingsApi.loader, makeRequest("/api/notifications/settings", { cookie: who?.cookie }));
const put = (who: Member | null, json: unknown) =>
  call(settingsApi.action, makeRequest("/api/notifications/settings", { method: "PUT", json, cookie: who?.cookie }));

const DEFAULTS = {
  inApp: {
    comment: true,
    mention: true,
    like: true,
    follow: true,
    join_request: true,
    request_approved: true,
    request_rejected: true,
    invite_joined: true,
    club_post: false,
    moderation: true,
    // Staff's word of new reports (ux-3 U23): on by default, reaching staff only.
    report: true,
    // Club hunts (issue 44, CONTRACT.md §14): in the app by default.
    club_event: true,
    event_reminder: true,
    event_cancelled: true,
  },
  email: "daily",
  push: false,
  clubPosts: [],
};

describe("GET / PUT /api/notifications/settings", () => {
  it("401 signed out; the defaults; a PUT changes only what it sends and only the member's own", async () => {
    const me = await createMember();
    const other = await createMember();
    expect((await get(null)).status).toBe(401);
    expect((await put(null, { email: "off" })).status).toBe(401);

    const response = await get(me);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await response.json()).toEqual(DEFAULTS);

    const changed = await put(me, { email: "weekly", inApp: { like: false } });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ ...DEFAULTS, email: "weekly", inApp: { ...DEFAULTS.inApp, like: false } });
    expect(await (await get(other)).json()).toEqual(DEFAULTS);
  });

  it("400 for a bad body, changing nothing", async () => {
    const me = await createMember();
    for (const body of [
      { email: "hourly" },
      { push: "yes" },
      { clubPosts: ["x"] },
      { inApp: { like: "no" } },
      { inApp: { shout: true } },
    ]) {
      const response = await put(me, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toMatchObject({ error: expect.any(String) });
    }
    expect(await notificationSettingsOf(me.id)).toEqual(DEFAULTS);
  });

  it("club posts: only clubs the member is in; choosing one turns club_post on", async () => {
    const owner = await createMember();
    const me = await createMember();
    const mine = await makeClub(owner.id, { name: "Mine" });
    const notMine = await makeClub(owner.id, { name: "Not mine", isPrivate: true });
    await addMember(mine, me.id);
    const body = (await (await put(me, { clubPosts: [mine, notMine] })).json()) as typeof DEFAULTS;
    expect(body.clubPosts).toEqual([mine]);
    expect(body.inApp.club_post).toBe(true);
    const off = (await (await put(me, { inApp: { club_post: false } })).json()) as typeof DEFAULTS;
    expect(off.clubPosts).toEqual([]);
  });
});

describe("the Settings › Notifications form (JavaScript off)", () => {
  it("saves unchecked boxes as off, the email choice and clubs, then redirects back; a kind turned off is not recorded; push is not the form's", async () => {
    const me = await createMember();
    const fan = await createMember();
    const club = await makeClub(me.id, { name: "Ridge" });
    const form = {
      intent: "notification-settings",
      "inApp.comment": "on",
      "inApp.mention": "on",
      email: "instant",
      // Push is turned on per device (ux-3 U17): a stray field from an old page changes nothing.
      push: "on",
      clubPosts: [String(club)],
    };
    const response = await call(settingsPage.action, makeRequest("/settings?tab=notifications", { form, cookie: me.cookie }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/settings?tab=notifications");
    const saved = await notificationSettingsOf(me.id);
    expect(saved).toMatchObject({ email: "instant", push: false, clubPosts: [club] });
    expect(saved.inApp).toMatchObject({ comment: true, mention: true, follow: false, like: false, club_post: true });
    await followUser(fan, me.username);
    expect((await listNotifications(me)).items).toEqual([]);

    const page = await call(settingsPage.loader, makeRequest("/settings?tab=notifications", { cookie: me.cookie }));
    const data = (await page.json()) as { notifications: { settings: unknown; clubs: { name: string }[] } };
    expect(data.notifications.settings).toEqual(saved);
    expect(data.notifications.clubs.map((c) => c.name)).toEqual(["Ridge"]);
  });

  it("refuses an email choice that is not one of the four, changing nothing", async () => {
    const me = await createMember();
    const form = { intent: "notification-settings", email: "hourly" };
    const response = await call(settingsPage.action, makeRequest("/settings?tab=notifications", { form, cookie: me.cookie }));
    expect(response.status).toBe(400);
    expect(await notificationSettingsOf(me.id)).toEqual(DEFAULTS);
  });
});

describe("Settings › Notifications › Push notifications (ux-3 U17): one switch per device", () => {
  let n = 0;
  const subscribeWith = async (cookie: string) => {
    const json = { endpoint: `https://142.250.74.10/fcm/send/settings-${Date.now()}-${++n}`, keys: browserKeys().keys };
    expect((await call(subscriptionsRoute.action, makeRequest("/api/push/subscriptions", { json, cookie }))).status).toBe(201);
    return json.endpoint;
  };
  const pushDevices = async (cookie: string) => {
    const page = await call(settingsPage.loader, makeRequest("/settings?tab=notifications", { cookie }));
    return ((await page.json()) as { notifications: { pushDevices: { here: boolean; elsewhere: number } } }).notifications.pushDevices;
  };

  it("a device turned on turns push on, and saving the form (which has no push field) keeps it on", async () => {
    const me = await createMember();
    expect(await pushDevices(me.cookie)).toEqual({ here: false, elsewhere: 0 });
    await subscribeWith(me.cookie);
    expect((await notificationSettingsOf(me.id)).push).toBe(true);
    expect(await pushDevices(me.cookie)).toEqual({ here: true, elsewhere: 0 });

    const form = { intent: "notification-settings", "inApp.comment": "on", email: "off" };
    expect((await call(settingsPage.action, makeRequest("/settings?tab=notifications", { form, cookie: me.cookie }))).status).toBe(302);
    expect(await notificationSettingsOf(me.id)).toMatchObject({ email: "off", push: true });
  });

  it("'Turn off push on your other devices' (a plain form) ends push everywhere but this browser; push goes off with the last", async () => {
    const me = await createMember();
    const laptop = (await commitUserSession(me)).split(";")[0]!;
    const phone = (await commitUserSession(me)).split(";")[0]!;
    await subscribeWith(laptop);
    const onPhone = await subscribeWith(phone);
    expect(await pushDevices(me.cookie)).toEqual({ here: false, elsewhere: 2 });
    expect(await pushDevices(phone)).toEqual({ here: true, elsewhere: 1 });

    const form = { intent: "push-off-elsewhere" };
    const fromPhone = await call(settingsPage.action, makeRequest("/settings?tab=notifications", { form, cookie: phone }));
    expect(fromPhone.status).toBe(302);
    expect(fromPhone.headers.get("Location")).toBe("/settings?tab=notifications");
    expect((await subscriptionsOf(me.id)).map((s) => s.endpoint)).toEqual([onPhone]);
    expect((await notificationSettingsOf(me.id)).push).toBe(true);

    // From a browser with JavaScript off (no device of its own): none is left, push is off.
    expect((await call(settingsPage.action, makeRequest("/settings?tab=notifications", { form, cookie: me.cookie }))).status).toBe(302);
    expect(await subscriptionsOf(me.id)).toEqual([]);
    expect((await notificationSettingsOf(me.id)).push).toBe(false);
    const signedOut = await call(settingsPage.action, makeRequest("/settings?tab=notifications", { form }));
    expect(signedOut.headers.get("Location")).toMatch(/^\/auth\?mode=login/);
  });
});

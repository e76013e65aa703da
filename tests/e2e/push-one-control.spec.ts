import { createECDH, randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, test } from "./fixtures";

/**
 * Settings › Notifications › Push notifications (ux-3 U17, issue 42): one control a member
 * understands. The form's "Send push notifications" checkbox (which did nothing on its own) is gone;
 * with JavaScript there is one switch, "Push notifications on this device", whose state is this
 * device's subscription and the member's push setting together; without JavaScript the page says
 * push needs it and offers nothing that cannot work. A browser with no push service, or one that
 * blocks notifications, is told so in words, with no "try again". On a 390 px phone.
 */

test.use({ viewport: { width: 390, height: 844 } });

const pushSection = (page: Page) => page.getByTestId("push-settings");
const theSwitch = (page: Page) => pushSection(page).getByRole("switch", { name: "Push notifications on this device" });
const state = (page: Page) => page.getByTestId("push-device-state");

/**
 * This Chromium has no push service (Debian's build): a subscription made by hand stands in for
 * one, as a browser with a push service would give it, kept in localStorage across reloads. The
 * endpoint is an https address on a public IP, so the server's guard takes it without DNS; nothing
 * is ever pushed to it here.
 */
async function browserWithPushService(page: Page) {
  const p256dh = createECDH("prime256v1").generateKeys().toString("base64url");
  const auth = randomBytes(16).toString("base64url");
  await page.context().grantPermissions(["notifications"]);
  await page.addInitScript(
    ({ p256dh, auth }) => {
      const KEY = "e2e-push-endpoint";
      const made = (endpoint: string) =>
        ({
          endpoint,
          toJSON: () => ({ endpoint, keys: { p256dh, auth } }),
          unsubscribe: async () => {
            localStorage.removeItem(KEY);
            return true;
          },
        }) as unknown as PushSubscription;
      PushManager.prototype.getSubscription = async () => {
        const endpoint = localStorage.getItem(KEY);
        return endpoint ? made(endpoint) : null;
      };
      PushManager.prototype.subscribe = async () => {
        const endpoint = `https://142.250.74.10/fcm/send/e2e-${Math.random().toString(36).slice(2)}`;
        localStorage.setItem(KEY, endpoint);
        return made(endpoint);
      };
    },
    { p256dh, auth },
  );
  return { p256dh, auth };
}

const pushSetting = async (page: Page) =>
  ((await (await page.request.get("/api/notifications/settings")).json()) as { push: boolean }).push;

test("one push control: a switch for this device with JavaScript, an honest sentence without", async ({ page, js, open, signUp }) => {
  await signUp();
  await open("/settings?tab=notifications");
  // The old page's checkbox (it did nothing on its own) is gone from the form, with JavaScript or without.
  await expect(page.getByRole("checkbox", { name: /push/i })).toHaveCount(0);
  await expect(pushSection(page).getByRole("heading", { name: "Push notifications", level: 3 })).toBeVisible();
  if (js) {
    await expect(theSwitch(page)).toBeVisible();
    await expect(pushSection(page).getByRole("button")).toHaveCount(0);
    await expect(pushSection(page).getByRole("switch")).toHaveCount(1);
    const box = (await theSwitch(page).boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(44);
    await expectNoAxeViolations(page);
  } else {
    await expect(state(page)).toHaveText(/^Push notifications need JavaScript: with it off, this browser cannot receive them\./);
    await expect(pushSection(page).getByRole("button")).toHaveCount(0);
    await expect(pushSection(page).getByRole("switch")).toHaveCount(0);
    await expect(pushSection(page).getByRole("checkbox")).toHaveCount(0);
  }
});

test("this browser has no push service: the switch says so, offers nothing that cannot work, no 'try again' (ux-3 U17)", async ({
  page,
  js,
  open,
  signUp,
}) => {
  test.skip(!js, "push is JavaScript only");
  await signUp();
  await page.context().grantPermissions(["notifications"]);
  await open("/settings?tab=notifications");
  // No stub: this Chromium (Debian's) answers every subscription "push service not available".
  await theSwitch(page).click();
  await expect(state(page)).toHaveText(/This browser has no push service/);
  await expect(pushSection(page).getByRole("switch")).toHaveCount(0);
  await expect(pushSection(page).getByRole("alert")).toHaveCount(0);
  await expect(pushSection(page)).not.toContainText(/try again/i);
  expect(await pushSetting(page)).toBe(false);
  await expectNoAxeViolations(page);
});

test("notifications blocked for the site: the page says how to allow them, with no switch", async ({ page, js, open, signUp }) => {
  test.skip(!js, "push is JavaScript only");
  await signUp();
  await page.addInitScript(() => {
    // As a browser whose member once answered "Block" (Playwright cannot set a denied permission).
    Object.defineProperty(Notification, "permission", { get: () => "denied" });
  });
  await open("/settings?tab=notifications");
  await expect(state(page)).toHaveText(/Notifications are blocked for this site in this browser.*site settings.*Allow/);
  await expect(pushSection(page).getByRole("switch")).toHaveCount(0);
  await expect(pushSection(page)).not.toContainText(/try again/i);
  await expectNoAxeViolations(page);
});

test("turning the switch on subscribes this device and turns push on; it stays on after a reload and a save of the form; off again turns both off", async ({
  page,
  js,
  open,
  signUp,
}) => {
  test.skip(!js, "push is JavaScript only");
  await signUp();
  await browserWithPushService(page);
  await open("/settings?tab=notifications");
  await expect(theSwitch(page)).toHaveAttribute("aria-checked", "false");
  await expect(state(page)).toHaveText("Push is off on this device.");

  await theSwitch(page).click();
  await expect(theSwitch(page)).toHaveAttribute("aria-checked", "true");
  await expect(state(page)).toHaveText("Push is on on this device.");
  expect(await pushSetting(page)).toBe(true);
  await expectNoAxeViolations(page);

  // Saving the rest of the form leaves push as it is (it has no push field now).
  await page.getByRole("radio", { name: /Weekly digest/ }).check();
  await page.getByRole("button", { name: "Save notification settings" }).click();
  await expect(page.getByText("Notification settings saved")).toBeVisible();
  expect(await pushSetting(page)).toBe(true);
  await open("/settings?tab=notifications");
  await expect(theSwitch(page)).toHaveAttribute("aria-checked", "true");

  await theSwitch(page).click();
  await expect(theSwitch(page)).toHaveAttribute("aria-checked", "false");
  await expect(state(page)).toHaveText("Push is off on this device.");
  // It was the member's only device: push is off for them.
  expect(await pushSetting(page)).toBe(false);
});

test("push on another device can be turned off from here, JavaScript or not", async ({ page, open, signUp, signIn, newPage, baseURL }) => {
  const member = await signUp();
  // The member's phone: signed in elsewhere, push turned on there (as the switch would).
  const phone = await newPage();
  await signIn(member.username, member.password, phone);
  const subscribed = await phone.request.post("/api/push/subscriptions", {
    data: {
      // Random, not Date.now(): both projects' workers run this test, and two members posting the same
      // endpoint in the same millisecond moved it to the later one (an endpoint is one browser's),
      // leaving the other member no other device.
      endpoint: `https://142.250.74.10/fcm/send/e2e-phone-${randomBytes(12).toString("base64url")}`,
      keys: { p256dh: createECDH("prime256v1").generateKeys().toString("base64url"), auth: randomBytes(16).toString("base64url") },
    },
    headers: { Origin: baseURL! },
  });
  expect(subscribed.status(), await subscribed.text()).toBe(201);

  await open("/settings?tab=notifications");
  await expect(page.getByTestId("push-elsewhere")).toHaveText("Push also goes to 1 other device of yours.");
  await pushSection(page).getByRole("button", { name: "Turn off push on your other devices" }).click();
  await expect(page.getByText("Push turned off on your other devices")).toBeVisible();
  await expect(page.getByTestId("push-elsewhere")).toHaveCount(0);
  expect(await pushSetting(page)).toBe(false);
});

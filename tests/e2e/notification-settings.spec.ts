import { expect, test } from "./fixtures";

/**
 * Settings › Notifications (issue 26, CONTRACT.md §7): one plain form (JavaScript off: POST, redirect,
 * GET) that keeps what the member chose; with JavaScript, this device's push switch appears and asks
 * the browser's permission only when pressed (the one push control: push-one-control.spec.ts).
 */

test("the member's choices are saved and shown again, and a kind turned off stays quiet", async ({
  page,
  open,
  signUp,
  newPage,
  baseURL,
  js,
}) => {
  const me = await signUp();
  await open("/settings?tab=notifications");
  await expect(page.getByRole("heading", { name: "Notifications", level: 2 })).toBeVisible();
  const followers = page.getByRole("checkbox", { name: "New followers" });
  await expect(followers).toBeChecked();
  await expect(page.getByRole("radio", { name: /Daily digest/ })).toBeChecked();
  // Push is not one of the form's choices (ux-3 U17): it is a switch per device, under the form.
  await expect(page.getByRole("checkbox", { name: /push/i })).toHaveCount(0);
  await expect(page.getByText("You are not in any club yet.")).toBeVisible();

  await followers.uncheck();
  await page.getByRole("radio", { name: /Weekly digest/ }).check();
  await page.getByRole("button", { name: "Save notification settings" }).click();
  await expect(page.getByText("Notification settings saved")).toBeVisible();
  await expect(page).toHaveURL(/\/settings\?tab=notifications$/);
  await expect(page.getByRole("checkbox", { name: "New followers" })).not.toBeChecked();
  await expect(page.getByRole("radio", { name: /Weekly digest/ })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Comments on my posts" })).toBeChecked();

  // The API says the same, and a new follower tells nobody.
  const saved = await (await page.request.get("/api/notifications/settings")).json();
  expect(saved).toMatchObject({ email: "weekly", push: false, inApp: { follow: false, comment: true } });
  const other = await newPage();
  await signUp(other, "fan");
  const followed = await other.request.post(`/api/users/${me.username}/follow`, { headers: { Origin: baseURL! } });
  expect(followed.status()).toBe(200);
  expect((await (await page.request.get("/api/notifications/count")).json()).unread).toBe(0);

  // This device's push switch: JavaScript only, and it asks nothing until pressed.
  const state = page.getByTestId("push-device-state");
  if (js) await expect(state).not.toHaveText(/need JavaScript/);
  else await expect(state).toHaveText(/Push notifications need JavaScript/);
});

test("a browser with no push service is told so once, not asked to try again (ux-3 U17)", async ({ page, js, open, signUp, context }) => {
  test.skip(!js, "this device's push switch is JavaScript only");
  await signUp();
  await context.grantPermissions(["notifications"]);
  // As Chromium built without Google's services answers every subscription (Debian's does here).
  await page.addInitScript(() => {
    PushManager.prototype.subscribe = () =>
      Promise.reject(new DOMException("Registration failed - push service not available", "AbortError"));
  });
  await open("/settings?tab=notifications");
  const state = page.getByTestId("push-device-state");
  await page.getByRole("switch", { name: "Push notifications on this device" }).click();
  await expect(state).toHaveText(/This browser has no push service/);
  await expect(page.getByRole("switch", { name: "Push notifications on this device" })).toHaveCount(0);
  await expect(page.getByTestId("push-toggle").getByRole("alert")).toHaveCount(0);
});

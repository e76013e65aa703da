import type { Page } from "@playwright/test";
import sharp from "sharp";
import { DEMO, expect, test } from "./fixtures";

const toast = (page: Page) => page.getByTestId("toast");

test("a profile shows its member, their posts and counts; unknown members are 'Profile Not Found'", async ({ page }) => {
  await page.goto(`/profile/${DEMO.username}`);
  await expect(page.getByRole("heading", { level: 1, name: DEMO.displayName })).toBeVisible();
  await expect(page.getByText(`@${DEMO.username}`).first()).toBeVisible();
  await expect(page.getByText(/Joined .* ago/)).toBeVisible();
  await expect(page.getByRole("link", { name: /Followers/ })).toHaveAttribute("href", `/profile/${DEMO.username}/followers`);
  await expect(page.getByRole("link", { name: /Following/ })).toHaveAttribute("href", `/profile/${DEMO.username}/following`);
  await expect(page.getByTestId("post-card").first()).toBeVisible();
  for (const card of await page.getByTestId("post-card").all()) {
    await expect(card.getByText(`@${DEMO.username}`)).toBeVisible();
  }

  const response = await page.goto("/profile/no_such_member_here");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Profile Not Found" })).toBeVisible();
});

test("edit profile: SPEC messages, then the change shows with a toast", async ({ page, js, signUp }) => {
  const me = await signUp();
  await page.goto(`/profile/${me.username}`);
  await page.getByRole("link", { name: "Edit Profile" }).click();
  if (js) {
    await expect(page.getByRole("dialog", { name: "Edit Profile" })).toBeVisible();
  } else {
    await expect(page).toHaveURL(/\?edit=1$/);
  }
  const form = page.locator("form#edit-profile");
  await form.getByLabel("Display name").fill("");
  await form.getByLabel("Bio").fill("x".repeat(501));
  await form.getByLabel("Location").fill("Kept location");
  await form.getByRole("button", { name: "Save Changes" }).click();
  await expect(form.getByText("Display name is required")).toBeVisible();
  await expect(form.getByText("Bio too long")).toBeVisible();
  // What was typed is still there.
  await expect(form.getByLabel("Location")).toHaveValue("Kept location");

  await form.getByLabel("Display name").fill("Creek Bottom Carl");
  await form.getByLabel("Bio").fill("Public-land bowhunter.");
  await form.getByLabel("Location").fill("Vernon County, WI");
  await form.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page)).toContainText("Profile updated");
  await expect(page).toHaveURL(new RegExp(`/profile/${me.username}$`));
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: "Creek Bottom Carl" })).toBeVisible();
  await expect(page.getByText("Public-land bowhunter.")).toBeVisible();
  await expect(page.getByText("Vernon County, WI")).toBeVisible();
});

test("avatar upload from the edit form replaces the initial", async ({ page, js, signUp }) => {
  const me = await signUp();
  await page.goto(`/profile/${me.username}`);
  await expect(page.getByTestId("avatar-initial").first()).toBeVisible();
  await page.getByRole("link", { name: "Edit Profile" }).click();
  if (js) await expect(page.getByRole("dialog", { name: "Edit Profile" })).toBeVisible();
  const png = await sharp({ create: { width: 120, height: 120, channels: 3, background: "#56692c" } })
    .png()
    .toBuffer();
  const upload = page.getByTestId("avatar-upload");
  await upload.locator('input[type="file"]').setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
  // Without JavaScript the form needs its button; with it, choosing the file uploads.
  const button = upload.getByRole("button", { name: "Upload", exact: true });
  if (await button.count()) await button.click();
  await expect(toast(page)).toContainText("Avatar updated");
  await page.goto(`/profile/${me.username}`);
  const header = page.locator("section").first();
  await expect(header.getByTestId("avatar-initial")).toHaveCount(0);
  const src = await header.locator("img").first().getAttribute("src");
  expect(src).toBeTruthy();
  const image = await page.request.get(src!);
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toMatch(/^image\//);
});

test("follow and unfollow another member, with counts and lists", async ({ page, request, signUp }) => {
  const target = await signUp({ request }, "t");
  const me = await signUp();
  await page.goto(`/profile/${target.username}`);
  const followers = page.getByTestId("followers-count");
  await expect(followers).toHaveText("0");

  await page.getByRole("button", { name: "Follow", exact: true }).click();
  await expect(page.getByRole("button", { name: "Following" })).toBeVisible();
  await expect(followers).toHaveText("1");

  await page.getByRole("link", { name: /Followers/ }).click();
  await expect(page).toHaveURL(new RegExp(`/profile/${target.username}/followers$`));
  await expect(page.getByTestId("follow-list").getByRole("link", { name: me.displayName })).toBeVisible();

  await page.goto(`/profile/${me.username}/following`);
  await expect(page.getByTestId("follow-list").getByRole("link", { name: target.displayName })).toBeVisible();

  await page.goto(`/profile/${target.username}`);
  await page.getByRole("button", { name: "Following" }).click();
  await expect(page.getByRole("button", { name: "Follow", exact: true })).toBeVisible();
  await expect(followers).toHaveText("0");
  await page.reload();
  await expect(page.getByTestId("followers-count")).toHaveText("0");

  // No Follow button on one's own profile.
  await page.goto(`/profile/${me.username}`);
  await expect(page.getByRole("button", { name: "Follow", exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Edit Profile" })).toBeVisible();
});

test("a signed-out visitor's Follow goes to sign in and comes back", async ({ page, request, signUp }) => {
  const target = await signUp({ request }, "t");
  await page.goto(`/profile/${target.username}`);
  await page.getByRole("button", { name: "Follow", exact: true }).click();
  await expect(page).toHaveURL(/\/auth\?/);
  const form = page.locator("form#login");
  await form.getByLabel("Username").fill(DEMO.username);
  await form.getByLabel("Password").fill(DEMO.password);
  await form.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(new RegExp(`/profile/${target.username}$`));
  await expect(page.getByRole("button", { name: "Follow", exact: true })).toBeVisible();
});

test("settings: Access Denied for visitors; tabs are links; profile with email", async ({ page, js, request, signUp }) => {
  const response = await page.goto("/settings");
  expect(response?.status()).toBe(401);
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
  await expect(page.getByText("Please log in to access your settings.")).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Sign In" })).toHaveAttribute("href", /redirectTo=%2Fsettings/);

  const other = await signUp({ request }, "t");
  const me = await signUp();
  await page.goto("/settings");
  const sections = page.getByRole("navigation", { name: "Settings sections" });
  await sections.getByRole("link", { name: "Notifications" }).click();
  // No longer "a future update" (issue 26): the notification choices (notification-settings.spec.ts).
  await expect(page.getByRole("button", { name: "Save notification settings" })).toBeVisible();
  await sections.getByRole("link", { name: "Privacy" }).click();
  // Privacy is no longer "coming soon": it holds Data saver (issue 12, ADR 0036).
  await expect(page.getByRole("heading", { name: "Data saver" })).toBeVisible();
  await page.getByRole("link", { name: "Profile", exact: true }).first().click();
  await expect(page.getByText("Change Avatar")).toBeVisible();

  const form = page.locator("form#settings-profile");
  await expect(form.getByLabel("Email")).toHaveValue(`${me.username}@example.com`);
  // A new email needs the current password (security-2 N4): the message is on that field, the rest stays.
  await form.getByLabel("Email").fill(`new_${me.username}@example.com`);
  await form.getByLabel("Display name").fill("Typed Tess");
  await form.getByRole("button", { name: "Save Changes" }).click();
  await expect(form.getByText("Enter your current password to change your email")).toBeVisible();
  await expect(form.getByLabel("Email")).toHaveValue(`new_${me.username}@example.com`);
  await expect(form.getByLabel("Display name")).toHaveValue("Typed Tess");
  await form.getByLabel("Current password").fill("not-my-password");
  await form.getByRole("button", { name: "Save Changes" }).click();
  await expect(form.getByText("Current password is incorrect")).toBeVisible();
  await expect(form.getByLabel("Email")).toHaveValue(`new_${me.username}@example.com`);
  // The server never sends the password back: without JavaScript the new page has the field empty;
  // with it the form stays in place and keeps what was typed, as every other field does.
  await expect(form.getByLabel("Current password")).toHaveValue(js ? "not-my-password" : "");

  await form.getByLabel("Email").fill(`${other.username}@example.com`);
  await form.getByLabel("Current password").fill(me.password);
  await form.getByRole("button", { name: "Save Changes" }).click();
  await expect(form.getByText("Email is already registered")).toBeVisible();
  await expect(form.getByLabel("Email")).toHaveValue(`${other.username}@example.com`);

  await form.getByLabel("Email").fill(`new_${me.username}@example.com`);
  await form.getByLabel("Display name").fill("Settings Sam");
  await form.getByLabel("Current password").fill(me.password);
  await form.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page)).toContainText("Profile updated");
  await expect(page.locator("form#settings-profile").getByLabel("Email")).toHaveValue(`new_${me.username}@example.com`);
  await expect(page.locator("form#settings-profile").getByLabel("Display name")).toHaveValue("Settings Sam");
});

test("change password: mismatch, wrong current password, then success signs in with the new one", async ({ page, signUp, signIn }) => {
  const me = await signUp();
  await page.goto("/settings?tab=security");
  const form = page.locator("form#change-password");

  await form.getByLabel("Current password").fill(me.password);
  await form.getByLabel("New password", { exact: true }).fill("brandnew1");
  await form.getByLabel("Confirm new password").fill("brandnew2");
  await form.getByRole("button", { name: "Update Password" }).click();
  await expect(form.getByText("Passwords don't match")).toBeVisible();

  await form.getByLabel("Current password").fill("not-my-password");
  await form.getByLabel("New password", { exact: true }).fill("brandnew1");
  await form.getByLabel("Confirm new password").fill("brandnew1");
  await form.getByRole("button", { name: "Update Password" }).click();
  await expect(form.getByText("Current password is incorrect")).toBeVisible();

  await form.getByLabel("Current password").fill(me.password);
  await form.getByLabel("New password", { exact: true }).fill("brandnew1");
  await form.getByLabel("Confirm new password").fill("brandnew1");
  await form.getByRole("button", { name: "Update Password" }).click();
  await expect(toast(page)).toContainText("Password updated");
  // The new page starts the form afresh, with JavaScript too.
  for (const label of ["Current password", "Confirm new password"]) await expect(form.getByLabel(label)).toHaveValue("");
  // Still signed in on this device.
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();

  await page.context().clearCookies();
  await signIn(me.username, "brandnew1");
});

test.describe("the password form after a refusal", () => {
  // The page's own requests are counted: keep the worker from making them.
  test.use({ serviceWorkers: "block" });
  test.skip(({ js }) => !js, "JavaScript only: without it the refusal is a whole new page");

  test("what is typed after 'Current password is incorrect' stays, and the refusal reloads nothing", async ({ page, signUp, open }) => {
    const me = await signUp();
    await open("/settings?tab=security");
    // Remix 2 reloaded the page's data after the refusal, and the form was drawn anew when that
    // reload ended, wiping what the member had typed since (d6f4780). React Router 7 reloads nothing
    // after a 4xx answer: every reload asked for is counted here.
    let reloads = 0;
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/settings.data" && request.method() === "GET") reloads++;
    });
    const form = page.locator("form#change-password");
    await form.getByLabel("Current password").fill("not-my-password");
    await form.getByLabel("New password", { exact: true }).fill("brandnew1");
    await form.getByLabel("Confirm new password").fill("brandnew1");
    await form.getByRole("button", { name: "Update Password" }).click();
    await expect(form.getByText("Current password is incorrect")).toBeVisible();
    await expect(form.getByLabel("New password", { exact: true })).toHaveValue("brandnew1");

    await form.getByLabel("Current password").fill(me.password);
    await form.getByLabel("New password", { exact: true }).fill("brandnew3");
    await form.getByLabel("Confirm new password").fill("brandnew3");
    await expect(form.getByRole("button", { name: "Update Password" })).toBeEnabled();
    await expect(form.getByLabel("Current password")).toHaveValue(me.password);
    await expect(form.getByLabel("New password", { exact: true })).toHaveValue("brandnew3");
    await expect(form.getByLabel("Confirm new password")).toHaveValue("brandnew3");
    expect(reloads).toBe(0);
  });
});

test("a password change signs out the member's other browser", async ({ page, signUp, signIn, newPage }) => {
  const me = await signUp();
  const phone = await newPage();
  await signIn(me.username, me.password, phone);
  await phone.goto("/settings");
  await expect(phone.getByRole("heading", { name: "Settings" })).toBeVisible();

  await page.goto("/settings?tab=security");
  const form = page.locator("form#change-password");
  await form.getByLabel("Current password").fill(me.password);
  await form.getByLabel("New password", { exact: true }).fill("brandnew1");
  await form.getByLabel("Confirm new password").fill("brandnew1");
  await form.getByRole("button", { name: "Update Password" }).click();
  await expect(toast(page)).toContainText("Password updated");

  await phone.goto("/settings");
  await expect(phone.getByRole("heading", { name: "Access Denied" })).toBeVisible();
});

test.describe("the password form after a refusal, when the page's data reloads", () => {
  test.use({ serviceWorkers: "block" });
  test.skip(({ js }) => !js, "JavaScript only: without it the refusal is a whole new page");

  test("what is typed after the refusal stays when another send reloads the page's data", async ({ page, signUp, open }) => {
    await signUp();
    await open("/settings?tab=security");
    const form = page.locator("form#change-password");
    await form.getByLabel("Current password").fill("not-my-password");
    await form.getByLabel("New password", { exact: true }).fill("brandnew1");
    await form.getByLabel("Confirm new password").fill("brandnew1");
    await form.getByRole("button", { name: "Update Password" }).click();
    await expect(form.getByText("Current password is incorrect")).toBeVisible();

    await form.getByLabel("Current password").fill("typed-after");
    await form.getByLabel("New password", { exact: true }).fill("brandnew3");
    await form.getByLabel("Confirm new password").fill("brandnew3");
    // What any fetcher's send (a like, the outbox, another tab's toggle) does when it lands: the
    // router reloads every loader of the page. Counted, so the test knows it happened.
    const reload = page.waitForResponse((r) => new URL(r.url()).pathname === "/settings.data" && r.request().method() === "GET");
    await page.evaluate(() =>
      (window as unknown as { __reactRouterDataRouter: { revalidate: () => Promise<void> } }).__reactRouterDataRouter.revalidate(),
    );
    await reload;
    // The revalidation has ended (its promise above); let React draw what it set.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await expect(form.getByLabel("Current password")).toHaveValue("typed-after");
    await expect(form.getByLabel("New password", { exact: true })).toHaveValue("brandnew3");
    await expect(form.getByLabel("Confirm new password")).toHaveValue("brandnew3");
  });
});

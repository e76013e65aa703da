import { expect, type Page } from "@playwright/test";

let counter = 0;
/** A username no other test (or retry) uses: 3–20 letters, digits and underscores. */
export function uniqueName(prefix = "u") {
  counter += 1;
  const stamp = `${Date.now().toString(36).slice(-5)}${process.pid.toString(36).slice(-2)}${counter}`;
  return `${prefix}_${stamp}`.slice(0, 20);
}

export const DEMO = { username: "ridgerunner", password: "whitetail", displayName: "Jake Holloway" };

/** Join through the /auth page (works with JavaScript on or off). */
export async function register(page: Page, name = uniqueName(), password = "secret123") {
  await page.goto("/auth?mode=register");
  const form = page.locator("form#register");
  await form.getByLabel("Username").fill(name);
  await form.getByLabel("Display name").fill(`Hunter ${name}`);
  await form.getByLabel("Email").fill(`${name}@example.com`);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Join Now" }).click();
  await expect(page.getByTestId("toast")).toContainText("Welcome to Whitetail Pulse");
  return { username: name, password, displayName: `Hunter ${name}` };
}

export async function signIn(page: Page, username: string, password: string) {
  await page.goto("/auth?mode=login");
  const form = page.locator("form#login");
  await form.getByLabel("Username").fill(username);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByTestId("toast")).toContainText("Welcome back!");
}

/** The JavaScript-off project: some assertions differ (no dialogs, no optimistic updates). */
export const jsEnabled = (page: Page) => page.evaluate(() => true).then(() => true).catch(() => false);

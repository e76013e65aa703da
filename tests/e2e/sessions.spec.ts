import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * Settings › Security (CONTRACT.md §6 "Sessions", ADR 0017): a member signed in on two browsers ends
 * the other one from the list, with JavaScript on and off, and that browser is signed out.
 */

const sessionRows = (page: Page) => page.getByTestId("session");
const signedInAs = async (page: Page) => (await page.request.get("/api/auth/user")).status();

test("Settings › Security lists both devices and signs the other one out", async ({ page, js, open, signUp, signIn, newPage }) => {
  const me = await signUp();
  const phone = await newPage();
  await signIn(me.username, me.password, phone);
  expect(await signedInAs(phone)).toBe(200);

  await open("/settings?tab=security");
  await expect(page.getByRole("heading", { name: "Where you're signed in" })).toBeVisible();
  await expect(sessionRows(page)).toHaveCount(2);
  const here = sessionRows(page).filter({ hasText: "This device" });
  await expect(here).toHaveCount(1);
  await expect(here.getByRole("button", { name: "Sign out" })).toHaveCount(0);
  await expect(sessionRows(page).first()).toContainText(/Last active/);

  const other = sessionRows(page).filter({ hasNotText: "This device" });
  await other.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByTestId("toast")).toContainText("That device has been signed out");
  await expect(sessionRows(page)).toHaveCount(1);
  await expect(page).toHaveURL(/\/settings\?tab=security$/);
  if (js) await expect(page.getByRole("button", { name: "Sign out of all other devices" })).toHaveCount(0);

  // The other browser is signed out; this one is not.
  expect(await signedInAs(phone)).toBe(401);
  await phone.goto("/settings");
  await expect(phone.getByRole("heading", { name: "Access Denied" })).toBeVisible();
  expect(await signedInAs(page)).toBe(200);
});

test("Sign out of all other devices keeps this one", async ({ page, open, signUp, signIn, newPage }) => {
  const me = await signUp();
  const phone = await newPage();
  const tablet = await newPage();
  await signIn(me.username, me.password, phone);
  await signIn(me.username, me.password, tablet);

  await open("/settings?tab=security");
  await expect(sessionRows(page)).toHaveCount(3);
  await page.getByRole("button", { name: "Sign out of all other devices" }).click();
  await expect(page.getByTestId("toast")).toContainText("2 other devices have been signed out");
  await expect(sessionRows(page)).toHaveCount(1);
  await expect(page.getByText("No other devices are signed in.")).toBeVisible();

  expect(await signedInAs(phone)).toBe(401);
  expect(await signedInAs(tablet)).toBe(401);
  expect(await signedInAs(page)).toBe(200);
});

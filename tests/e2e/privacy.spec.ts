import fs from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * Settings › Privacy (issue 15, CONTRACT.md §6 "A member's own data", ADR 0039): "Download my data"
 * saves the JSON export as a file, and "Delete my account" takes the password, refuses a wrong one
 * and, with the right one, deletes the account and signs this browser out. JavaScript on and off.
 */

const memberStatus = async (page: Page) => (await page.request.get("/api/auth/user")).status();
const draftKeys = (page: Page) =>
  page.evaluate(() => Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i)).filter((k) => k?.startsWith("wp-draft:")));

test("Download my data saves the member's export as a JSON file", async ({ page, open, signUp, createPost }) => {
  const me = await signUp();
  const post = await createPost({ title: "Buck on the ridge trail" });
  await open("/settings?tab=privacy");
  await expect(page.getByRole("heading", { name: "Privacy", level: 2 })).toBeVisible();

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download my data" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^whitetail-pulse-${me.username}-\\d{4}-\\d{2}-\\d{2}\\.json$`));
  const data = JSON.parse(fs.readFileSync((await file.path())!, "utf8")) as {
    profile: { username: string; email: string };
    posts: { id: number; title: string }[];
  };
  expect(data.profile).toMatchObject({ username: me.username, email: `${me.username}@example.com` });
  expect(data.posts.map((p) => [p.id, p.title])).toEqual([[post.id, "Buck on the ridge trail"]]);
  // The page stays where it was.
  await expect(page).toHaveURL(/\/settings\?tab=privacy$/);
});

test("Delete my account refuses a wrong password, then deletes the account and signs out", async ({
  page,
  js,
  open,
  signUp,
  createPost,
  newPage,
}) => {
  const me = await signUp();
  const post = await createPost({ title: "Soon to be gone" });
  await open("/settings?tab=privacy");
  await expect(page.getByText("You own no clubs.")).toBeVisible();
  const memberId = ((await (await page.request.get("/api/auth/user")).json()) as { id: number }).id;
  if (js) {
    await page.evaluate(
      (id) => localStorage.setItem(`wp-draft:${id}:create`, JSON.stringify({ v: { title: ["half"] }, t: Date.now() })),
      memberId,
    );
  }

  const password = page.getByLabel("Your password");
  await password.fill("not-my-password");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText("Password is incorrect")).toBeVisible();
  await expect(page).toHaveURL(/\/settings\?tab=privacy$/);
  expect(await memberStatus(page)).toBe(200);
  if (js) expect(await draftKeys(page)).toEqual([`wp-draft:${memberId}:create`]);

  await page.getByLabel("Your password").fill(me.password);
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByTestId("toast")).toContainText("Account deleted");
  await expect(page).toHaveURL(/\/$/);
  expect(await memberStatus(page)).toBe(401);
  if (js) expect(await draftKeys(page)).toEqual([]);

  // Nothing of the member is readable, by anyone.
  const visitor = await newPage();
  await visitor.goto(`/profile/${me.username}`);
  await expect(visitor.getByRole("heading", { name: "Profile Not Found" })).toBeVisible();
  expect((await visitor.request.get(`/api/posts/${post.id}`)).status()).toBe(404);
});

import type { Page } from "@playwright/test";
import { DEMO, expect, test } from "./fixtures";

/**
 * Issue 31 (audit ux-2 V1, V2, §2 #16): on a 390 × 844 phone the home's first screen shows posts.
 * The first post's title ends inside the first screen at scroll 0, for a visitor and for a member
 * (right after signing in, and on a later visit), with JavaScript off and on. The filters are one
 * row whose controls keep every filter SPEC.md §2 lists, and choosing one keeps the others.
 */

const PHONE = { width: 390, height: 844 };

/** The bottom (px from the top of the page, at scroll 0) of the first post card's title. */
async function firstTitleBottom(page: Page) {
  const title = page.getByTestId("feed").getByTestId("post-card").first().locator(".post-title");
  await expect(title).toBeVisible();
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  const box = await title.boundingBox();
  const scrollY = await page.evaluate(() => window.scrollY);
  return Math.round(box!.y + box!.height + scrollY);
}

/** The filter bar is one row of 44 px controls (it was a 130 px form card). */
async function expectOneRow(page: Page) {
  const bar = await page.getByTestId("filter-bar").boundingBox();
  expect(bar!.height, "the filter bar's height").toBeLessThanOrEqual(48);
}

test.describe("the home's first screen on a phone", () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(PHONE);
  });

  test("a visitor sees the first post's title and a way to join", async ({ page, open }) => {
    await open("/");
    const bottom = await firstTitleBottom(page);
    console.log(`[${test.info().project.name}] visitor: first title bottom ${bottom}px`);
    expect(bottom, "the first post's title ends inside the first screen").toBeLessThanOrEqual(PHONE.height);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome to Whitetail Pulse" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Join the Community" })).toBeInViewport();
    await expectOneRow(page);
  });

  test("a member sees the first post's title right after signing in and on a later visit", async ({ page, open, signIn }) => {
    await signIn(DEMO.username, DEMO.password);
    // Wherever the form landed, the home as it looks after signing in (the toast is on it).
    if (new URL(page.url()).pathname !== "/") await open("/");
    const afterSignIn = await firstTitleBottom(page);
    await open("/");
    const later = await firstTitleBottom(page);
    console.log(`[${test.info().project.name}] member: first title bottom ${afterSignIn}px after sign-in, ${later}px later`);
    expect(afterSignIn, "after signing in: the first post's title ends inside the first screen").toBeLessThanOrEqual(PHONE.height);
    expect(later, "a later visit: the first post's title ends inside the first screen").toBeLessThanOrEqual(PHONE.height);
    await expect(page.getByRole("link", { name: "Share Your Story" })).toBeVisible();
    await expectOneRow(page);
  });
});

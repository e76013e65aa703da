import type { Page } from "@playwright/test";
import { CONTROLS } from "../../app/components/layout/toast-placement";
import { expect, hydrated, test } from "./fixtures";

/**
 * Issue 14: a toast never covers a control, on a 390×844 phone (ADR 0029). Without JavaScript the
 * toast is part of the page above the content; with JavaScript it floats in the lowest place that
 * covers no button, link or field, and moves when the page scrolls under it.
 */

const PHONE = { width: 390, height: 844 };
const COMMENT_BOX = "#comments form textarea";

/** The visible controls (outside the toast) that the toast's card overlaps, by their text or name. */
async function coveredControls(page: Page): Promise<string[]> {
  return page.evaluate((selector) => {
    const card = document.querySelector('[data-testid="toast"]');
    if (!card) throw new Error("no toast");
    const t = card.getBoundingClientRect();
    const covered: string[] = [];
    for (const element of document.querySelectorAll(selector)) {
      if (card.contains(element)) continue;
      const r = element.getBoundingClientRect();
      if (!element.checkVisibility({ visibilityProperty: true })) continue;
      if (!r.width || !r.height || r.bottom <= 0 || r.top >= window.innerHeight) continue;
      if (r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom) {
        covered.push(element.getAttribute("aria-label") ?? (element.textContent?.trim() || element.outerHTML.slice(0, 60)));
      }
    }
    return covered;
  }, CONTROLS);
}

/** Scroll so that `control` sits at the very bottom of the window, where a bottom toast would be. */
async function scrollToWindowBottom(page: Page, text: string) {
  await page.getByRole("button", { name: text }).evaluate((button) => {
    const r = button.getBoundingClientRect();
    window.scrollBy(0, r.bottom - window.innerHeight + 12);
  });
}

/** Sign in through the form and land on `path` with the "Welcome back!" toast. */
async function signInTo(page: Page, me: { username: string; password: string }, path: string) {
  await page.context().clearCookies();
  await page.goto(`/auth?mode=login&redirectTo=${encodeURIComponent(path)}`);
  const form = page.locator("form#login");
  await form.getByLabel("Username").fill(me.username);
  await form.getByLabel("Password").fill(me.password);
  await form.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.getByTestId("toast")).toContainText("Welcome back!");
}

test("on a post page the toast leaves Post Comment and the comment box free", async ({ page, js, signUp, createPost, open }) => {
  await page.setViewportSize(PHONE);
  const me = await signUp();
  const post = await createPost();
  if (js) {
    // With JavaScript a comment goes in without a toast: bring one (the welcome) to the post page.
    await signInTo(page, me, `/post/${post.id}`);
    await hydrated(page);
    await scrollToWindowBottom(page, "Post Comment");
    await expect(page.getByTestId("toast")).toBeInViewport();
  } else {
    await open(`/post/${post.id}`);
    await page.locator(COMMENT_BOX).first().fill("Saw two scrapes on the ridge this morning.");
    await page.getByRole("button", { name: "Post Comment" }).click();
    await expect(page.getByTestId("toast")).toContainText("Comment added");
  }
  // The floating toast follows the page at the next frame; the in-page one lies over nothing.
  await expect.poll(() => coveredControls(page)).toEqual([]);
  // Still dismissible, with JavaScript or without.
  await page.getByTestId("toast").getByTitle("Dismiss").click();
  await expect(page.getByTestId("toast")).toBeHidden();
});

test("on the create page the toast leaves Publish Post free, wherever the page is scrolled", async ({ page, js, signUp }) => {
  await page.setViewportSize(PHONE);
  const me = await signUp();
  await signInTo(page, me, "/create");
  await expect.poll(() => coveredControls(page)).toEqual([]);
  // With JavaScript the toast leaves after 6 s, sooner than the scroll below is done on a loaded
  // machine (why it once seemed to vanish on /create); the post page's test scrolls with it floating.
  if (js) return;
  await scrollToWindowBottom(page, "Publish Post");
  await expect.poll(() => coveredControls(page)).toEqual([]);
});

import type { Page } from "@playwright/test";
import { CONTROLS, FIELDS } from "../../app/components/layout/toast-placement";
import { expect, hydrated, test } from "./fixtures";

/**
 * Issue 14: a toast never covers what a member is writing, on a 390×844 phone (ADR 0029). Without
 * JavaScript the toast is part of the page above the content; with JavaScript it floats at the
 * bottom or top edge of the window where it covers no control, else at an edge where it covers no
 * field nor the button that sends one (ux-2 N12), else in the lowest free place between, and moves
 * when the page scrolls under it.
 */

const PHONE = { width: 390, height: 844 };
const COMMENT_BOX = "#comments form textarea";

/**
 * The visible controls (outside the toast) that the toast's card overlaps, by their text or name;
 * with `fieldsOnly`, only fields, their labels and the buttons that send a form holding a field.
 */
async function coveredControls(page: Page, fieldsOnly = true): Promise<string[]> {
  return page.evaluate(
    ([controls, fields, only]) => {
      const card = document.querySelector('[data-testid="toast"]');
      if (!card) throw new Error("no toast");
      const t = card.getBoundingClientRect();
      const typing = (element: Element) =>
        element.matches(fields) ||
        (element instanceof HTMLLabelElement && Boolean(element.control?.matches(fields))) ||
        ((element instanceof HTMLButtonElement || element instanceof HTMLInputElement) &&
          [...(element.form?.elements ?? [])].some((field) => field.matches(fields)));
      const covered: string[] = [];
      for (const element of document.querySelectorAll(controls)) {
        if (card.contains(element) || (only && !typing(element))) continue;
        const r = element.getBoundingClientRect();
        if (!element.checkVisibility({ visibilityProperty: true })) continue;
        if (!r.width || !r.height || r.bottom <= 0 || r.top >= window.innerHeight) continue;
        if (r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom) {
          covered.push(element.getAttribute("aria-label") ?? (element.textContent?.trim() || element.outerHTML.slice(0, 60)));
        }
      }
      return covered;
    },
    [CONTROLS, FIELDS, fieldsOnly] as const,
  );
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

test("on a member's home the toast sits at an edge of the window, not mid-screen (ux-2 N12)", async ({ page, js, signUp }) => {
  test.skip(!js, "without JavaScript the toast is part of the page, above the content");
  await page.setViewportSize(PHONE);
  const me = await signUp();
  await signInTo(page, me, "/");
  await hydrated(page);
  const header = await page.locator("body > header").evaluate((element) => element.getBoundingClientRect().bottom);
  // It follows the page at the next frame after hydration.
  await expect
    .poll(async () => {
      const t = await page.getByTestId("toast").evaluate((card) => card.getBoundingClientRect());
      const atBottom = t.bottom >= PHONE.height - 16 - 1 && t.bottom <= PHONE.height;
      const atTop = t.top >= header && t.top <= header + 8 + 1;
      return atBottom || atTop ? "at an edge" : `top ${Math.round(t.top)}, bottom ${Math.round(t.bottom)}`;
    })
    .toBe("at an edge");
  expect(await coveredControls(page)).toEqual([]);
  // Nor the page's own top: its heading and first button (people.spec.ts).
  await expect(page.getByRole("link", { name: "Share Your Story" })).toBeInViewport();
});

import type { Page } from "@playwright/test";
import { expect, hydrated, savedPage, test, uniqueName } from "./fixtures";

/**
 * ux-3 U18 (ux-2 N18): a saved page reopened offline, by a typed address or a reload, must hydrate
 * as it was saved. The worker opened a page read by tapping (its loader data saved, no document) on
 * another page's saved document with its own script first in the head (app/sw/open-saved.ts); React
 * 18 hydrates the whole document, met that extra <script>, and threw #418 twelve times and #423,
 * then drew the whole page again on the client. Service workers need JavaScript: js-on only.
 */
test.describe("saved pages hydrate as saved", () => {
  test.skip(({ js }) => !js, "service workers need JavaScript");

  /** React's hydration errors, minified (#418 the UI did not match, #423 recovered by a client render, #425 text) or not. */
  const HYDRATION = /Minified React error #(418|423|425)\b|Hydration failed|did not match|error while hydrating/i;

  function hydrationErrors(page: Page): string[] {
    const seen: string[] = [];
    page.on("console", (message) => {
      if (HYDRATION.test(message.text())) seen.push(`console.${message.type()}: ${message.text().split("\n")[0]}`);
    });
    page.on("pageerror", (error) => {
      if (HYDRATION.test(`${error.message}`)) seen.push(`pageerror: ${error.message}`);
    });
    return seen;
  }

  const note = (page: Page) => page.getByTestId("saved-copy-note");

  /** The saved post is on screen, hydrated, with its note, and React said nothing of a mismatch. */
  async function showsSavedPost(page: Page, post: { title: string; content: string }, path: string, errors: string[], note_: RegExp) {
    await expect(page).toHaveURL(path);
    await expect(page.getByTestId("post").getByRole("heading", { level: 1 })).toHaveText(post.title);
    await expect(page.getByText(post.content)).toBeVisible();
    await expect(note(page)).toHaveText(note_);
    await expect(page.getByRole("heading", { name: "You're out of signal" })).toHaveCount(0);
    await hydrated(page);
    // React reports a mismatch as it hydrates; give a slow machine time to say it.
    await page.waitForTimeout(1_000);
    expect(errors).toEqual([]);
  }

  test("a post read by tapping a link reopens offline by reload and by its address without a hydration mismatch", async ({
    page,
    context,
    open,
    signUp,
    createPost,
  }) => {
    const errors = hydrationErrors(page);
    await signUp();
    const post = await createPost({ title: `Hydrate offline ${uniqueName("h")}` });
    const path = `/post/${post.id}`;
    await open("/");
    await savedPage(page, "/");
    await page.getByRole("link", { name: post.title }).first().click();
    await expect(page.getByTestId("post").getByRole("heading", { level: 1 })).toHaveText(post.title);
    await savedPage(page, `${path}.data`);
    // Its document was never fetched: it opens on the feed's saved document (app/sw/open-saved.ts).
    expect(await page.evaluate((url) => caches.match(url, { ignoreVary: true }).then(Boolean), path)).toBe(false);
    expect(errors).toEqual([]);

    // Three hours later by the page's clock: every "… ago" the saved HTML says is now out of date.
    await context.setOffline(true);
    await page.clock.setFixedTime(Date.now() + 3 * 60 * 60 * 1000);
    await page.reload();
    await showsSavedPost(page, post, path, errors, /^Saved copy from about 3 hours ago$/);

    // Typed into the address bar from another page.
    await page.goto("/");
    await expect(page.getByRole("link", { name: post.title }).first()).toBeVisible();
    await hydrated(page);
    await page.goto(path);
    await showsSavedPost(page, post, path, errors, /^Saved copy from about 3 hours ago$/);
  });

  test("a post opened by its address reopens offline by reload and by its address without a hydration mismatch", async ({
    page,
    context,
    open,
    signUp,
    createPost,
  }) => {
    const errors = hydrationErrors(page);
    await signUp();
    const post = await createPost({ title: `Hydrate saved ${uniqueName("d")}` });
    const path = `/post/${post.id}`;
    await open("/");
    await savedPage(page, "/");
    await open(path);
    await savedPage(page, path);

    await context.setOffline(true);
    await page.clock.setFixedTime(Date.now() + 3 * 60 * 60 * 1000);
    await page.reload();
    await showsSavedPost(page, post, path, errors, /^Saved copy from about 3 hours ago$/);

    await page.goto("/");
    await hydrated(page);
    await page.goto(path);
    await showsSavedPost(page, post, path, errors, /^Saved copy from about 3 hours ago$/);
  });
});

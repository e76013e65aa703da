import type { Page } from "@playwright/test";
import { expect, savedPage, setSiteRole, test, uniqueName } from "./fixtures";

/**
 * Issue 27: removed content is gone "from the service worker's saved pages on the next visit". A
 * member reads a post (its document and its loader data are saved for offline reading), a moderator
 * removes it, and the member's next visit online gets the 404: from then on no saved copy of it is
 * left, so offline the post is not shown again (the offline page instead). Service workers need
 * JavaScript: js-on only.
 */
test.describe("saved pages of removed content", () => {
  test.skip(({ js }) => !js, "service workers need JavaScript");

  /** The saved pages' addresses (path and query) of this post: its document and any loader data. */
  const savedCopiesOf = (page: Page, postId: number) =>
    page.evaluate(async (path) => {
      const cache = await caches.open("pages");
      return (await cache.keys())
        .map((key) => new URL(key.url))
        .filter((url) => url.pathname === path || url.pathname === `${path}.data`)
        .map((url) => url.pathname + url.search);
    }, `/post/${postId}`);

  test("a post removed by a moderator is dropped from the member's saved pages on their next visit, and not shown offline", async ({
    page,
    context,
    open,
    signUp,
    createPost,
    newPage,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const authorPage = await newPage();
    await signUp(authorPage, "au");
    const post = await createPost({ title: `Soon removed ${uniqueName("r")}` }, authorPage);

    // The member reads it by tapping it in the feed (loader data saved), then opens it (document saved).
    await signUp(page, "rd");
    await open("/");
    await savedPage(page, "/");
    await page.getByRole("link", { name: post.title }).first().click();
    await expect(page.getByTestId("post").getByRole("heading", { level: 1 })).toHaveText(post.title);
    await expect.poll(async () => (await savedCopiesOf(page, post.id)).some((url) => url.includes(".data"))).toBe(true);
    await open(`/post/${post.id}`);
    await savedPage(page, `/post/${post.id}`);

    // A moderator removes it.
    const modPage = await newPage();
    const moderator = await signUp(modPage, "mod");
    setSiteRole(moderator.username, "moderator");
    const removed = await modPage.request.post(`/api/moderation/posts/${post.id}/remove`, {
      data: { reason: "Selling tags is not allowed here" },
      headers: { Origin: baseURL! },
    });
    expect(removed.status(), await removed.text()).toBe(200);

    // The member's next visit, online: the server's 404, and no saved copy of the post is left.
    const gone = await page.goto(`/post/${post.id}`);
    expect(gone?.status()).toBe(404);
    await expect.poll(() => savedCopiesOf(page, post.id)).toEqual([]);

    // Offline: the offline page, not the removed post.
    await page.goto("/");
    await context.setOffline(true);
    await page.goto(`/post/${post.id}`);
    await expect(page.getByRole("heading", { name: "You're out of signal" })).toBeVisible();
    await expect(page.getByText(post.title)).toHaveCount(0);
    await context.setOffline(false);
  });
});

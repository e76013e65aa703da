import type { Page } from "@playwright/test";
import { expect, hydrated, test, uniqueName } from "./fixtures";

/**
 * Issue 13, a member's home twice as fast (docs/decisions/0048, docs/caching.md): the render cache draws each feed card
 * once for what it shows and keeps it. A kept card must still be each viewer's own (their like,
 * the author's menu), be drawn again when it changes, and hydrate as if drawn in place.
 */

const card = (page: Page, title: string) => page.getByTestId("post-card").filter({ hasText: title });

function pageErrors(page: Page) {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

test("a kept card is each viewer's own, is drawn again after a like, and hydrates without a mismatch", async ({
  page,
  js,
  open,
  signUp,
  createPost,
  newPage,
}) => {
  await signUp(page, "ca");
  const tag = uniqueName("kc").replace(/_/g, "");
  const post = await createPost({ title: `Kept card ${tag}`, tags: [tag] });
  const feed = `/?search=${encodeURIComponent(`#${tag}`)}`;
  const authorErrors = pageErrors(page);

  // The author sees their menu, twice over (the second answer is the kept card).
  for (let i = 0; i < 2; i++) {
    await open(feed);
    await expect(card(page, post.title).getByTestId("post-owner-menu")).toHaveCount(1);
    await expect(card(page, post.title).getByTestId("like-count")).toHaveText("0");
  }

  // Another member is not shown the author's card: no menu; their like is theirs.
  const other = await newPage();
  const otherErrors = pageErrors(other);
  await signUp(other, "cb");
  await open(feed, other);
  await expect(card(other, post.title).getByTestId("post-owner-menu")).toHaveCount(0);
  const liked = other.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname.replace(/\.data$/, "") === `/post/${post.id}`,
  );
  await card(other, post.title).getByTestId("like-button").click();
  await liked;
  await open(feed, other);
  await expect(card(other, post.title).getByTestId("like-button")).toHaveAttribute("aria-pressed", "true");
  await expect(card(other, post.title).getByTestId("like-count")).toHaveText("1");

  // The author's kept card is drawn again: one like, not theirs, and still their menu.
  await open(feed);
  await expect(card(page, post.title).getByTestId("like-count")).toHaveText("1");
  await expect(card(page, post.title).getByTestId("like-button")).toHaveAttribute("aria-pressed", "false");
  await expect(card(page, post.title).getByTestId("post-owner-menu")).toHaveCount(1);

  if (js) {
    // Hydrated over the kept HTML: no mismatch reported, and the card's controls are React's.
    await hydrated(page);
    const unliked = page.waitForResponse(
      (r) => r.request().method() === "POST" && new URL(r.url()).pathname.replace(/\.data$/, "") === `/post/${post.id}`,
    );
    await card(page, post.title).getByTestId("like-button").click();
    await expect(card(page, post.title).getByTestId("like-count")).toHaveText("2");
    await unliked;
    expect(authorErrors).toEqual([]);
    expect(otherErrors).toEqual([]);
  }
});

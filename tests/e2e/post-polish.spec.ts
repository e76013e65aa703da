import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * Posts as a member meets them (issue 14): the edit form keeps what was typed, long words wrap,
 * the byline keeps its time on a phone, times name their zone, keyboard focus comes back to the
 * post menu, and a repeated tag is explained. Each test runs with JavaScript off and on, except
 * where the behaviour exists in one of them only.
 */

const PHONE = { width: 390, height: 844 };

/** The page does not scroll sideways: nothing is wider than the window. */
async function expectNoSideScroll(page: Page) {
  const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, win: window.innerWidth }));
  expect(widths.doc).toBeLessThanOrEqual(widths.win);
}

test("no JavaScript: a cleared field stays cleared beside its message (audit #9)", async ({ page, js, open, signUp, createPost }) => {
  test.skip(js, "with JavaScript Update stays disabled while Title or Content is empty");
  await signUp();
  const post = await createPost({ title: "The stored title", content: "The stored content, long enough." });
  await open(`/post/${post.id}?edit=1`);
  const form = page.getByTestId("edit-post-form");
  await form.getByLabel("Title").fill("");
  await form.getByLabel("Content", { exact: true }).fill("");
  await form.getByLabel("Tags").fill("kept, typed");
  await form.getByRole("button", { name: "Update Post" }).click();
  await expect(form).toContainText("Title is required");
  await expect(form).toContainText("Content must be at least 10 characters");
  await expect(form.getByLabel("Title")).toHaveValue("");
  await expect(form.getByLabel("Content", { exact: true })).toHaveValue("");
  await expect(form.getByLabel("Tags")).toHaveValue("kept, typed");
});

test("a title or URL with no break points wraps on cards, the post page and the profile (audit #13)", async ({
  page,
  open,
  signUp,
  createPost,
}) => {
  const me = await signUp();
  const post = await createPost({
    title: "x".repeat(200),
    content: `https://example.com/${"a".repeat(300)}`,
    type: "video",
    mediaUrl: `https://example.com/${"b".repeat(300)}`,
  });
  for (const size of [PHONE, { width: 1280, height: 900 }]) {
    await page.setViewportSize(size);
    for (const url of ["/", `/post/${post.id}`, `/profile/${me.username}`]) {
      await open(url);
      await expect(page.getByText("x".repeat(200)).first()).toBeVisible();
      await expectNoSideScroll(page);
    }
  }
});

test("on a phone the card byline shows its whole time beside the badge and the owner menu (audit #15)", async ({
  page,
  open,
  signUp,
  createPost,
}) => {
  const me = await signUp(undefined, "longername_x");
  await createPost({ type: "podcast", mediaUrl: "https://example.com/pod/1" });
  await page.setViewportSize(PHONE);
  await open(`/profile/${me.username}`);
  const card = page.getByTestId("post-card").first();
  await expect(card.getByLabel("Post options")).toBeVisible();
  const time = card.locator("header time");
  await expect(time).toHaveText(/ago$/);
  const fits = await time.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const row = el.closest("p")!.getBoundingClientRect();
    return { time: [box.left, box.right], row: [row.left, row.right], clip: el.closest("p")!.scrollWidth - el.closest("p")!.clientWidth };
  });
  expect(fits.time[1]).toBeLessThanOrEqual(fits.row[1] + 0.5);
  expect(fits.clip).toBeLessThanOrEqual(0);
  await expectNoSideScroll(page);
});

test.describe("no-JavaScript edit form's Media URL (audit #18)", () => {
  test("shown for a video post, folded away with its reason for an article", async ({ page, js, open, signUp, createPost }) => {
    test.skip(js, "with JavaScript the dialog shows the field as the type changes (posts.spec.ts)");
    await signUp();
    const video = await createPost({ type: "video", mediaUrl: "https://example.com/v/9" });
    await open(`/post/${video.id}?edit=1`);
    let form = page.getByTestId("edit-post-form");
    await expect(form.getByLabel("Media URL")).toBeVisible();
    await expect(form.getByLabel("Media URL")).toHaveValue("https://example.com/v/9");

    const article = await createPost({ type: "article", mediaUrl: "https://example.com/a/1" });
    await open(`/post/${article.id}?edit=1`);
    form = page.getByTestId("edit-post-form");
    await expect(form.getByLabel("Media URL")).toBeHidden();
    await expect(form.getByText("Media URL (only for video or podcast posts)")).toBeVisible();
    // Folded, the stored link still travels with the form.
    await form.getByLabel("Title").fill("An article, edited");
    await form.getByRole("button", { name: "Update Post" }).click();
    await expect(page.getByTestId("toast")).toContainText("Post updated");
    await expect(page.getByTestId("post").getByTestId("media-link")).toHaveText("https://example.com/a/1");
  });
});

test("after Escape or Cancel in the Edit or Delete Post dialog, focus is back on the ⋯ button (audit #29)", async ({
  page,
  js,
  open,
  signUp,
  createPost,
}) => {
  test.skip(!js, "without JavaScript these are pages, not dialogs");
  await signUp();
  const post = await createPost();
  await open("/");
  const card = page.locator(`#post-${post.id}`);
  const menu = card.getByLabel("Post options");
  for (const [item, close] of [
    ["Edit Post", "Escape"],
    ["Delete Post", "Cancel"],
  ] as const) {
    await menu.focus();
    await page.keyboard.press("Enter");
    await card.getByRole("link", { name: item }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole(item === "Edit Post" ? "dialog" : "alertdialog", { name: item });
    await expect(dialog).toBeVisible();
    if (close === "Escape") await page.keyboard.press("Escape");
    else await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(menu).toBeFocused();
  }
});

test.describe("exact times name their zone (audit #30)", () => {
  test.use({ timezoneId: "America/Chicago" });
  test("the reader's zone with JavaScript, UTC (labelled) without", async ({ page, js, open, createPost, signUp }) => {
    await signUp();
    const post = await createPost();
    await open(`/post/${post.id}`);
    const time = page.getByTestId("post").locator("header time");
    await expect(time).toHaveAttribute("title", js ? /\d{1,2}:\d{2} [AP]M C[SD]T$/ : /\d{1,2}:\d{2} [AP]M UTC$/);
  });
});

test("adding a tag that is already there says so (audit #32)", async ({ page, js, open, signUp }) => {
  test.skip(!js, "without JavaScript tags are one comma-separated field, de-duplicated on save");
  await signUp();
  await open("/create");
  const form = page.getByRole("form", { name: "Create Post" });
  const tags = form.getByLabel("Tags", { exact: true });
  await tags.fill("tag1");
  await tags.press("Enter");
  await tags.fill("TAG1");
  await tags.press("Enter");
  await expect(form.getByTestId("editor-tags").getByRole("listitem")).toHaveCount(1);
  await expect(form.getByTestId("tags-notice")).toHaveText('"#tag1" is already added');
  await tags.fill("rut");
  await tags.press("Enter");
  await expect(form.getByTestId("tags-notice")).toHaveText("");
});

test("← Back on a post page returns to the filtered feed, profile or club the member came from (Beyond SPEC #5)", async ({
  page,
  open,
  signUp,
  createPost,
}) => {
  const me = await signUp();
  const post = await createPost({ title: `Backtrack ${me.username}`, type: "opinion" });
  const feed = `/?type=opinion&search=${encodeURIComponent(`Backtrack ${me.username}`)}`;
  for (const [from, label] of [
    [feed, "Back to feed"],
    [`/profile/${me.username}`, "Back to profile"],
  ] as const) {
    await open(from);
    await page.getByTestId("post-card").filter({ hasText: post.title }).getByRole("link", { name: post.title }).click();
    await expect(page).toHaveURL(new RegExp(`/post/${post.id}$`));
    const back = page.getByTestId("back-link");
    await expect(back).toHaveText(`← ${label}`);
    await back.click();
    await expect(page).toHaveURL(
      (url) => `${url.pathname}${url.search}` === new URL(from, "http://x").pathname + new URL(from, "http://x").search,
    );
  }
  // Opened directly, or from another site: the feed.
  await page.setExtraHTTPHeaders({ Referer: "https://evil.example/profile/x" });
  await open(`/post/${post.id}`);
  await expect(page.getByTestId("back-link")).toHaveAttribute("href", "/");
});

import type { Page } from "@playwright/test";
import { expect, test, uniqueName } from "./fixtures";

/**
 * Issue 13 (docs/decisions/0037-cheaper-home-rendering.md): a feed card carries only its post's
 * 200-character preview. Editing from the card must start from, and save, the whole body: with
 * JavaScript the dialog reads it when it opens (and stays usable while it comes, or when it does
 * not); without JavaScript the card's Edit Post link leads to /post/{id}?edit=1, whose form holds
 * the whole body.
 */

const card = (page: Page, title: string) => page.getByTestId("post-card").filter({ hasText: title });
const BODY = `${"Frost on the food plot, wind out of the northwest. ".repeat(8)}The last line, far past the preview.`;

// The request log below must see the dialog's read, not a service worker's.
test.use({ serviceWorkers: "block" });

test("editing from a card starts from the whole body, never the preview", async ({ page, js, open, signUp, createPost }) => {
  await signUp();
  const tag = uniqueName("fb").replace(/_/g, "");
  const post = await createPost({ title: `Long sit ${tag}`, content: BODY, tags: [tag] });
  await open(`/?search=${encodeURIComponent(`#${tag}`)}`);
  const c = card(page, post.title);
  await expect(c.getByTestId("post-excerpt")).not.toContainText("The last line");

  // A slow link: the whole body takes a while to come.
  let release: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (release = resolve));
  if (js) {
    await page.route(`**/api/posts/${post.id}`, async (route) => {
      await arrived;
      await route.continue();
    });
  }
  await c.getByLabel("Post options").click();
  await c.getByRole("link", { name: "Edit Post" }).click();
  const form = js ? page.getByRole("dialog", { name: "Edit Post" }) : page.getByTestId("edit-post-form");
  if (js) {
    // Meanwhile the dialog says what it waits for, offers Cancel and the post's own edit page, and
    // shows no form that could save the preview.
    await expect(form.getByRole("status")).toHaveText("Loading the whole post…");
    await expect(form.getByRole("button", { name: "Cancel" })).toBeVisible();
    await expect(form.getByRole("link", { name: "Edit on the post's page" })).toHaveAttribute("href", `/post/${post.id}?edit=1`);
    await expect(form.getByLabel("Content")).toHaveCount(0);
    release();
  } else {
    await expect(page).toHaveURL(new RegExp(`/post/${post.id}\\?edit=1$`));
  }
  await expect(form.getByLabel("Content")).toHaveValue(BODY);
  await form.getByLabel("Title").fill(`Long sit ${tag} (edited)`);
  await form.getByRole("button", { name: "Update Post" }).click();
  await expect(page.getByTestId("toast")).toContainText("Post updated");
  const saved = await (await page.request.get(`/api/posts/${post.id}`)).json();
  expect(saved).toMatchObject({ title: `Long sit ${tag} (edited)`, content: BODY });
});

test("when the whole body cannot be read, the dialog says so and Try again reads it", async ({ page, js, open, signUp, createPost }) => {
  test.skip(!js, "the dialog is JavaScript's; without it the edit page loads the whole body (above)");
  await signUp();
  const tag = uniqueName("fb").replace(/_/g, "");
  const post = await createPost({ title: `Lost signal ${tag}`, content: BODY, tags: [tag] });
  await open(`/?search=${encodeURIComponent(`#${tag}`)}`);
  await page.route(`**/api/posts/${post.id}`, (route) => route.abort("internetdisconnected"));
  const c = card(page, post.title);
  await c.getByLabel("Post options").click();
  await c.getByRole("link", { name: "Edit Post" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Post" });
  await expect(dialog.getByRole("alert")).toContainText("Could not load the whole post");
  await expect(dialog.getByLabel("Content")).toHaveCount(0);
  await page.unroute(`**/api/posts/${post.id}`);
  await dialog.getByRole("button", { name: "Try again" }).click();
  await expect(dialog.getByLabel("Content")).toHaveValue(BODY);
});

import type { BrowserContext, Page } from "@playwright/test";
import sharp from "sharp";
import { expect, expectNoAxeViolations, hydrated, test, uniqueName } from "./fixtures";

/**
 * Graphic photos (issue 43 items 4 and 5, CONTRACT.md §14, docs/decisions/0091-graphic-photos.md): a
 * post marked `sensitive` shows a "Show photo" box instead of its pictures to visitors and to members
 * who blur graphic photos (the default), with JavaScript off and on: a closed <details> holding no
 * address of the picture, so nothing of it is fetched before the member asks; "Show photo" opens it
 * in place (with JavaScript the picture is drawn there; without it, a tap-to-load box whose tap opens
 * the smallest variant); a member who turned the setting off sees them as any other.
 */

// Requests are counted per page: the service worker would answer some of them from its cache.
test.use({ serviceWorkers: "block" });

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

type Stored = { url: string; variants: Array<{ url: string }> };

/** The stored file's name without its extension: every variant's address starts with it. */
const stem = (photo: Stored) => photo.url.replace(/\.[a-z]+$/, "");

/** Every /media/ request a context makes. */
function recordMedia(context: BrowserContext): string[] {
  const seen: string[] = [];
  context.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith("/media/")) seen.push(path);
  });
  return seen;
}

/** A new member (signed in on `page`) and their post with one photo, marked graphic or not. */
async function graphicPost(page: Page, baseURL: string, sensitive = true) {
  const username = uniqueName("gfx");
  const headers = { Origin: baseURL };
  const register = await page.request.post("/api/auth/register", {
    data: { username, displayName: `Hunter ${username}`, email: `${username}@example.com`, password: "secret123" },
    headers,
  });
  expect(register.status()).toBe(201);
  const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 120, g: 30, b: 20 } } })
    .png()
    .toBuffer();
  const upload = await page.request.post("/api/upload", {
    multipart: { file: { name: "harvest.png", mimeType: "image/png", buffer: png } },
    headers,
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const photo = (await upload.json()) as Stored;
  const title = `Harvest ${uniqueName("t")}`;
  const res = await page.request.post("/api/posts", {
    data: { title, content: "Field dressed before the rain came in.", type: "article", uploadedFiles: [photo.url], sensitive },
    headers,
  });
  expect(res.status(), await res.text()).toBe(201);
  const post = (await res.json()) as { id: number; sensitive: boolean };
  expect(post.sensitive).toBe(sensitive);
  return { id: post.id, title, photo, username };
}

/** The cover is shown, no element names the picture (no src, srcset), and nothing of it was fetched. */
async function expectCovered(page: Page, photo: Stored, media: string[]) {
  const cover = page.locator("details.graphic-cover").first();
  await expect(cover).toBeVisible();
  await expect(cover).not.toHaveAttribute("open");
  await expect(cover.locator("summary")).toHaveText("Show photo");
  await expect(page.getByTestId("post-image")).toHaveCount(0);
  const images = await page.evaluate(
    (prefix) => Array.from(document.querySelectorAll("img, source, video")).filter((el) => el.outerHTML.includes(prefix)).length,
    stem(photo),
  );
  expect(images).toBe(0);
  await page.waitForTimeout(500);
  expect(media.filter((path) => path.startsWith(stem(photo)))).toEqual([]);
}

test("a visitor sees the cover on the feed and the post page, fetches nothing of the picture, and Show photo reveals it", async ({
  page,
  browser,
  js,
  baseURL,
}) => {
  const post = await graphicPost(page, baseURL!);
  const context = await browser.newContext({ ...PHONE, baseURL, javaScriptEnabled: js, serviceWorkers: "block" });
  const media = recordMedia(context);
  const visitor = await context.newPage();

  await visitor.goto(`/?search=${encodeURIComponent(post.title)}`);
  await expectCovered(visitor, post.photo, media);

  await visitor.goto(`/profile/${post.username}`);
  await expectCovered(visitor, post.photo, media);

  await visitor.goto(`/post/${post.id}`);
  if (js) await hydrated(visitor);
  await expectCovered(visitor, post.photo, media);
  const show = visitor.locator("details.graphic-cover > summary");
  const box = await show.boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(44);
  expect(box!.width).toBeGreaterThanOrEqual(44);
  if (js) await expectNoAxeViolations(visitor);

  // In place: the same page, under the bar that hides it again.
  await show.click();
  await expect(visitor.locator("details.graphic-cover")).toHaveAttribute("open", "");
  if (!js) {
    // Without scripts the box is a link to the smallest variant, still nothing fetched until it is tapped.
    const placeholder = visitor.getByTestId("image-placeholder");
    await expect(placeholder).toBeVisible();
    await expect(placeholder).toContainText("Graphic photo");
    const height = (await placeholder.boundingBox())!.height;
    expect(height).toBeGreaterThanOrEqual(44);
    await visitor.waitForTimeout(300);
    expect(media.filter((path) => path.startsWith(stem(post.photo)))).toEqual([]);
    await placeholder.click();
    await expect(visitor).toHaveURL(new RegExp(`${post.photo.variants[0]!.url}$`));
    expect(media).toContain(post.photo.variants[0]!.url);
    expect(media).not.toContain(post.photo.url);
    await context.close();
    return;
  }
  const image = visitor.getByTestId("post-image");
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
  await expect(visitor).toHaveURL(new RegExp(`/post/${post.id}$`));
  expect((await show.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await expectNoAxeViolations(visitor);
  expect(media.some((path) => path.startsWith(stem(post.photo)))).toBe(true);
  // The original only ever through the post page's explicit link.
  expect(media).not.toContain(post.photo.url);
  await context.close();
});

test("a member blurs graphic photos by default; with the setting off they show as any other, and on again they wait", async ({
  page,
  open,
  js,
  baseURL,
}) => {
  const post = await graphicPost(page, baseURL!);
  const plain = await graphicPost(page, baseURL!, false);
  const media = recordMedia(page.context());

  await open(`/post/${post.id}`);
  await expectCovered(page, post.photo, media);
  // A post not marked shows its picture.
  await open(`/post/${plain.id}`);
  await expect(page.getByTestId("post-image")).toBeVisible();
  await expect(page.locator("details.graphic-cover")).toHaveCount(0);

  await open("/settings?tab=privacy");
  const settings = page.getByTestId("data-saver-settings");
  const box = settings.getByLabel("Blur graphic photos");
  await expect(box).toBeChecked();
  const label = await settings.locator("label").filter({ hasText: "Blur graphic photos" }).boundingBox();
  expect(label!.height).toBeGreaterThanOrEqual(44);
  if (js) await expectNoAxeViolations(page);
  await box.uncheck();
  await settings.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Graphic photos shown");
  await expect(settings.getByLabel("Blur graphic photos")).not.toBeChecked();

  await open(`/post/${post.id}`);
  const image = page.getByTestId("post-image");
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
  await expect(page.locator("details.graphic-cover")).toHaveCount(0);

  // On again: the same page (no stale copy) waits behind the box once more.
  await open("/settings?tab=privacy");
  await settings.getByLabel("Blur graphic photos").check();
  await settings.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Graphic photos blurred");
  await open(`/post/${post.id}`);
  await expect(page.locator("details.graphic-cover > summary")).toBeVisible();
  await expect(page.getByTestId("post-image")).toHaveCount(0);
});

test("the author marks a post on the create form and clears the mark on the edit form", async ({ page, open, signUp, js, baseURL }) => {
  await signUp();
  await open("/create");
  const title = `Graphic ${uniqueName("c")}`;
  const form = page.getByRole("form", { name: "Create Post" });
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Content", { exact: true }).fill("A doe hit by a truck on the county road.");
  const graphic = form.getByLabel("Graphic photo");
  const box = await page.locator("label", { has: page.getByTestId("graphic-photo-input") }).boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(44);
  await graphic.check();
  if (js) await expectNoAxeViolations(page);
  await form.getByRole("button", { name: "Publish Post" }).click();
  await expect(page).toHaveURL(/\/post\/\d+$/);
  const id = Number(/\/post\/(\d+)$/.exec(page.url())![1]);
  const read = async () => ((await (await page.request.get(`/api/posts/${id}`)).json()) as { sensitive: boolean }).sensitive;
  expect(await read()).toBe(true);

  await open(`/post/${id}?edit=1`);
  const edit = page.getByTestId("edit-post-form");
  await expect(edit.getByLabel("Graphic photo")).toBeChecked();
  await edit.getByLabel("Graphic photo").uncheck();
  await edit.getByRole("button", { name: "Update Post" }).click();
  await expect(page.getByTestId("toast")).toContainText("Post updated");
  await expect.poll(read).toBe(false);
  expect(baseURL).toBeTruthy();
});

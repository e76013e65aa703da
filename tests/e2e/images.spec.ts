import type { Browser, BrowserContext, Page, Request } from "@playwright/test";
import sharp from "sharp";
import { expect, test, uniqueName } from "./fixtures";

/**
 * Right-sized images and data saver (issue 12, CONTRACT.md §6,
 * docs/decisions/0036-right-sized-images-and-data-saver.md): phones download a WebP variant and
 * never the full-size picture, on the feed and the post page; with `Save-Data: on` or the member's
 * setting, pictures are tap-to-load placeholders with their size, nothing of them is fetched until
 * the tap, the tap loads the smallest variant, and video loads nothing before play.
 */

// Requests are counted per page: the service worker would answer some of them from its cache.
test.use({ serviceWorkers: "block" });

const PHONES = [
  { name: "390 px @3", viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 },
  { name: "412 px @2.625", viewport: { width: 412, height: 915 }, deviceScaleFactor: 2.625 },
];

/** Noise compresses badly, like the audit's photo: a 2000×1400 JPEG of about 1 MB. */
function noisyPhoto() {
  const width = 2000;
  const height = 1400;
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The first bytes of an MP4: enough for the server to store it as a video. */
const MP4 = Buffer.concat([Buffer.from("000000206674797069736f6d0000020069736f6d69736f326176633161766331", "hex"), Buffer.alloc(8192, 7)]);

type Stored = { url: string; variants: Array<{ url: string; width: number; size: number }> };

/** A post with a big photo and a video, made by a new member through the API (the page's context is signed in as them). */
async function postWithPhoto(page: Page, baseURL: string) {
  const username = uniqueName("img");
  const register = await page.request.post("/api/auth/register", {
    data: { username, displayName: `Hunter ${username}`, email: `${username}@example.com`, password: "secret123" },
    headers: { Origin: baseURL },
  });
  expect(register.status()).toBe(201);
  const upload = async (name: string, mimeType: string, buffer: Buffer) => {
    const res = await page.request.post("/api/upload", { multipart: { file: { name, mimeType, buffer } }, headers: { Origin: baseURL } });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as Stored;
  };
  const photo = await upload("ridge.jpg", "image/jpeg", await noisyPhoto());
  const video = await upload("walk.mp4", "video/mp4", MP4);
  const title = `Ridge photo ${uniqueName("t")}`;
  const res = await page.request.post("/api/posts", {
    data: {
      title,
      content: "The ridge camera caught this buck at first light.",
      type: "article",
      uploadedFiles: [photo.url, video.url],
    },
    headers: { Origin: baseURL },
  });
  expect(res.status(), await res.text()).toBe(201);
  const post = (await res.json()) as { id: number };
  return { id: post.id, title, photo, video };
}

/** Every image or media request the context makes, by path. */
function recordMedia(context: BrowserContext): string[] {
  const seen: string[] = [];
  context.on("request", (request: Request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith("/media/")) seen.push(path);
  });
  return seen;
}

/** A visitor's phone (its own context), with every /media/ request it makes recorded. */
async function onPhone(browser: Browser, js: boolean, baseURL: string, phone: (typeof PHONES)[number], headers?: Record<string, string>) {
  const context = await browser.newContext({
    baseURL,
    viewport: phone.viewport,
    deviceScaleFactor: phone.deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
    javaScriptEnabled: js,
    serviceWorkers: "block",
    extraHTTPHeaders: headers,
  });
  const media = recordMedia(context);
  return { context, media, phonePage: await context.newPage() };
}

/** The picture is on screen and loaded; what it loaded. */
async function loadedSource(page: Page, image: ReturnType<Page["getByTestId"]>) {
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => image.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
  return new URL(await image.evaluate((el: HTMLImageElement) => el.currentSrc)).pathname;
}

for (const phone of PHONES) {
  test(`a ${phone.name} phone downloads a variant, never the original, on the feed and the post page`, async ({
    page,
    browser,
    js,
    baseURL,
  }) => {
    const post = await postWithPhoto(page, baseURL!);
    const { context, media, phonePage } = await onPhone(browser, js, baseURL!, phone);

    await phonePage.goto(`/post/${post.id}`);
    const onPost = await loadedSource(phonePage, phonePage.getByTestId("post-image"));
    expect(onPost).toMatch(/-(1080|1440)\.webp$/);
    // The one way to the original: the post page's explicit link.
    await expect(phonePage.locator("a", { has: phonePage.getByTestId("post-image") })).toHaveAttribute("href", post.photo.url);

    await phonePage.goto(`/?search=${encodeURIComponent(post.title)}`);
    const card = phonePage.getByTestId("post-card").filter({ hasText: post.title });
    const onFeed = await loadedSource(phonePage, card.getByTestId("post-image"));
    expect(onFeed).toMatch(/-(1080|1440)\.webp$/);

    expect(media).not.toContain(post.photo.url);
    expect(media.filter((path) => path.endsWith(".jpg"))).toEqual([]);
    await context.close();
  });
}

/** Nothing of the photo loaded, a placeholder with the smallest variant's size, and a video that loads nothing. */
async function expectPlaceholder(page: Page, post: Awaited<ReturnType<typeof postWithPhoto>>, media: string[]) {
  const placeholder = page.getByTestId("image-placeholder");
  await expect(placeholder).toBeVisible();
  await expect(placeholder).toContainText("Tap to load image");
  await expect(placeholder).toContainText(`ridge.jpg · ${Math.round(post.photo.variants[0]!.size / 1024)} KB`);
  await expect(placeholder).toHaveAttribute("href", post.photo.variants[0]!.url);
  await expect(page.getByTestId("post-image")).toHaveCount(0);
  await expect(page.getByTestId("post-video")).toHaveAttribute("preload", "none");
  await page.waitForTimeout(300);
  expect(media.filter((path) => path.startsWith(post.photo.url.replace(/\.jpg$/, "")))).toEqual([]);
  expect(media).not.toContain(post.video.url);
}

/** The tap loads the smallest variant: in place with JavaScript, as the file itself without. */
async function tapLoadsSmallest(page: Page, js: boolean, post: Awaited<ReturnType<typeof postWithPhoto>>, media: string[]) {
  const smallest = post.photo.variants[0]!.url;
  await page.getByTestId("image-placeholder").click();
  if (js) {
    const image = page.getByTestId("post-image");
    await expect(image).toHaveAttribute("src", smallest);
    await expect.poll(() => image.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(480);
    await expect(page.getByTestId("image-placeholder")).toHaveCount(0);
  } else {
    await expect(page).toHaveURL(new RegExp(`${smallest}$`));
  }
  expect(media).toContain(smallest);
  expect(media).not.toContain(post.photo.url);
}

test("Save-Data: on shows tap-to-load placeholders with their size; a tap loads the smallest variant", async ({
  page,
  browser,
  js,
  baseURL,
}) => {
  const post = await postWithPhoto(page, baseURL!);
  const { context, media, phonePage } = await onPhone(browser, js, baseURL!, PHONES[0]!, { "Save-Data": "on" });

  await phonePage.goto(`/?search=${encodeURIComponent(post.title)}`);
  await expectPlaceholder(phonePage, post, media);

  await phonePage.goto(`/post/${post.id}`);
  await expectPlaceholder(phonePage, post, media);
  if (js) await phonePage.waitForFunction(() => Object.keys(document.querySelector("main")!).some((k) => k.startsWith("__reactFiber")));
  await tapLoadsSmallest(phonePage, js, post, media);
  await context.close();
});

test("the member's Data saver setting on Settings › Privacy saves, shows its state, and turns pictures into placeholders", async ({
  page,
  js,
  open,
  baseURL,
}) => {
  const post = await postWithPhoto(page, baseURL!);
  const media = recordMedia(page.context());

  await open("/settings?tab=privacy");
  const settings = page.getByTestId("data-saver-settings");
  await expect(settings.getByTestId("data-saver-state")).toHaveText("Data saver is off.");
  await settings.getByLabel("Use data saver on this account").check();
  await settings.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Data saver on");
  await expect(settings.getByTestId("data-saver-state")).toHaveText("Data saver is on.");
  await expect(settings.getByLabel("Use data saver on this account")).toBeChecked();

  await open(`/post/${post.id}`);
  await expectPlaceholder(page, post, media);
  await tapLoadsSmallest(page, js, post, media);

  // Off again: the same page (no stale copy) shows the picture.
  await open("/settings?tab=privacy");
  await settings.getByLabel("Use data saver on this account").uncheck();
  await settings.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Data saver off");
  await expect(settings.getByTestId("data-saver-state")).toHaveText("Data saver is off.");
  await open(`/post/${post.id}`);
  await expect(page.getByTestId("image-placeholder")).toHaveCount(0);
  await expect(page.getByTestId("post-image")).toBeVisible();
});

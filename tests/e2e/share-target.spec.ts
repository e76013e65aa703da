import type { Page } from "@playwright/test";
import sharp from "sharp";
import { expect, expectNoAxeViolations, hydrated, test } from "./fixtures";

/**
 * Sharing from the phone (CONTRACT.md §14, issue 43 item 1, docs/decisions/0092-share-target.md).
 * Playwright cannot open Android's share sheet, so each test posts the manifest's share target form
 * (`POST /share`, multipart: title, text, url, files) from the browser as a navigation, the way the
 * browser posts it when the member picks the installed app: through the service worker (JavaScript
 * on), or straight to the server (JavaScript off, or the worker blocked).
 */

const SHARE = {
  title: "Big eight on the ridge",
  text: "Trail cam caught him at first light, heading down to the creek bottom.",
  url: "https://example.com/trailcam/clip",
};

async function trailCamPhoto(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 90, g: 70, b: 40 } } })
    .jpeg()
    .toBuffer();
}

const FORM = `<form method="post" action="/share" enctype="multipart/form-data">
  <input name="title"><textarea name="text"></textarea><input name="url">
  <input type="file" name="files" multiple><button type="submit">Share</button></form>`;

/**
 * Post the share form from a page of this origin: a plain HTML page served in place of
 * `/e2e-share-launcher` (needs no JavaScript, and no worker in the way), or with `inPage` a form
 * added to the page already open (the worker controls it).
 */
async function postShare(page: Page, { inPage = false, files = true }: { inPage?: boolean; files?: boolean } = {}) {
  if (inPage) {
    await page.evaluate((html) => {
      const holder = document.createElement("div");
      holder.id = "e2e-share";
      holder.innerHTML = html;
      document.body.append(holder);
    }, FORM);
  } else {
    await page.route("**/e2e-share-launcher", (route) =>
      route.fulfill({ contentType: "text/html", body: `<!doctype html><title>Gallery</title>${FORM}` }),
    );
    await page.goto("/e2e-share-launcher");
  }
  const form = page.locator("form[action='/share']");
  await form.locator("[name=title]").fill(SHARE.title);
  await form.locator("[name=text]").fill(SHARE.text);
  await form.locator("[name=url]").fill(SHARE.url);
  if (files)
    await form.locator("[name=files]").setInputFiles({ name: "trailcam.jpg", mimeType: "image/jpeg", buffer: await trailCamPhoto() });
  await form.getByRole("button", { name: "Share" }).click();
}

/** The create page with the share in it: the text in the fields and the photo among the uploads. */
async function expectSharedPost(page: Page) {
  const form = page.getByRole("form", { name: "Create Post" });
  await expect(form.getByLabel("Title", { exact: true })).toHaveValue(SHARE.title);
  await expect(form.getByLabel("Content", { exact: true })).toHaveValue(SHARE.text);
  await expect(form.getByLabel(/Media URL/)).toHaveValue(SHARE.url);
  await expect(page.getByRole("list", { name: "Uploaded files" })).toContainText("trailcam.jpg", { timeout: 20_000 });
}

async function publishAndSeePhoto(page: Page) {
  await page.getByRole("button", { name: "Publish Post" }).click();
  await expect(page.getByTestId("toast")).toContainText("Post created!");
  await expect(page).toHaveURL(/\/post\/\d+$/);
  await expect(page.getByTestId("post-image")).toBeVisible();
}

test("the manifest makes the site installable and names /share as its share target", async ({ page, request, js }) => {
  await page.goto("/");
  await expect(page.locator('head link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
  const answer = await request.get("/manifest.webmanifest");
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toMatch(/^application\/manifest\+json/);
  // A public file like the rest of public/: an hour (app/server/README.md step 3b).
  expect(answer.headers()["cache-control"]).toBe("public, max-age=3600");
  const manifest = (await answer.json()) as { share_target: { action: string }; icons: { src: string; sizes: string; type: string }[] };
  expect(manifest.share_target.action).toBe("/share");
  for (const icon of manifest.icons.filter((i) => i.type === "image/png")) {
    const file = await request.get(icon.src);
    expect(file.status(), icon.src).toBe(200);
    expect(file.headers()["content-type"]).toBe("image/png");
    const meta = await sharp(await file.body()).metadata();
    expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
  }
  if (js) {
    // Chromium reads it as an installable app's manifest.
    const cdp = await page.context().newCDPSession(page);
    const { errors } = (await cdp.send("Page.getAppManifest")) as { errors: { message: string }[] };
    expect(errors).toEqual([]);
    // …and as installable: manifest, icons, worker and a secure context (localhost) all there.
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
    const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: { errorId: string }[] };
    // Playwright's contexts are incognito profiles, where nothing installs; nothing else stands in the way.
    expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== "in-incognito")).toEqual([]);
  }
});

test("a signed-in member's share opens the create page with the text and the photo, published with it", async ({ page, js, signUp }) => {
  await signUp();
  if (js) {
    // Through the service worker: it keeps the share and opens /create?shared=…
    await page.goto("/");
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
    await postShare(page, { inPage: true });
    await expect(page).toHaveURL(/\/create\?shared=[\w-]+$/);
    await hydrated(page);
    await expectSharedPost(page);
    await expectNoAxeViolations(page);
    // The photo went up as the widget's resumable upload, and the inbox is empty again.
    expect(
      await page.evaluate(() =>
        caches
          .open("share-inbox")
          .then((c) => c.keys())
          .then((k) => k.length),
      ),
    ).toBe(0);
  } else {
    await postShare(page);
    await expect(page).toHaveURL(/\/create\?share=[\w-]+$/);
    await expectSharedPost(page);
  }
  await publishAndSeePhoto(page);
});

test("without the worker, the server takes the share and opens the create page with it", async ({ browser, baseURL, js, signUp }) => {
  test.skip(!js, "JavaScript off has no worker: the test above is this path");
  const context = await browser.newContext({ baseURL, serviceWorkers: "block" });
  const page = await context.newPage();
  await signUp(page);
  await postShare(page);
  await expect(page).toHaveURL(/\/create\?share=[\w-]+$/);
  await hydrated(page);
  await expectSharedPost(page);
  await publishAndSeePhoto(page);
  await context.close();
});

test("signed out: sign in, and the shared text and photo come back", async ({ page, js, signUp, browser, baseURL }) => {
  const member = await signUp(await browser.newContext({ baseURL }));
  // Without the worker (JavaScript off, or blocked): the server holds the share for an hour.
  const context = js ? await browser.newContext({ baseURL, serviceWorkers: "block" }) : page.context();
  const visitor = js ? await context.newPage() : page;
  await postShare(visitor);
  await expect(visitor).toHaveURL(/\/auth\?.*redirectTo=%2Fshare%2F[\w-]+/);
  const form = visitor.locator("form#login");
  await form.getByLabel("Username").fill(member.username);
  await form.getByLabel("Password").fill(member.password);
  await form.getByRole("button", { name: "Sign In" }).click();
  await expect(visitor).toHaveURL(/\/share\/[\w-]+$/);
  if (js) await hydrated(visitor);
  const take = visitor.getByRole("button", { name: "Continue to your post" });
  // The phone in the hand: at least 44 px on a 390 px screen, the stylesheet applied.
  await visitor.setViewportSize({ width: 390, height: 844 });
  await visitor.waitForLoadState("load");
  const box = (await take.boundingBox())!;
  expect([box.height >= 44, box.width <= 390]).toEqual([true, true]);
  if (js) await expectNoAxeViolations(visitor);
  await take.click();
  await expect(visitor).toHaveURL(/\/create\?share=[\w-]+$/);
  if (js) await hydrated(visitor);
  await expectSharedPost(visitor);
  await publishAndSeePhoto(visitor);
  if (js) await context.close();
});

test("signed out with the worker: the share waits on the phone through sign-in", async ({ page, js, signUp, browser, baseURL }) => {
  test.skip(!js, "the worker runs with JavaScript on");
  const member = await signUp(await browser.newContext({ baseURL }));
  await page.goto("/");
  await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
  await postShare(page, { inPage: true });
  await expect(page).toHaveURL(/\/auth\?.*redirectTo=%2Fcreate%3Fshared%3D[\w-]+/);
  const form = page.locator("form#login");
  await form.getByLabel("Username").fill(member.username);
  await form.getByLabel("Password").fill(member.password);
  await form.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/create\?shared=[\w-]+$/);
  await hydrated(page);
  await expectSharedPost(page);
});

test("a share with nothing in it says so, and a cross-site page cannot share into the site", async ({ page, js, signUp, request }) => {
  await signUp();
  if (js) {
    await page.goto("/");
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
  }
  // Nothing to keep: the worker hands it to the server, which says why.
  const empty = `<form method="post" action="/share" enctype="multipart/form-data"><input name="text"><button>Share</button></form>`;
  if (js) {
    await page.evaluate((html) => document.body.insertAdjacentHTML("beforeend", html), empty);
  } else {
    await page.route("**/e2e-share-launcher", (route) =>
      route.fulfill({ contentType: "text/html", body: `<!doctype html><title>Gallery</title>${empty}` }),
    );
    await page.goto("/e2e-share-launcher");
  }
  await page.locator("form[action='/share'] button").click();
  await expect(page).toHaveURL(/\/share$/);
  await expect(page.getByTestId("share-refusal")).toContainText("Nothing was shared");
  if (js) {
    await hydrated(page);
    await expectNoAxeViolations(page);
  }

  const forged = await request.post("/share", {
    multipart: { text: "Forged from another site" },
    headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  // The browser's own launch from another app: no Origin of its own, Sec-Fetch-Site: none.
  const launched = await page.request.post("/share", {
    multipart: { text: "From the gallery app" },
    headers: { Origin: "null", "Sec-Fetch-Site": "none" },
    maxRedirects: 0,
  });
  expect(launched.status()).toBe(303);
  expect(launched.headers()["location"]).toMatch(/^\/create\?share=/);
});

import type { Page, Route } from "@playwright/test";
import sharp from "sharp";
import { expect, hydrated, test, uniqueName } from "./fixtures";

/**
 * Issue 28, publish while files upload (JS on): tapping Publish while a photo is still uploading no
 * longer drops the tap ("Uploads in progress"): the post says it will go when its files are in, can
 * be cancelled, and goes by itself; if the link drops meanwhile it waits in the outbox with its
 * finished uploads and is sent once when the link returns (docs/offline.md, ADR 0057). Without
 * JavaScript nothing changes: the file travels with the form (media.spec.ts).
 */
test.describe("publish while files upload", () => {
  test.skip(({ js }) => !js, "without JavaScript the file travels with the form, as before");

  const photo = () =>
    sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 90, g: 110, b: 60 } } })
      .jpeg()
      .toBuffer();

  /** Holds the upload's chunks (tus PATCH) until `release` is called: a slow uplink. */
  async function slowUploads(page: Page) {
    const held: Route[] = [];
    let open = false;
    await page.route(
      (url) => url.pathname.startsWith("/api/uploads"),
      (route) => {
        if (route.request().method() !== "PATCH" || open) return route.continue();
        held.push(route);
      },
    );
    return {
      /** The first chunk is on its way (and held). */
      started: () => expect.poll(() => held.length, { timeout: 15_000 }).toBeGreaterThan(0),
      release: () => {
        open = true;
        for (const route of held.splice(0)) void route.continue();
      },
    };
  }

  async function startPost(page: Page, title: string) {
    await page.goto("/create");
    await hydrated(page);
    await page.getByLabel("Title").fill(title);
    await page.getByTestId("post-content-input").fill("Photo from the ridge camera at first light, on the scrape line.");
    await page.getByTestId("media-file-input").setInputFiles({ name: "ridge.jpg", mimeType: "image/jpeg", buffer: await photo() });
  }

  async function postsOf(page: Page, username: string) {
    const res = await page.request.get(`/api/users/${username}/posts`);
    expect(res.status()).toBe(200);
    return (await res.json()) as Array<{ id: number; title: string }>;
  }

  test("Publish tapped mid-upload waits, says so, and the post goes by itself with its photo", async ({ page, signUp }) => {
    const { username } = await signUp();
    const title = `Waits for its photo ${uniqueName("t")}`;
    const { started, release } = await slowUploads(page);
    await startPost(page, title);
    await started();

    await page.getByRole("button", { name: "Publish Post" }).click();
    await expect(page.getByTestId("publish-waiting")).toContainText(
      "Your post will publish by itself when the last file finishes uploading.",
    );
    await expect(page.getByTestId("toast").filter({ hasText: "Uploads in progress" })).toHaveCount(0);
    await expect(page).toHaveURL(/\/create$/);
    expect(await postsOf(page, username)).toEqual([]);

    release();
    await expect(page).toHaveURL(/\/post\/\d+$/);
    await expect(page.getByTestId("toast")).toContainText("Post created!");
    await expect(page.getByTestId("post-image")).toBeVisible();
    expect((await postsOf(page, username)).map((p) => p.title)).toEqual([title]);
  });

  test("the waiting post can be cancelled: the upload finishes and nothing is published", async ({ page, signUp }) => {
    const { username } = await signUp();
    const { started, release } = await slowUploads(page);
    await startPost(page, `Not yet ${uniqueName("t")}`);
    await started();
    await page.getByRole("button", { name: "Publish Post" }).click();
    await page.getByTestId("publish-waiting").getByRole("button", { name: "Don't publish yet" }).click();
    await expect(page.getByTestId("publish-waiting")).toHaveCount(0);
    release();
    await expect(page.getByTestId("uploaded-files")).toContainText("ridge.jpg");
    await page.waitForTimeout(500);
    await expect(page).toHaveURL(/\/create$/);
    expect(await postsOf(page, username)).toEqual([]);
  });

  test("the link drops before it can go: it waits in the outbox with its finished upload and is sent once when the link returns", async ({
    page,
    context,
    signUp,
  }) => {
    const { username } = await signUp();
    await page.goto("/");
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
    const title = `Sent when the link returns ${uniqueName("t")}`;
    const { started, release } = await slowUploads(page);
    await startPost(page, title);
    await started();
    await page.getByRole("button", { name: "Publish Post" }).click();
    await expect(page.getByTestId("publish-waiting")).toBeVisible();

    // The link dies as the files get in: the publish itself finds no way through (nor does the
    // service worker's Background Sync, which the context's route reaches too).
    const dropped = (route: Route) => (route.request().method() === "POST" ? route.abort("internetdisconnected") : route.continue());
    const publishPaths = (url: URL) => ["/create", "/create.data", "/api/posts"].includes(url.pathname);
    await context.route(publishPaths, dropped);
    release();
    const note = page.getByTestId("outbox-note");
    await expect(note).toContainText(`Post “${title}”`);
    await expect(note).toContainText("Waiting — will send when you're back in coverage");
    expect(await postsOf(page, username)).toEqual([]);

    // The link returns: sent once, with the photo that had finished uploading.
    await context.unroute(publishPaths, dropped);
    await context.setOffline(true);
    await context.setOffline(false);
    await expect(note).toHaveCount(0);
    await expect.poll(async () => (await postsOf(page, username)).map((p) => p.title)).toEqual([title]);
    const [post] = await postsOf(page, username);
    await page.goto(`/post/${post!.id}`);
    await expect(page.getByTestId("post-image")).toBeVisible();
    await page.reload();
    expect(await postsOf(page, username)).toHaveLength(1);
  });
});

import type { BrowserContext, Page } from "@playwright/test";
import sharp from "sharp";
import { startCuttingProxy } from "../fixtures/cutting-proxy";
import { expect, expectNoAxeViolations, hydrated, savedPage, test, uniqueName } from "./fixtures";

/**
 * Issue 43 item 2, offline compose with photos (docs/decisions/0093-offline-compose-with-photos.md):
 * with JavaScript, a post whose photos were chosen with no signal waits on the phone with the photos
 * themselves (IndexedDB), survives a reload and a closed page, shows its photo count with a Cancel,
 * and when the signal returns its photos go up by tus (resuming after a cut) and the post is
 * published once with them. Without JavaScript the files travel with the form as before (media.spec.ts).
 */
test.describe("offline compose with photos", () => {
  test.skip(({ js }) => !js, "the outbox needs JavaScript; without it the files travel with the form");

  const MB = 1024 * 1024;
  const WAITING = "Waiting — will send when you're back in coverage";

  /** A real JPEG of the trail camera's size (640×480), padded after its end marker to `size` bytes when asked. */
  async function photo(shade: number, size?: number): Promise<Buffer> {
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: shade, g: 110, b: 60 } } })
      .jpeg()
      .toBuffer();
    return size ? Buffer.concat([jpeg, Buffer.alloc(size - jpeg.length, 0)]) : jpeg;
  }

  async function compose(page: Page, title: string, files: Array<{ name: string; buffer: Buffer }>) {
    const form = page.getByRole("form", { name: "Create Post" });
    await form.getByLabel("Title").fill(title);
    await page.getByTestId("post-content-input").fill("Two does on the scrape line at first light, from the ridge camera.");
    await page.getByTestId("media-file-input").setInputFiles(files.map((file) => ({ ...file, mimeType: "image/jpeg" })));
    await form.getByRole("button", { name: "Publish Post" }).click();
  }

  /**
   * /create under the service worker, then no signal, then a post with `files` published: it waits
   * on the phone. `savedPage` also waits for the worker's copy of /create, which a reload with no
   * signal is served from. Answers the post's title.
   */
  async function publishOffline(
    { page, context, open }: { page: Page; context: BrowserContext; open: (url: string) => Promise<unknown> },
    titlePrefix: string,
    files: Array<{ name: string; buffer: Buffer }>,
    { savedPage: saved = false } = {},
  ): Promise<string> {
    await open("/create");
    if (saved) await savedPage(page, "/create");
    else await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
    await hydrated(page);
    const title = `${titlePrefix} ${uniqueName("p")}`;
    await context.setOffline(true);
    await compose(page, title, files);
    return title;
  }

  /** The member's posts with this title, each with its files, read through the API. */
  async function published(page: Page, origin: string, username: string, title: string) {
    const res = await page.request.get(`${origin}/api/users/${username}/posts`);
    expect(res.status()).toBe(200);
    const posts = ((await res.json()) as Array<{ id: number; title: string }>).filter((p) => p.title === title);
    return Promise.all(
      posts.map(async (p) => {
        const one = await page.request.get(`${origin}/api/posts/${p.id}`);
        return (await one.json()) as { id: number; uploadedFiles: Array<{ type: string; name: string; url: string }> };
      }),
    );
  }

  test("two photos chosen offline wait with the post through a reload and a closed page, and it is published once with both", async ({
    page,
    context,
    open,
    signUp,
    baseURL,
  }) => {
    const member = await signUp();
    // The offline reload below is served by the service worker's saved copy of the page.
    const title = await publishOffline(
      { page, context, open },
      "Offline photos",
      [
        { name: "doe-1.jpg", buffer: await photo(80) },
        { name: "doe-2.jpg", buffer: await photo(140) },
      ],
      { savedPage: true },
    );
    const note = page.getByTestId("outbox-note");
    await expect(note).toContainText(title);
    await expect(note.getByTestId("outbox-files")).toHaveText("With 2 photos");
    await expect(note).toContainText(WAITING);
    await expect(page.getByTestId("publish-waiting")).toHaveCount(0);

    // Reloaded with still no signal: the post and its photos are still on the phone.
    await page.reload();
    await hydrated(page);
    await expect(note).toContainText(title);
    await expect(note.getByTestId("outbox-files")).toHaveText("With 2 photos");
    expect(await published(page, baseURL!, member.username, title)).toEqual([]);

    // The page is closed; the signal returns; the next visit (or the worker's Background Sync) sends it.
    await page.close();
    await context.setOffline(false);
    const next = await context.newPage();
    await next.goto("/feed");
    await hydrated(next);
    await expect.poll(async () => (await published(next, baseURL!, member.username, title)).length, { timeout: 30_000 }).toBe(1);
    await expect(next.getByTestId("outbox-note")).toHaveCount(0);
    const [post] = await published(next, baseURL!, member.username, title);
    expect(post.uploadedFiles.map((file) => file.type)).toEqual(["image", "image"]);
    for (const file of post.uploadedFiles) expect((await next.request.get(`${baseURL}${file.url}`)).status()).toBe(200);
    // Once, even after another visit.
    await next.reload();
    await hydrated(next);
    expect(await published(next, baseURL!, member.username, title)).toHaveLength(1);
  });

  test("a waiting post can be cancelled: it and its photos leave the phone, and nothing is published", async ({
    page,
    context,
    open,
    signUp,
    baseURL,
  }) => {
    const member = await signUp();
    const title = await publishOffline({ page, context, open }, "Cancelled photos", [{ name: "buck.jpg", buffer: await photo(60) }]);
    const note = page.getByTestId("outbox-note");
    await expect(note.getByTestId("outbox-files")).toHaveText("With 1 photo");
    // The Cancel is a thumb's size on a phone, and the note stays accessible.
    const cancel = note.getByRole("button", { name: `Cancel Post “${title}”` });
    expect((await cancel.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await expectNoAxeViolations(page);
    await cancel.click();
    await expect(note).toHaveCount(0);
    const kept = await page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const request = indexedDB.open("wp-outbox");
          request.onsuccess = () => {
            const all = request.result.transaction("items").objectStore("items").count();
            all.onsuccess = () => resolve(all.result);
            all.onerror = () => reject(all.error);
          };
          request.onerror = () => reject(request.error);
        }),
    );
    expect(kept).toBe(0);
    await context.setOffline(false);
    await page.goto("/feed");
    await hydrated(page);
    expect(await published(page, baseURL!, member.username, title)).toEqual([]);
  });

  test.describe("through a link that is cut", () => {
    // The page talks to the app through a counting proxy; the worker would keep its own connections.
    test.use({ serviceWorkers: "block" });

    test("an 8 MB photo cut halfway resumes from the server's offset: published once, under 1.1× its bytes sent", async ({
      page,
      context,
      signUp,
      baseURL,
    }) => {
      const member = await signUp();
      const file = await photo(100, 8 * MB);
      const proxy = await startCuttingProxy(Number(new URL(baseURL!).port));
      try {
        const origin = `http://localhost:${proxy.port}`;
        const patches: string[] = [];
        page.on("request", (request) => {
          if (request.url().includes("/api/uploads")) patches.push(`${request.method()} ${request.headers()["upload-offset"] ?? ""}`);
        });
        await page.goto(`${origin}/create`);
        await hydrated(page);
        const title = `Cut photo ${uniqueName("p")}`;
        await context.setOffline(true);
        await compose(page, title, [{ name: "big-buck.jpg", buffer: file }]);
        await expect(page.getByTestId("outbox-note").getByTestId("outbox-files")).toHaveText("With 1 photo");

        proxy.setLink({ cutAfter: 4 * MB });
        await context.setOffline(false);
        await expect.poll(async () => (await published(page, origin, member.username, title)).length, { timeout: 60_000 }).toBe(1);
        await expect(page.getByTestId("outbox-note")).toHaveCount(0);

        expect(proxy.cuts()).toBe(1);
        const sent = proxy.sent();
        test
          .info()
          .annotations.push({ type: "bytes sent", description: `${sent} for ${file.length} (${(sent / file.length).toFixed(3)}×)` });
        expect(sent, patches.join(", ")).toBeLessThan(1.1 * file.length);
        // After the cut it asked the server where it stood (HEAD) and went on from there.
        expect(patches.some((p) => p.startsWith("HEAD"))).toBe(true);
        const [post] = await published(page, origin, member.username, title);
        expect(post.uploadedFiles).toHaveLength(1);
        const served = await page.request.get(`${origin}${post.uploadedFiles[0].url}`);
        expect(served.status()).toBe(200);
      } finally {
        await proxy.close();
      }
    });
  });
});

import type { BrowserContext, Page, Request } from "@playwright/test";
import { expect, hydrated, test } from "./fixtures";

/**
 * Issue 42's slow-link item (ADR 0088): after a member's first page, the service worker fetches in
 * the background the code of the pages they are likely to open next (app/sw/routes-ahead.ts), after
 * that page's load event, and not with data saver on. Service workers need JavaScript: js-on only.
 */
test.describe("routes ahead", () => {
  test.skip(({ js }) => !js, "service workers need JavaScript");

  /** The build files the worker itself fetched from the network (not those it answered from a cache). */
  function workerFetches(context: BrowserContext) {
    const fetched: { url: string; at: number }[] = [];
    context.on("request", (request: Request) => {
      const url = new URL(request.url());
      if (request.serviceWorker() && url.pathname.startsWith("/assets/")) fetched.push({ url: url.pathname, at: Date.now() });
    });
    return fetched;
  }

  /** Until the worker has fetched nothing for 4 s (its background fetch done, or never begun). */
  async function workerQuiet(fetched: { at: number }[], since: number) {
    await expect
      .poll(() => Date.now() - Math.max(since, fetched.at(-1)?.at ?? 0), { timeout: 30_000, intervals: [500] })
      .toBeGreaterThan(4_000);
  }

  /** A module of a route the page at hand does not use: the post editor's page. */
  const createRoute = /^\/assets\/routes\/create-/;

  /** When this document's load event started, ms since the epoch. */
  const loadedAt = (page: Page) =>
    page.evaluate(
      () => performance.timeOrigin + (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).loadEventStart,
    );

  test("after a first visit, a post and the post editor hydrate with no script from the network", async ({
    page,
    context,
    open,
    signUp,
    createPost,
  }) => {
    await signUp();
    const post = await createPost();
    const fetched = workerFetches(context);
    await open("/");
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
    await workerQuiet(fetched, Date.now());

    // From here the link carries pages and their data but no script: any script that reaches the
    // network (asked by the page past the worker, or by the worker itself) is refused. (With no
    // signal at all a page never seen would not open: its document and data are not saved, only code.)
    const reached: string[] = [];
    await context.route(/\/assets\/.*\.js(\?.*)?$/, async (route) => {
      reached.push(new URL(route.request().url()).pathname);
      await route.abort("internetdisconnected");
    });
    for (const path of [`/post/${post.id}`, "/create"]) {
      reached.length = 0;
      await page.goto(path);
      const enhanced = await hydrated(page).then(
        () => true,
        () => false,
      );
      expect({ path, enhanced, reached }).toEqual({ path, enhanced: true, reached: [] });
    }
    await expect(page.getByRole("button", { name: "Publish Post" })).toBeVisible();
  });

  test("the worker fetches nothing ahead before the page's load event, on a first visit or a returning one", async ({
    page,
    context,
    signUp,
  }) => {
    await signUp();
    // Each page's load event waits 2.5 s for one slow image.
    await context.route("**/e2e-slow-image.svg", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      await route.fulfill({ contentType: "image/svg+xml", body: '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>' });
    });
    await page.addInitScript(() => {
      document.addEventListener("DOMContentLoaded", () => {
        const image = document.createElement("img");
        image.src = "/e2e-slow-image.svg";
        image.alt = "";
        document.body.append(image);
      });
    });
    const fetched = workerFetches(context);

    await page.goto("/notifications");
    await hydrated(page);
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
    await workerQuiet(fetched, Date.now());
    const firstLoad = await loadedAt(page);
    const firstAhead = fetched.filter((f) => createRoute.test(f.url));
    expect(firstAhead.length, "the post editor's route module fetched ahead").toBeGreaterThan(0);
    expect(firstAhead[0]!.at).toBeGreaterThanOrEqual(firstLoad);

    // A returning visit, the worker in control from the start: the routes ahead are gone (as after
    // a deploy), so it has them to fetch again, but only once this page has loaded.
    await page.evaluate(async () => {
      for (const key of await caches.keys()) if (key.startsWith("routes-ahead-") || key === "assets") await caches.delete(key);
    });
    fetched.length = 0;
    await page.goto("/settings");
    await hydrated(page);
    await workerQuiet(fetched, Date.now());
    const secondLoad = await loadedAt(page);
    const secondAhead = fetched.filter((f) => createRoute.test(f.url));
    expect(secondAhead.length, "fetched ahead again on the returning visit").toBeGreaterThan(0);
    expect(secondAhead[0]!.at).toBeGreaterThanOrEqual(secondLoad);
  });

  test("a new build's worker takes over without waiting for the routes ahead", async ({ page, context, signUp }) => {
    // Chromium holds a new worker back until the old one has finished the events it handles, the
    // fetch ahead included: the old worker stops between batches when a newer one waits.
    await signUp();
    let loads = 0;
    page.on("load", () => {
      loads += 1;
    });
    await page.goto("/notifications");
    await hydrated(page);
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
    // The worker's fetch of any other page's route module (they are spread over the batches) takes 3 s.
    let firstAhead = 0;
    await context.route(/\/assets\/routes\/(?!notifications-)/, async (route) => {
      if (route.request().serviceWorker()) {
        firstAhead ||= Date.now();
        await new Promise((resolve) => setTimeout(resolve, 3_000));
      }
      await route.fallback();
    });
    await expect.poll(() => firstAhead, { timeout: 15_000 }).toBeGreaterThan(0);
    // Nine batches hold a route module: all of them would take 27 s or more.
    const started = Date.now();
    await page.evaluate(() => void navigator.serviceWorker.register("/sw.js?v=next-build", { scope: "/" }));
    await expect.poll(() => loads, { timeout: 12_000 }).toBe(2);
    expect(Date.now() - started).toBeLessThan(12_000);
  });

  test("with data saver on, nothing is fetched ahead", async ({ page, context, signUp }) => {
    await signUp();
    await context.setExtraHTTPHeaders({ "Save-Data": "on" });
    const fetched = workerFetches(context);
    await page.goto("/notifications");
    await hydrated(page);
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
    await workerQuiet(fetched, Date.now());
    expect(fetched.filter((f) => createRoute.test(f.url))).toEqual([]);
  });
});

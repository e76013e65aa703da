import type { Page } from "@playwright/test";
import { expect, hydrated, savedPage, test, uniqueName } from "./fixtures";

/**
 * Issue 13, home ≤ 90 KB of JavaScript (docs/decisions/0047): a visitor's home is sent without the
 * app's scripts. It reads, pages and searches as plain HTML, registers the service worker with one
 * inline script, and reopens offline with its saved-copy note. A member's home hydrates as before.
 */

/** Every script file the page asked for. */
function scriptRequests(page: Page) {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

test("a visitor's home asks for no script file, and its feed reads and searches", async ({ js, open, createPost, signUp, newPage }) => {
  // Posts from a member, so the feed has something to show; the visitor is another browser.
  await signUp();
  const post = await createPost({ title: `Plain home ${uniqueName("ph")}` });
  const visitor = await newPage();
  const scripts = scriptRequests(visitor);
  const response = await open("/", visitor);
  expect(response?.status()).toBe(200);
  const html = await response!.text();
  expect(html).not.toMatch(/<script[^>]+src=|rel="modulepreload"|type="module"/);
  await expect(visitor.locator("html")).toHaveAttribute("data-scripts", "none");
  await expect(visitor.getByRole("link", { name: post.title }).first()).toBeVisible();
  expect(scripts, "script files the home page asked for").toEqual([]);
  // Links are plain ones: a post opens as a document of its own, which has the app's code.
  await visitor.getByRole("link", { name: post.title }).first().click();
  await expect(visitor.getByTestId("post").getByRole("heading", { level: 1 })).toHaveText(post.title);
  if (js) expect(scripts.some((path) => path.startsWith("/assets/"))).toBe(true);
  // Older posts and the search box are a link and a GET form.
  await visitor.goto("/?search=plain+home");
  await expect(visitor.getByRole("link", { name: post.title }).first()).toBeVisible();
  await expect(visitor.locator("html")).toHaveAttribute("data-scripts", "none");
});

test("a member's home hydrates with the app's scripts", async ({ page, js, open, signUp }) => {
  test.skip(!js, "hydration is JavaScript's");
  await signUp();
  const scripts = scriptRequests(page);
  await open("/");
  await expect(page.locator("html")).not.toHaveAttribute("data-scripts", "none");
  await hydrated(page);
  expect(scripts.some((path) => path.startsWith("/assets/entry.client-"))).toBe(true);
});

test.describe("the service worker from a plain home", () => {
  test.skip(({ js }) => !js, "service workers need JavaScript");

  test("is registered for this build, saves the page, and a new build's worker does not reload it", async ({ page, context, open }) => {
    let loads = 0;
    page.on("load", () => {
      loads += 1;
    });
    await open("/");
    await savedPage(page, "/");
    const registered = await page.evaluate(async () =>
      new URL((await navigator.serviceWorker.ready).active!.scriptURL).searchParams.get("v"),
    );
    // The build the scripted pages run (their manifest names it).
    const other = await context.newPage();
    await other.goto("/clubs");
    expect(registered).toBe(await other.evaluate(() => window.__reactRouterManifest?.version));
    await other.close();
    // A new build's worker takes over: nothing on a page without scripts needs a reload.
    await page.evaluate(() => void navigator.serviceWorker.register("/sw.js?v=next-build", { scope: "/" }));
    await page.waitForFunction(() => navigator.serviceWorker.controller?.scriptURL.includes("next-build"), undefined, { timeout: 10_000 });
    await page.waitForTimeout(500);
    expect(loads).toBe(1);
  });

  test("reopens offline from its saved copy, with the saved-copy note", async ({ open, signUp, createPost, newPage }) => {
    await signUp();
    const post = await createPost({ title: `Plain offline ${uniqueName("po")}` });
    const visitor = await newPage();
    await open("/", visitor);
    await expect(visitor.getByTestId("saved-copy-note")).toHaveText("");
    await savedPage(visitor, "/");
    await visitor.context().setOffline(true);
    await visitor.reload();
    await expect(visitor.getByRole("link", { name: post.title }).first()).toBeVisible();
    await expect(visitor.getByTestId("saved-copy-note")).toHaveText(/^Saved copy from .+ ago$/);
    await expect(visitor.locator("html")).toHaveAttribute("data-scripts", "none");
  });
});

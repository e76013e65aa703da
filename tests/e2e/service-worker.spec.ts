import { expect, test } from "@playwright/test";

test.describe("service worker", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "service workers need JavaScript");

  test("is registered at start-up, and an updated worker reloads the page exactly once", async ({ page }) => {
    let loads = 0;
    page.on("load", () => {
      loads += 1;
    });
    await page.goto("/");
    const version = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return new URL(registration.active!.scriptURL).searchParams.get("v");
    });
    expect(version).toBe(await page.evaluate(() => window.__remixManifest?.version));
    // The first install takes control without reloading the page.
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
    await page.waitForTimeout(500);
    expect(loads).toBe(1);

    // A new build's worker appears (as after a deploy) and takes over: the page reloads once.
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = "old page";
      void navigator.serviceWorker.register("/sw.js?v=next-build", { scope: "/" });
    });
    await expect.poll(() => loads, { timeout: 10_000 }).toBe(2);
    await page.waitForLoadState("load");
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBeUndefined();
    // The reloaded page registers its own build's worker again; that takeover is not a reason to reload.
    await page.waitForFunction(
      (v) => new URL(navigator.serviceWorker.controller?.scriptURL ?? "http://x/").searchParams.get("v") === v,
      version,
      { timeout: 10_000 },
    );
    await page.waitForTimeout(1000);
    expect(loads).toBe(2);
  });
});

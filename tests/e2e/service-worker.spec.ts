import { expect, test } from "./fixtures";

/** What the page under test reports about itself (installed by `watchReloads`). */
type Probe = { document: number; controllerChanges: number; reloadsRequested: number };

test.describe("service worker", () => {
  test.skip(({ js }) => !js, "service workers need JavaScript");

  /**
   * Each document of this tab counts itself (1, 2, …, kept in sessionStorage), its controller
   * changes, and the reloads it asked for: the Navigation API's `navigate` event fires as soon as
   * `location.reload()` is called, before the old page goes away. So "no reload" is checked against
   * the event that would cause one, not by waiting to see whether a reload shows up.
   */
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => {
      const probe = { document: Number(sessionStorage.getItem("e2e-documents") ?? 0) + 1, controllerChanges: 0, reloadsRequested: 0 };
      sessionStorage.setItem("e2e-documents", String(probe.document));
      (window as unknown as { __probe: typeof probe }).__probe = probe;
      navigator.serviceWorker?.addEventListener("controllerchange", () => {
        probe.controllerChanges += 1;
      });
      const navigation = (window as unknown as { navigation?: EventTarget }).navigation;
      navigation?.addEventListener("navigate", (event) => {
        if ((event as Event & { navigationType?: string }).navigationType === "reload") probe.reloadsRequested += 1;
      });
    });
  });

  test("is registered at start-up, and an updated worker reloads the page exactly once", async ({ page }) => {
    let loads = 0;
    page.on("load", () => {
      loads += 1;
    });
    // A page with the app's code (a visitor's home has none: plain-home.spec.ts, ADR 0047).
    await page.goto("/clubs");
    const version = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return new URL(registration.active!.scriptURL).searchParams.get("v");
    });
    expect(version).toBe(await page.evaluate(() => window.__reactRouterManifest?.version));
    expect(await page.evaluate(() => "navigation" in window)).toBe(true);
    // The first install takes control without reloading the page: once the controller has changed
    // (every controllerchange listener, the app's included, has run), this is still the first
    // document and it asked for no reload.
    const first = await page.waitForFunction(() => {
      const probe = (window as unknown as { __probe: Probe }).__probe;
      return probe.controllerChanges > 0 && probe;
    });
    expect(await first.jsonValue()).toMatchObject({ document: 1, reloadsRequested: 0 });
    expect(loads).toBe(1);

    // A new build's worker appears (as after a deploy) and takes over: the page reloads once.
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = "old page";
      void navigator.serviceWorker.register("/sw.js?v=next-build", { scope: "/" });
    });
    await expect.poll(() => loads, { timeout: 10_000 }).toBe(2);
    await page.waitForLoadState("load");
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBeUndefined();
    // The reloaded page registers its own build's worker again; that takeover is not a reason to
    // reload: when it has taken control, this is the second document and it asked for no reload.
    const second = await page.waitForFunction(
      (v) => {
        const probe = (window as unknown as { __probe: Probe }).__probe;
        const controlling = new URL(navigator.serviceWorker.controller?.scriptURL ?? "http://x/").searchParams.get("v");
        return controlling === v && probe;
      },
      version,
      { timeout: 10_000 },
    );
    expect(await second.jsonValue()).toMatchObject({ document: 2, reloadsRequested: 0 });
    expect(loads).toBe(2);
  });
});

import type { Page, Request } from "@playwright/test";
import { singleFetchRedirect } from "~/sw/single-fetch";
import { expect, test } from "./fixtures";

/**
 * Issue 40 item 5, CONTRACT.md §13: what the framework under the site does with an answer that was
 * tampered with on its way (a poisoned cache, a proxy, a saved page): the browser side of the
 * advisories React Router 7.18 fixed and Remix 2.17.5 did not.
 *
 * - CVE-2026-53666: decoding a data answer built any global the payload named as an error's type
 *   (`new window[name](message)`); only the standard error types may be built.
 * - CVE-2026-53669: a redirect target with a backslash (`/\host`, which URL parsing reads as `//host`)
 *   was taken for a path of the site, then pushed into history, which refused it as another origin,
 *   and the router fell back to `location.assign`: off the site.
 *
 * Each test makes a member's page (scripts: a visitor's home has none, ADR 0047), then a client-side
 * navigation whose `.data` answer the test writes itself. Both need JavaScript.
 */

const OFF_SITE = "evil.example";

/** A single-fetch answer (turbo-stream, one line) for a list of flattened values. */
const dataAnswer = (list: unknown[], status = 200) => ({
  status,
  headers: { "Content-Type": "text/x-script", "Cache-Control": "no-store" },
  body: `${JSON.stringify(list)}\n`,
});

/**
 * Where the page tries to go off the site: every request to another host (answered here, so none
 * goes out) and every navigation of the page to another host, which the browser announces (the
 * Navigation API's `navigate` event, fired as `location.assign` is called) and this refuses, so the
 * page stays to be asked. Read with `offSiteAttempts`.
 */
async function fenceOffSite(page: Page, baseURL: string): Promise<string[]> {
  const site = new URL(baseURL).host;
  const offSite: string[] = [];
  await page.addInitScript(() => {
    type NavigateEvent = Event & { destination: { url: string }; cancelable: boolean };
    const names = window as unknown as { navigation?: EventTarget; offSiteNavigations?: string[] };
    const seen: string[] = (names.offSiteNavigations = []);
    names.navigation?.addEventListener("navigate", (event) => {
      const { destination, cancelable } = event as NavigateEvent;
      if (new URL(destination.url).host === location.host) return;
      seen.push(destination.url);
      if (cancelable) event.preventDefault();
    });
  });
  await page.context().route(
    (url) => url.host !== site,
    (route) => {
      offSite.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>off site</title><p>off site</p>" });
    },
  );
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame() && new URL(frame.url()).host !== site) offSite.push(frame.url());
  });
  return offSite;
}

/** What `fenceOffSite` saw: off-site requests, and off-site navigations the page began. */
async function offSiteAttempts(page: Page, offSite: string[]): Promise<string[]> {
  const navigations = await page.evaluate(() => (window as unknown as { offSiteNavigations?: string[] }).offSiteNavigations ?? []);
  return [...offSite, ...navigations];
}

/** A signed-in member's home, hydrated, ready for a client-side navigation to the Clubs page. */
async function memberHome(page: Page, open: (url: string) => Promise<unknown>, signUp: () => Promise<unknown>) {
  await signUp();
  await open("/");
  await expect(page.locator("html")).not.toHaveAttribute("data-scripts", "none");
}

/**
 * Whether the browser's router has finished with the navigation (React Router 7's window name, or
 * Remix 2's for the same run on the old code): false if the page left it behind (another host's page
 * has no router) within 10 s.
 */
function routerSettled(page: Page): Promise<boolean> {
  return page
    .waitForFunction(
      () => {
        const names = window as unknown as Record<string, { state?: { navigation?: { state?: string } } } | undefined>;
        const router = names.__reactRouterDataRouter ?? names.__remixRouter;
        return router?.state?.navigation?.state === "idle";
      },
      undefined,
      { timeout: 10_000 },
    )
    .then(
      () => true,
      () => false,
    );
}

/** Answer the next `.data` request of a client-side navigation with `answer`; resolves with the request. */
function answerNextData(page: Page, answer: ReturnType<typeof dataAnswer>): Promise<Request> {
  return new Promise((resolve) => {
    void page.route(
      (url) => url.pathname.endsWith(".data"),
      async (route) => {
        resolve(route.request());
        await route.fulfill(answer);
      },
      { times: 1 },
    );
  });
}

test.describe("a data answer tampered with on its way", () => {
  test.skip(({ js }) => !js, "single-fetch data answers are what the browser's router reads: JavaScript on");
  // The page's own requests, not the service worker's (which would answer from its saved pages).
  test.use({ serviceWorkers: "block" });

  test("cannot make the browser construct a global it names as an error's type", async ({ page, open, signUp }) => {
    // A global a page could have (any constructor on window): it records that it was built.
    await page.addInitScript(() => {
      const probe = window as unknown as { SecurityProbe: unknown; securityProbeBuilt?: string[] };
      probe.SecurityProbe = function SecurityProbe(this: unknown, message: string) {
        (probe.securityProbeBuilt ??= []).push(String(message));
      };
    });
    await memberHome(page, open, signUp);

    // The Clubs page's data, its route's answer an error whose type names SecurityProbe. Routes are
    // named for both builds (Remix's "routes/clubs._index", React Router's the same); an unknown id
    // is ignored by the router, but the payload is decoded before any id is looked at.
    const error = ["E", "built from a crafted payload", "SecurityProbe"];
    const list = [{ _1: 2, _3: 2 }, "root", { _4: 5 }, "routes/clubs._index", "error", error];
    const answered = answerNextData(page, dataAnswer(list));
    await page.getByRole("navigation").getByRole("link", { name: "Clubs", exact: true }).click();
    await answered;
    expect(await routerSettled(page)).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { securityProbeBuilt?: string[] }).securityProbeBuilt ?? [])).toEqual([]);
  });

  for (const target of ["/\\" + OFF_SITE, "/\\" + OFF_SITE + "/profile", "\\\\" + OFF_SITE]) {
    test(`cannot send the browser off the site with a redirect to ${JSON.stringify(target)}`, async ({ page, baseURL, open, signUp }) => {
      const offSite = await fenceOffSite(page, baseURL!);
      await memberHome(page, open, signUp);

      // What the server writes for a redirect from a loader.
      const list = singleFetchRedirect({ redirect: target, status: 302, revalidate: false, reload: false, replace: false });
      const answered = answerNextData(page, dataAnswer(list, 202));
      await page.getByRole("navigation").getByRole("link", { name: "Clubs", exact: true }).click();
      await answered;

      // Whatever the router makes of it (an error page, staying put), the page is still the site's.
      const settled = await routerSettled(page);
      expect(await offSiteAttempts(page, offSite), "requests and navigations off the site").toEqual([]);
      expect(new URL(page.url()).host).toBe(new URL(baseURL!).host);
      expect(settled).toBe(true);
    });
  }
});

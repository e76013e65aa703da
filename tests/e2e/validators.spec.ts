import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test, uniqueName } from "./fixtures";

/**
 * Issue 13, "Conditional requests everywhere" and "Visitor pages a shared cache can hold" (CONTRACT.md
 * §6, docs/decisions/0032-validators-and-shared-caching.md), on the running server. The rules in
 * detail are in tests/integration/validators.test.ts.
 */

// The service worker now handles pages' data requests (`.data`, docs/decisions/0033, 0079): its requests to the server go out
// from the worker, where this page's DevTools session cannot see their wire status. What is checked
// here is the server's and the browser's HTTP caching, so the worker is kept out.
test.use({ serviceWorkers: "block" });

/**
 * What the server really answered for each URL, in order: Chromium reports a revalidated answer as
 * the 200 it had kept, so the wire status comes from the DevTools protocol. The two events are joined
 * when asked, not as they come: Chromium may send a response's `responseReceivedExtraInfo` before its
 * request's `requestWillBeSent` (seen here on a repeat `/clubs.data`), and a status whose URL was not
 * known yet used to be dropped, so the spec waited for a visit it had already had.
 */
async function wireStatuses(page: Page): Promise<(path: string) => number[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const urls = new Map<string, string>();
  const answered: { requestId: string; status: number }[] = [];
  cdp.on("Network.requestWillBeSent", (e) => urls.set(e.requestId, e.request.url));
  cdp.on("Network.responseReceivedExtraInfo", (e) => answered.push({ requestId: e.requestId, status: e.statusCode }));
  return (path) => answered.filter((a) => urls.get(a.requestId)?.endsWith(path)).map((a) => a.status);
}

/** GET `route` and ask again with its validator until the second answer is a 304 (another test's write may come between). */
async function revalidated(request: APIRequestContext, route: string, headers: Record<string, string> = {}) {
  let last = 0;
  for (let attempt = 0; attempt < 5 && last !== 304; attempt++) {
    const first = await request.get(route, { headers });
    const again = await request.get(route, { headers: { ...headers, "If-None-Match": `"stale", ${first.headers()["etag"]}` } });
    last = again.status();
    if (last === 304) {
      expect((await again.body()).length, route).toBe(0);
      expect(again.headers()["etag"], route).toBe(first.headers()["etag"]);
    }
  }
  expect(last, route).toBe(304);
}

async function createClub(page: Page, baseURL: string, name: string) {
  const res = await page.request.post("/api/clubs", {
    data: { name, description: "A camp on the creek bottom for the early season." },
    headers: { Origin: baseURL },
  });
  expect(res.status(), await res.text()).toBe(201);
}

test("a repeat visit is a 304, and a change since is drawn fresh", async ({ page, open, signUp, js, baseURL }) => {
  await signUp(page);
  const statuses = await wireStatuses(page);
  const path = js ? "/clubs.data" : "/clubs";
  const visitClubs = async () => {
    if (!js) return open("/clubs");
    // With JavaScript, a link within the site fetches the page's data (`/clubs.data`), not the document.
    await page.getByRole("link", { name: "Clubs", exact: true }).first().click();
    await page.waitForURL("**/clubs");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  };
  const visitHome = async () => {
    if (!js) return open("/search");
    await page.getByRole("link", { name: "Whitetail Pulse" }).first().click();
    await page.waitForURL((url) => url.pathname === "/");
  };

  // Any write on the site (another test's, in parallel) or a new minute makes the next visit a 200:
  // a few rounds give a quiet moment.
  if (js) await open("/search");
  await visitClubs();
  for (let round = 0; round < 5 && !statuses(path).includes(304); round++) {
    await visitHome();
    await visitClubs();
    await expect.poll(() => statuses(path).length).toBe(round + 2);
  }
  expect(statuses(path)).toContain(304);

  const name = `Creek Bottom ${uniqueName("c")}`;
  await createClub(page, baseURL!, name);
  const before = statuses(path).length;
  await visitHome();
  await visitClubs();
  await expect.poll(() => statuses(path).slice(before)).toEqual([200]);
  await expect(page.getByText(name)).toBeVisible();
});

test.describe("headers of documents, their data (.data) and /api", () => {
  test.skip(({ js }) => js, "HTTP only: runs once (js-off)");

  const routes = ["/", "/_root.data", "/clubs.data", "/api/posts", "/clubs", "/api/clubs"];

  test("visitors: public for a shared cache, Vary: Cookie, no Set-Cookie; a 304 on a match; a change is a 200", async ({
    request,
    page,
    baseURL,
    signUp,
  }) => {
    const tags = new Map<string, string>();
    for (const route of routes) {
      const res = await request.get(route, { headers: { Cookie: "" } });
      expect(res.status(), route).toBe(200);
      const headers = res.headers();
      expect(headers["cache-control"], route).toBe("public, max-age=0, s-maxage=10, stale-while-revalidate=60");
      expect(headers["vary"], route).toContain("Cookie");
      expect(headers["set-cookie"], route).toBeUndefined();
      expect(headers["etag"], route).toMatch(/^W\/"/);
      tags.set(route, headers["etag"]!);
      await revalidated(request, route, { Cookie: "" });
    }
    const document = (await request.get("/")).headers()["content-security-policy"]!;
    expect(document).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
    expect(document).not.toContain("nonce-");

    // Someone else writes: every page is drawn again.
    await signUp(page);
    await createClub(page, baseURL!, `Big Woods ${uniqueName("c")}`);
    for (const route of routes) {
      const res = await request.get(route, { headers: { "If-None-Match": tags.get(route)! } });
      expect(res.status(), route).toBe(200);
      expect(res.headers()["etag"], route).not.toBe(tags.get(route));
    }
  });

  test("members: private, no-cache with their own validator; a toast to show is never a 304 and never public", async ({
    page,
    signUp,
    baseURL,
  }) => {
    await signUp(page);
    for (const route of routes) {
      const res = await page.request.get(route);
      expect(res.headers()["cache-control"], route).toBe("private, no-cache");
      await revalidated(page.request, route);
    }
    const settings = await page.request.get("/settings");
    expect(settings.headers()["cache-control"]).toBe("private, no-store");
    expect(settings.headers()["etag"]).toBeUndefined();

    // Log out with the form's POST: the next page shows a toast (and clears its cookie), whatever was kept.
    const kept = (await page.request.get("/clubs")).headers()["etag"]!;
    const out = await page.request.post("/logout", { form: {}, headers: { Origin: baseURL! }, maxRedirects: 0 });
    expect(out.status()).toBe(302);
    const withToast = await page.request.get("/clubs", { headers: { "If-None-Match": `${kept}, *` } });
    expect(withToast.status()).toBe(200);
    expect(withToast.headers()["cache-control"]).not.toContain("public");
    expect(withToast.headers()["etag"]).toBeUndefined();
  });
});

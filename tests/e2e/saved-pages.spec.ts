import type { Page } from "@playwright/test";
import { DEMO, expect, hydrated, savedPage, test, uniqueName } from "./fixtures";

/**
 * Issue 12, "Reading offline" (rural audit §5, spec audit #2): the service worker keeps the pages and
 * loader data a member saw, per member, within bounds (docs/decisions/0033-service-worker-saved-
 * pages.md). Service workers need JavaScript: js-on only.
 */
test.describe("saved pages", () => {
  test.skip(({ js }) => !js, "service workers need JavaScript");

  const saved = savedPage;

  const note = (page: Page) => page.getByTestId("saved-copy-note");

  test("a post opened by tapping a link reads offline, with a saved-copy note", async ({ page, context, open, signUp, createPost }) => {
    await signUp();
    const post = await createPost({ title: `Offline read ${uniqueName("o")}` });
    await open("/");
    await saved(page, "/");
    await page.getByRole("link", { name: post.title }).first().click();
    await expect(page.getByTestId("post").getByRole("heading", { level: 1 })).toHaveText(post.title);
    await expect(note(page)).toHaveText("");
    await page.getByRole("link", { name: /Back to feed/ }).click();
    await expect(page).toHaveURL("/");

    await context.setOffline(true);
    await page.getByRole("link", { name: post.title }).first().click();
    await expect(page).toHaveURL(`/post/${post.id}`);
    await expect(page.getByTestId("post").getByRole("heading", { level: 1 })).toHaveText(post.title);
    await expect(page.getByText(post.content)).toBeVisible();
    await expect(note(page)).toHaveText(/^Saved copy from .+ ago$/);
  });

  test("a post read by tapping a link reopens offline when reloaded or opened by its address", async ({
    page,
    context,
    open,
    signUp,
    createPost,
  }) => {
    // ux-2 N18: only its loader data was saved (the tap fetched no document), and Reload or the
    // typed address gave "You're out of signal".
    await signUp();
    const post = await createPost({ title: `Reopen offline ${uniqueName("r")}` });
    const path = `/post/${post.id}`;
    await open("/");
    await saved(page, "/");
    await page.getByRole("link", { name: post.title }).first().click();
    await expect(page.getByTestId("post").getByRole("heading", { level: 1 })).toHaveText(post.title);
    await expect
      .poll(
        () =>
          page.evaluate(
            (at) =>
              caches.keys().then(async (names) => {
                const keys = (await Promise.all(names.map(async (name) => (await caches.open(name)).keys()))).flat();
                return keys
                  .map((key) => new URL(key.url))
                  .filter((url) => url.pathname === at || url.pathname === `${at}.data`)
                  .map((url) => (url.pathname.endsWith(".data") ? "data" : "document"))
                  .sort()
                  .join();
              }),
            path,
          ),
        { intervals: [100] },
      )
      .toBe("data");

    await context.setOffline(true);
    const shows = async () => {
      await expect(page).toHaveURL(path);
      await expect(page.getByTestId("post").getByRole("heading", { level: 1 })).toHaveText(post.title);
      await expect(page.getByText(post.content)).toBeVisible();
      await expect(note(page)).toHaveText(/^Saved copy from .+ ago$/);
      await expect(page.getByRole("heading", { name: "You're out of signal" })).toHaveCount(0);
    };
    await page.reload();
    await shows();
    await expect.poll(() => page.title()).toContain(post.title);

    // Typed into the address bar from another page; Back returns to it.
    await page.goto("/");
    await expect(page.getByRole("link", { name: post.title }).first()).toBeVisible();
    await page.goto(path);
    await shows();
    await page.goBack();
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("link", { name: post.title }).first()).toBeVisible();
  });

  test("the feed reopens offline from its saved copy", async ({ page, context, open, signUp, createPost }) => {
    await signUp();
    const post = await createPost({ title: `Offline feed ${uniqueName("f")}` });
    await open("/");
    await saved(page, "/");
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole("link", { name: post.title }).first()).toBeVisible();
    await expect(note(page)).toHaveText(/^Saved copy from .+ ago$/);
    // The saved page runs (its build files were saved with it) and stays.
    await hydrated(page);
    await page.waitForTimeout(2_500);
    await expect(page.getByRole("link", { name: post.title }).first()).toBeVisible();
  });

  test("a page nobody saw gets the offline page, whose Try again goes back to the page asked for", async ({ page, context, open }) => {
    await open("/");
    await saved(page, "/");
    await context.setOffline(true);

    // Typed into the address bar.
    await page.goto(`/profile/${DEMO.username}`);
    await expect(page.getByRole("heading", { name: "You're out of signal" })).toBeVisible();
    await expect(page).toHaveURL(`/profile/${DEMO.username}`);
    await context.setOffline(false);
    await page.getByRole("link", { name: "Try again" }).click();
    await expect(page).toHaveURL(`/profile/${DEMO.username}`);
    await expect(page.getByRole("heading", { level: 1, name: DEMO.displayName })).toBeVisible();

    // An in-app link from a page on screen: the same offline page at the link's address, not an error.
    await open("/");
    await context.setOffline(true);
    const link = page.locator('main a[href^="/post/"]').first();
    const href = (await link.getAttribute("href"))!;
    await link.click();
    await expect(page.getByRole("heading", { name: "You're out of signal" })).toBeVisible();
    await expect(page).toHaveURL(href);
  });

  test("on a stalled connection a saved page appears while the request still hangs", async ({
    page,
    context,
    open,
    signUp,
    createPost,
  }) => {
    await signUp();
    const post = await createPost({ title: `Stalled ${uniqueName("s")}` });
    await open("/");
    await saved(page, "/");
    await page.goto(`/post/${post.id}`);
    await saved(page, `/post/${post.id}`);

    // Signal but no data: the request is never answered, so only the worker's own timeout (3 s,
    // NETWORK_TIMEOUT_SECONDS) can put the saved copy up. How fast is not measured here (a loaded
    // CI machine took 7.3 s); that it comes while the request still hangs is.
    const hanging: string[] = [];
    await context.route(`**/post/${post.id}`, (route) => void hanging.push(route.request().url()));
    await page.goto(`/post/${post.id}`);
    await expect(page.getByTestId("post").getByRole("heading", { level: 1 })).toHaveText(post.title);
    await expect(note(page)).toHaveText(/^Saved copy from .+ ago$/);
    expect(hanging).toEqual([expect.stringMatching(new RegExp(`/post/${post.id}$`))]);
  });

  test("after logout, offline /settings and / show nothing of the member", async ({ page, context, open, signUp }) => {
    const member = await signUp();
    await open("/");
    await saved(page, "/");
    await page.goto("/settings");
    await expect(page.getByLabel("Email")).toHaveValue(`${member.username}@example.com`);
    // The member's feed is saved: offline, it shows them.
    await context.setOffline(true);
    await page.goto("/");
    expect(await page.content()).toContain(member.username);
    await context.setOffline(false);

    await open("/");
    await page.getByTestId("user-menu").locator("summary").click();
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page.getByTestId("toast")).toContainText("Logged out");

    await context.setOffline(true);
    for (const path of ["/settings", "/"]) {
      await page.goto(path);
      const html = await page.content();
      expect(html, path).not.toContain(member.username); // nor the email or display name, which hold it
    }
    await page.goto("/settings");
    await expect(page.getByRole("heading", { name: "You're out of signal" })).toBeVisible();
  });

  test("a member's saved pages are never served to the next member signed in on the device", async ({ page, context, open, signUp }) => {
    const first = await signUp();
    await open("/");
    await saved(page, "/");
    expect(await page.content()).toContain(first.username);

    // Someone else signs in on the same browser (no logout in between) and opens another page.
    await signUp();
    await open("/clubs");
    await context.setOffline(true);
    await page.goto("/");
    expect(await page.content()).not.toContain(first.username);
  });
});

import type { BrowserContext, Page } from "@playwright/test";
import { expect, savedPage, test, uniqueName } from "./fixtures";

/**
 * security-2 N11: a member's saved pages on a device whose session was ended elsewhere
 * (docs/decisions/0053-saved-member-pages-need-a-live-session.md). Device A holds the member's
 * saved pages; the member ends every other session from device B. Offline, device A must not go on
 * showing the member's pages (and their Log out menu):
 * - at once, when anything device A asked online said the session had ended (an `/api` 401);
 * - in any case, once the member's session was last confirmed online more than 72 hours ago.
 * Service workers need JavaScript: js-on only.
 */
test.describe("saved member pages need a live session", () => {
  test.skip(({ js }) => !js, "service workers need JavaScript");

  const outOfSignal = (page: Page) => page.getByRole("heading", { name: "You're out of signal" });

  /** The member's feed and one of their posts, saved on `page`'s device. */
  async function browse(page: Page, postId: number) {
    await page.goto("/");
    await savedPage(page, "/");
    await page.goto(`/post/${postId}`);
    await savedPage(page, `/post/${postId}`);
  }

  /** Offline, `path` shows the member's saved page (true) or nothing of theirs (false). */
  async function showsMember(page: Page, context: BrowserContext, path: string, username: string) {
    await context.setOffline(true);
    await page.goto(path);
    const html = await page.content();
    await context.setOffline(false);
    return html.includes(username);
  }

  /** When the worker last heard the member's session confirmed online, set as if `hoursAgo` had passed. */
  async function confirmedHoursAgo(page: Page, hoursAgo: number) {
    await page.evaluate(
      async (at) => {
        const meta = await caches.open("pulse-meta");
        await meta.put("/__pulse/confirmed", new Response(String(at)));
      },
      Date.now() - hoursAgo * 3_600_000,
    );
  }

  test("an /api 401 on the device forgets the member's saved pages at once", async ({
    page,
    context,
    signUp,
    createPost,
    signIn,
    newPage,
  }) => {
    const member = await signUp();
    const post = await createPost({ title: `Camp notes ${uniqueName("n")}` });
    await browse(page, post.id);
    // Saved and shown offline, with the member's menu: the feature.
    expect(await showsMember(page, context, `/post/${post.id}`, member.username)).toBe(true);

    // The member ends every other session from another device.
    const other = await newPage();
    await signIn(member.username, member.password, other);
    await other.goto("/settings?tab=security");
    await other.getByRole("button", { name: "Sign out of all other devices" }).click();
    await expect(other.getByTestId("toast")).toContainText(/signed out/);

    // Device A, still online, asks the API something: its session is dead.
    expect(await page.evaluate(() => fetch("/api/auth/user").then((r) => r.status))).toBe(401);

    await context.setOffline(true);
    for (const path of [`/post/${post.id}`, "/"]) {
      await page.goto(path);
      expect(await page.content(), path).not.toContain(member.username);
      await expect(outOfSignal(page), path).toBeVisible();
    }
  });

  test("offline, a member's pages are shown for 72 hours after the session was last confirmed, then forgotten", async ({
    page,
    context,
    signUp,
    createPost,
  }) => {
    const member = await signUp();
    const post = await createPost({ title: `Weekend ${uniqueName("w")}` });
    await browse(page, post.id);

    // Offline from here on, so no answer from the server can confirm the session in between.
    await context.setOffline(true);
    // A weekend in camp with no signal: still there.
    await confirmedHoursAgo(page, 71);
    await page.goto(`/post/${post.id}`);
    expect(await page.content()).toContain(member.username);

    // Past the bound, with no word from the server since: gone, and not back when the clock is.
    await confirmedHoursAgo(page, 73);
    await page.goto(`/post/${post.id}`);
    await expect(outOfSignal(page)).toBeVisible();
    expect(await page.content()).not.toContain(member.username);
    await confirmedHoursAgo(page, 1);
    for (const path of [`/post/${post.id}`, "/"]) {
      await page.goto(path);
      expect(await page.content(), path).not.toContain(member.username);
    }
  });

  test("a page loaded online confirms the session again, so saved pages keep working", async ({ page, context, signUp, createPost }) => {
    const member = await signUp();
    const post = await createPost({ title: `Edge of coverage ${uniqueName("e")}` });
    await browse(page, post.id);
    await confirmedHoursAgo(page, 73);
    // A bar of signal: one page loads, the session is live, the clock starts again.
    await page.goto("/");
    await expect
      .poll(() =>
        page.evaluate(() =>
          caches
            .open("pulse-meta")
            .then((m) => m.match("/__pulse/confirmed"))
            .then((r) => r?.text()),
        ),
      )
      .toMatch(/^\d+$/);
    const confirmed = Number(
      await page.evaluate(() =>
        caches
          .open("pulse-meta")
          .then((m) => m.match("/__pulse/confirmed"))
          .then((r) => r!.text()),
      ),
    );
    expect(Date.now() - confirmed).toBeLessThan(3_600_000);
    expect(await showsMember(page, context, `/post/${post.id}`, member.username)).toBe(true);
  });
});

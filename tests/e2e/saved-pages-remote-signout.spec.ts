import type { BrowserContext, Page } from "@playwright/test";
import { apiClub, expect, hydrated, savedPage, test, type Member } from "./fixtures";

/**
 * security-3 N11 (issue 39 item 5): device A holds a member's saved private pages (a private club's
 * page, a post in it, their home); the member signs out of all other devices on device B
 * (docs/decisions/0078-a-remote-sign-out-reaches-saved-pages.md).
 * - Online, the next request device A's worker sees answered for a visitor or with a 401 forgets
 *   them at once: any page, the sign-in page, loader data, an `/api` read or a typed `/api` address,
 *   a form sent with JavaScript, an outbox send when the signal returns.
 * - Offline, nothing can tell device A: they stay readable within 72 h of the session's last
 *   confirmation (ADR 0053), and past it they leave the disk on the first visit without signal.
 * Service workers need JavaScript: js-on only.
 */
type Saved = { member: Member; club: { id: number; name: string }; postId: number };

/**
 * `saved`: device A (the test's page) has saved the member's private club page, home and private
 * post, and device B has then ended A's session.
 */
const signedOutElsewhere = test.extend<{ saved: Saved }>({
  saved: async ({ page, signUp, signIn, newPage, createPost, baseURL }, use) => {
    const member = await signUp();
    const club = await apiClub(page, baseURL!, { isPrivate: true });
    await page.goto(`/clubs/${club.id}`);
    await savedPage(page, `/clubs/${club.id}`);
    await page.goto("/");
    await savedPage(page, "/");
    // A post in the private club, read last: device A stays on it.
    const post = await createPost({ clubId: club.id, title: `Stand map ${club.name}` });
    await page.goto(`/post/${post.id}`);
    await savedPage(page, `/post/${post.id}`);

    const deviceB = await newPage();
    await signIn(member.username, member.password, deviceB);
    await deviceB.goto("/settings?tab=security");
    await deviceB.getByRole("button", { name: "Sign out of all other devices" }).click();
    await expect(deviceB.getByTestId("toast")).toContainText(/signed out/);
    await use({ member, club, postId: post.id });
  },
});

test.describe("saved private pages after a sign-out on another device", () => {
  test.skip(({ js }) => !js, "service workers need JavaScript (no worker runs with it off, so nothing is saved)");

  /** Offline, what device A shows at `path`. */
  async function offline(page: Page, context: BrowserContext, path: string) {
    await context.setOffline(true);
    await page.goto(path);
    const html = await page.content();
    await context.setOffline(false);
    return html;
  }

  /** How many saved copies device A holds that were drawn for a member (a visitor's may be saved anew). */
  const savedPages = (page: Page) =>
    page.evaluate(async () => {
      const cache = await caches.open("pages");
      const copies = await Promise.all((await cache.keys()).map((key) => cache.match(key)));
      return copies.filter((copy) => copy && copy.headers.get("X-Pulse-Saved-For") !== "visitor").length;
    });

  async function nothingOfTheMember(page: Page, context: BrowserContext, { member, club, postId }: Saved) {
    expect(await savedPages(page)).toBe(0);
    for (const path of [`/clubs/${club.id}`, `/post/${postId}`, "/"]) {
      const html = await offline(page, context, path);
      expect(html, path).not.toContain(club.name);
      expect(html, path).not.toContain(member.username);
    }
  }

  // Each is a request device A's worker sees, answered for a visitor (or 401) now. The sign-in page
  // and its data, a typed /api address and a form's answer kept the pages before this change; the
  // others already forgot them.
  const visits: Array<[string, (page: Page) => Promise<unknown>]> = [
    ["a page (home)", (page) => page.goto("/")],
    ["a member-only page (settings: the sign-in form, 401)", (page) => page.goto("/settings")],
    ["the sign-in page", (page) => page.goto("/auth?mode=login")],
    ["the sign-in page's loader data", (page) => page.evaluate(() => fetch("/auth.data").then((r) => r.status))],
    ["a link's loader data", (page) => page.evaluate(() => fetch("/settings.data").then((r) => r.status))],
    ["an /api read", (page) => page.evaluate(() => fetch("/api/auth/user").then((r) => r.status))],
    ["a typed /api address", (page) => page.goto("/api/auth/user")],
    [
      "a form sent with JavaScript (a like: 401, and Remix reloads nothing after it)",
      async (page) => {
        // Still on the private post, drawn before the sign-out elsewhere: no page load in between.
        await hydrated(page);
        const like = page.getByTestId("post").getByTestId("like-button");
        const answered = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.endsWith(".data"));
        await like.click();
        expect((await answered).status()).toBe(401);
      },
    ],
  ];
  for (const [name, visit] of visits) {
    signedOutElsewhere(`online, ${name} forgets them at once`, async ({ page, context, saved }) => {
      await visit(page);
      await expect.poll(() => savedPages(page)).toBe(0);
      await nothingOfTheMember(page, context, saved);
    });
  }

  signedOutElsewhere("online again, an outbox send answered 401 forgets them at once", async ({ page, context, saved }) => {
    // Still on the private post: a like tapped without signal waits in the outbox (ADR 0034).
    await hydrated(page);
    await context.setOffline(true);
    const like = page.getByTestId("post").getByTestId("like-button");
    await like.click();
    await expect(like.getByTestId("like-waiting")).toBeVisible();
    // The signal returns: the like is sent (by the page, or the worker's Background Sync) and answered 401.
    const refused = page.waitForResponse((r) => r.url().endsWith(`/api/posts/${saved.postId}/like`) && r.status() === 401);
    await context.setOffline(false);
    await refused;
    await expect.poll(() => savedPages(page)).toBe(0);
    await nothingOfTheMember(page, context, saved);
  });

  signedOutElsewhere(
    "offline, they are readable within the bound and leave the disk past it on any visit",
    async ({ page, context, saved }) => {
      // Nothing reached device A since: its worker cannot know (72 h after the last confirmation, ADR 0053).
      expect(await offline(page, context, `/clubs/${saved.club.id}`)).toContain(saved.club.name);

      await page.evaluate(
        (at) => caches.open("pulse-meta").then((meta) => meta.put("/__pulse/confirmed", new Response(String(at)))),
        Date.now() - 73 * 3_600_000,
      );
      // Past the bound, a page never saved is asked for offline: the offline page, and the member's
      // pages go from the disk too (before: they stayed until one of them was asked for).
      const html = await offline(page, context, "/clubs");
      expect(html).toContain("You're out of signal");
      expect(await savedPages(page)).toBe(0);
      await nothingOfTheMember(page, context, saved);
    },
  );
});

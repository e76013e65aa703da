import type { Page, Route } from "@playwright/test";
import { expect, test, uniqueName } from "./fixtures";

/**
 * Issue 12, at the edge of coverage: a send whose reply is lost is not doubled (idempotency keys,
 * CONTRACT.md §6), a failed send with JavaScript keeps the page and shows SPEC.md §8's toast, and
 * an ended session says so (docs/decisions/0030-idempotency-keys.md).
 */

/** The page at `path`, or its data (`.data`: where a form sent with JavaScript posts, single fetch). */
const isPath = (url: URL, path: string) => url.pathname === path || url.pathname === `${path}.data`;
const isPost = (route: Route, path: string) => route.request().method() === "POST" && isPath(new URL(route.request().url()), path);

/** Fail the next POST to `path` (or its `.data`) in one way; every other request goes through. */
async function failNextPost(page: Page, path: string, how: "lost-reply" | "abort" | 500) {
  let done = false;
  await page.route(
    (url) => isPath(url, path),
    async (route) => {
      if (done || !isPost(route, path)) return route.continue();
      done = true;
      if (how === 500) return route.fulfill({ status: 500, body: "Internal Server Error" });
      // The request reaches the server (which saves), then the reply is lost on the way back.
      if (how === "lost-reply") await route.fetch();
      return route.abort("connectionreset");
    },
  );
}

async function postsOf(page: Page, username: string): Promise<Array<{ title: string }>> {
  const res = await page.request.get(`/api/users/${username}/posts`);
  expect(res.status()).toBe(200);
  return (await res.json()) as Array<{ title: string }>;
}

async function fillPost(page: Page, title: string) {
  const form = page.getByRole("form", { name: "Create Post" });
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Content", { exact: true }).fill("Two does and a spike at first light, wind from the north.");
  return form;
}

test.describe("a resend by hand", () => {
  // This is the member's own resend, answered by its key. With a worker, Background Sync may send the
  // outbox's copy first (ADR 0034: also one post), and its "Post created!" can replace the failure's
  // toast before the member presses again. outbox.spec.ts covers that path.
  test.use({ serviceWorkers: "block" });

  test("a post whose reply is lost after the server saved it is not doubled by the resend", async ({ page, js, open, signUp }) => {
    const member = await signUp();
    await open("/create");
    const title = `Lost reply ${uniqueName("p")}`;
    const form = await fillPost(page, title);
    await failNextPost(page, "/create", "lost-reply");
    await form.getByRole("button", { name: "Publish Post" }).click();
    if (js) {
      // The page stays with what was typed; pressing Publish again sends the same key.
      await expect(page.getByTestId("toast")).toContainText("Failed to create post");
      await expect(form.getByLabel("Title")).toHaveValue(title);
      await form.getByRole("button", { name: "Publish Post" }).click();
    } else {
      // The browser's own resend of the same form post (what Chrome does after a lost reply).
      // Chromium may still be swapping in its error page when the reload starts ("not attached to an
      // active page"): reload again then. Every resend carries the same key, so the count below holds.
      await expect(async () => {
        await page.waitForLoadState();
        await page.reload();
      }).toPass({ timeout: 15_000 });
    }
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
    await expect(page).toHaveURL(/\/post\/\d+$/);
    expect((await postsOf(page, member.username)).filter((p) => p.title === title)).toHaveLength(1);
  });
});

test.describe("with JavaScript, a failed send keeps the page", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "without JavaScript a form post is a page load");

  test.describe("with the service worker blocked", () => {
    // page.route cannot see the worker's requests: its Background Sync would send the kept post at
    // once (the outbox, ADR 0034), where a real drop would stop it too; and the worker passes a
    // form sent with JavaScript on to the network itself, to read its viewer (ADR 0078).
    test.use({ serviceWorkers: "block" });

    test("a like answered 500 keeps the feed and shows 'Failed to update like'", async ({ page, open, signUp, createPost }) => {
      await signUp();
      const post = await createPost();
      await open("/");
      const card = page.getByTestId("post-card").filter({ hasText: post.title });
      await failNextPost(page, `/post/${post.id}`, 500);
      await card.getByTestId("like-button").click();
      await expect(page.getByTestId("toast")).toContainText("Error");
      await expect(page.getByTestId("toast")).toContainText("Failed to update like");
      await expect(card).toBeVisible();
      await expect(card.getByTestId("like-count")).toHaveText("0");
      await expect(page.getByText("Something went wrong")).toHaveCount(0);
    });

    test("a publish whose request is dropped keeps the title and content on /create", async ({ page, open, signUp }) => {
      const member = await signUp();
      await open("/create");
      const title = `Dropped ${uniqueName("p")}`;
      const form = await fillPost(page, title);
      await failNextPost(page, "/create", "abort");
      await form.getByRole("button", { name: "Publish Post" }).click();
      await expect(page.getByTestId("toast")).toContainText("Failed to create post");
      await expect(page).toHaveURL(/\/create$/);
      await expect(form.getByLabel("Title")).toHaveValue(title);
      await expect(form.getByLabel("Content", { exact: true })).toHaveValue(/Two does and a spike/);
      expect(await postsOf(page, member.username)).toHaveLength(0);
    });
  });

  test("a failed logout says 'Logout failed' and no earlier toast comes back", async ({ page, signUp, signIn, newPage }) => {
    const member = await signUp(await newPage());
    await signIn(member.username, member.password);
    await page.getByTestId("toast").getByTitle("Dismiss").click();
    await expect(page.getByTestId("toast")).toBeHidden();
    await failNextPost(page, "/logout", 500);
    await page.getByLabel("Account menu").click();
    await page.getByTestId("user-menu").getByRole("button", { name: "Log out" }).click();
    await expect(page.getByTestId("toast")).toContainText("Logout failed");
    await expect(page.getByLabel("Account menu")).toBeVisible();
    await expect(page.getByText("Welcome back!")).toHaveCount(0);
    await expect(page.getByText("Something went wrong")).toHaveCount(0);
  });
});

test.describe("a session that ended while the page was open", () => {
  /** End the session on the server (logged out elsewhere); the browser still sends its old cookie. */
  async function endSession(page: Page, baseURL: string) {
    const cookies = await page.context().cookies();
    const res = await page.request.post("/api/auth/logout", { headers: { Origin: baseURL } });
    expect(res.status()).toBeLessThan(300);
    await page.context().addCookies(cookies);
  }

  test("Publish says 'Please log in to create posts'", async ({ page, js, open, signUp, baseURL }) => {
    await signUp();
    await open("/create");
    const title = `Expired ${uniqueName("p")}`;
    const form = await fillPost(page, title);
    await endSession(page, baseURL!);
    await form.getByRole("button", { name: "Publish Post" }).click();
    await expect(page.getByTestId("toast")).toContainText("Please log in to create posts");
    if (js) {
      await expect(page).toHaveURL(/\/create$/);
      await expect(form.getByLabel("Title")).toHaveValue(title);
    } else {
      await expect(page).toHaveURL(/\/auth\?mode=login&redirectTo=%2Fcreate/);
    }
  });

  test("Post Comment says 'Please sign in to comment'", async ({ page, js, open, signUp, createPost, baseURL }) => {
    await signUp();
    const post = await createPost();
    await open(`/post/${post.id}`);
    const box = page.locator("#comments").getByRole("textbox", { name: "Add a comment" });
    await box.fill("Fresh scrape under the white oak");
    await endSession(page, baseURL!);
    await page.locator("#comments").getByRole("button", { name: "Post Comment" }).click();
    await expect(page.getByTestId("toast")).toContainText("Please sign in to comment");
    if (js) {
      await expect(page.getByTestId("toast")).toContainText("Failed to comment");
      await expect(box).toHaveValue("Fresh scrape under the white oak");
    } else {
      await expect(page).toHaveURL(/\/auth\?mode=login/);
    }
  });
});

test("two comments in a row are both added: each send of the form has a fresh key", async ({ page, open, signUp, createPost }) => {
  await signUp();
  const post = await createPost();
  await open(`/post/${post.id}`);
  const section = page.locator("#comments");
  for (const text of ["Buck chasing at nine", "Buck chasing at nine"]) {
    await section.getByRole("textbox", { name: "Add a comment" }).fill(text);
    await section.getByRole("button", { name: "Post Comment" }).click();
    await expect(section.getByRole("textbox", { name: "Add a comment" })).toHaveValue("");
  }
  await expect(section.getByTestId("comment")).toHaveCount(2);
  await page.reload();
  await expect(section.getByTestId("comment")).toHaveCount(2);
});

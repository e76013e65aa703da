import type { Page } from "@playwright/test";
import { apiClub, expect, hydrated, savedPage, test, uniqueName } from "./fixtures";

/**
 * Issue 12, "Outbox" (rural audit §5, §6): with JavaScript, a comment, like, follow, join (request)
 * or text-only post made with no signal waits on the device, shown in place, and goes by itself when
 * the signal returns, exactly once (docs/decisions/0034-outbox.md); a replay that meets an ended
 * session waits for the member to sign in again. Without JavaScript the forms post as before, so
 * every test here is js-on only.
 */
test.describe("the outbox", () => {
  test.skip(({ js }) => !js, "the outbox needs JavaScript; without it the forms post as before");

  const WAITING = "Waiting — will send when you're back in coverage";

  async function commentsOn(page: Page, postId: number): Promise<string[]> {
    const res = await page.request.get(`/api/posts/${postId}/comments`);
    expect(res.status()).toBe(200);
    return ((await res.json()) as Array<{ content: string }>).map((c) => c.content);
  }

  async function postOf(page: Page, postId: number) {
    const res = await page.request.get(`/api/posts/${postId}`);
    expect(res.status()).toBe(200);
    return (await res.json()) as { likes: number; isLiked: boolean };
  }

  async function sendComment(page: Page, text: string) {
    const section = page.locator("#comments");
    await section.getByRole("textbox", { name: "Add a comment" }).fill(text);
    await section.getByRole("button", { name: "Post Comment" }).click();
    return section;
  }

  /**
   * Wait until the service worker controls the page. Until it does, a send made offline in the first
   * moments of a first visit can fail in Remix's route discovery before the outbox sees it (ADR 0034,
   * "first visit"); these tests are about the outbox, so they start from a controlled page.
   */
  async function workerControls(page: Page) {
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
  }

  /**
   * Every POST to the paths fails at the network (a dropped send) until the returned function is
   * called: the page's form path (and its `.data`, where the form posts with JavaScript) and the
   * `/api/*` path the outbox sends to (ADR 0057).
   */
  async function dropPosts(page: Page, ...paths: string[]) {
    const handler = (route: Parameters<Parameters<Page["route"]>[1]>[0]) =>
      route.request().method() === "POST" ? route.abort("internetdisconnected") : route.continue();
    const matcher = (url: URL) => paths.includes(url.pathname) || paths.includes(url.pathname.replace(/\.data$/, ""));
    await page.route(matcher, handler);
    return () => page.unroute(matcher, handler);
  }

  /**
   * The page's data requests (`.data` GETs) from now on. After a send that waits, none may go out:
   * with no signal each one fails, and the worker then reloads the page (its saved copy, or the
   * offline page when it was never saved).
   */
  function dataRequests(page: Page): string[] {
    const urls: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "GET" && new URL(request.url()).pathname.endsWith(".data")) urls.push(request.url());
    });
    return urls;
  }

  test("a comment sent offline waits under the post and arrives once when the signal returns", async ({
    page,
    context,
    open,
    signUp,
    createPost,
  }) => {
    await signUp();
    const post = await createPost();
    await open(`/post/${post.id}`);
    await workerControls(page);
    const text = `Offline comment ${uniqueName("c")}`;
    await context.setOffline(true);
    const section = await sendComment(page, text);
    const waiting = section.getByTestId("waiting-comment");
    await expect(waiting).toContainText(text);
    await expect(waiting).toContainText(WAITING);
    await expect(section.getByRole("textbox", { name: "Add a comment" })).toHaveValue("");
    await expect(page.getByText("Something went wrong")).toHaveCount(0);

    await context.setOffline(false);
    await expect(section.getByTestId("comment").filter({ hasText: text })).toHaveCount(1);
    await expect(waiting).toHaveCount(0);
    expect((await commentsOn(page, post.id)).filter((c) => c === text)).toHaveLength(1);
    await page.reload();
    await hydrated(page);
    await expect(section.getByTestId("comment").filter({ hasText: text })).toHaveCount(1);
    expect((await commentsOn(page, post.id)).filter((c) => c === text)).toHaveLength(1);
  });

  test("a like made offline shows as liked and waiting, then counts once", async ({ page, context, open, signUp, createPost }) => {
    await signUp();
    const post = await createPost();
    await open(`/post/${post.id}`);
    await workerControls(page);
    const like = page.getByTestId("post").getByTestId("like-button");
    await context.setOffline(true);
    await like.click();
    await expect(like).toHaveAttribute("aria-pressed", "true");
    await expect(like.getByTestId("like-count")).toHaveText("1");
    await expect(like.getByTestId("like-waiting")).toBeVisible();

    await context.setOffline(false);
    await expect(like.getByTestId("like-waiting")).toHaveCount(0);
    await expect(like).toHaveAttribute("aria-pressed", "true");
    await expect.poll(async () => (await postOf(page, post.id)).likes).toBe(1);
  });

  test("a text-only post published offline waits, with a note, and is published once", async ({ page, context, open, signUp }) => {
    const member = await signUp();
    await open("/create");
    await workerControls(page);
    const title = `Offline post ${uniqueName("p")}`;
    const form = page.getByRole("form", { name: "Create Post" });
    await form.getByLabel("Title").fill(title);
    await form.getByLabel("Content", { exact: true }).fill("Glassing the bean field from the truck, one bar of signal.");
    await context.setOffline(true);
    await form.getByRole("button", { name: "Publish Post" }).click();
    await expect(page.getByTestId("toast")).toContainText("Failed to create post");
    const note = page.getByTestId("outbox-note");
    await expect(note).toContainText(title);
    await expect(note).toContainText(WAITING);
    // Pressing Publish again while it waits is the same send (the same key).
    await form.getByRole("button", { name: "Publish Post" }).click();
    await expect(note.getByRole("listitem")).toHaveCount(1);

    await context.setOffline(false);
    await expect(note).toHaveCount(0);
    const posts = async () => {
      const res = await page.request.get(`/api/users/${member.username}/posts`);
      return ((await res.json()) as Array<{ title: string }>).filter((p) => p.title === title).length;
    };
    await expect.poll(posts).toBe(1);
    // The form's draft was for that post: it is gone, and the form is empty again.
    await expect(form.getByLabel("Title")).toHaveValue("");
    await page.reload();
    await hydrated(page);
    expect(await posts()).toBe(1);
  });

  test("a follow made offline shows as waiting, survives an offline reload, and follows once when the signal returns", async ({
    page,
    context,
    open,
    signUp,
    newPage,
  }) => {
    const them = await signUp(await newPage(), "f");
    const member = await signUp();
    const profile = `/profile/${them.username}`;
    const followersOf = async () => {
      const res = await page.request.get(`/api/users/${them.username}`);
      expect(res.status()).toBe(200);
      return (await res.json()) as { followersCount: number; isFollowing: boolean };
    };
    await open(profile);
    // The offline reload below is served by the service worker's saved copy of this page.
    await savedPage(page, profile);
    const follow = page.getByRole("button", { name: /^Follow/ });
    await context.setOffline(true);
    await follow.click();
    await expect(follow).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByTestId("follow-waiting")).toBeVisible();
    await expect(page.getByTestId("followers-count")).toHaveText("1");

    // Reloaded with still no signal: the saved page shows the follow as waiting again.
    await page.reload();
    await hydrated(page);
    await expect(page.getByTestId("follow-waiting")).toBeVisible();
    await expect(follow).toHaveAttribute("aria-pressed", "true");
    expect((await followersOf()).followersCount).toBe(0);

    await context.setOffline(false);
    await expect(page.getByTestId("follow-waiting")).toHaveCount(0);
    await expect.poll(async () => (await followersOf()).followersCount).toBe(1);
    expect((await followersOf()).isFollowing).toBe(true);
    await open(`${profile}/followers`);
    await expect(
      page
        .getByTestId("follow-list")
        .getByRole("listitem")
        .filter({ hasText: `@${member.username}` }),
    ).toHaveCount(1);
  });

  test("a join request sent offline waits in the corner note and reaches the owner once", async ({
    page,
    context,
    open,
    signUp,
    newPage,
    baseURL,
  }) => {
    const owner = await newPage();
    await signUp(owner);
    const club = await apiClub(owner, baseURL!);
    const member = await signUp();
    const requestsFrom = async () => {
      const res = await owner.request.get(`/api/clubs/${club.id}/requests`);
      expect(res.status()).toBe(200);
      return ((await res.json()) as Array<{ message: string | null; user: { username: string } }>).filter(
        (r) => r.user.username === member.username,
      );
    };
    await open(`/clubs/${club.id}`);
    await workerControls(page);
    await page.getByRole("link", { name: "Request to Join" }).click();
    const dialog = page.getByRole("dialog", { name: `Request to join ${club.name}` });
    const message = `Offline request ${uniqueName("j")}`;
    await dialog.getByLabel("Message (optional)").fill(message);
    await context.setOffline(true);
    const refetched = dataRequests(page);
    await dialog.getByRole("button", { name: "Send Request" }).click();
    const note = page.getByTestId("outbox-note");
    await expect(note).toContainText("Join request");
    await expect(note).toContainText(WAITING);
    await page.waitForTimeout(1_000);
    expect(refetched).toEqual([]);
    await expect(note).toContainText(WAITING);
    expect(await requestsFrom()).toEqual([]);

    await context.setOffline(false);
    await expect(note).toHaveCount(0);
    await expect.poll(async () => (await requestsFrom()).map((r) => r.message)).toEqual([message]);
    // Checked on a fresh load: Playwright's setOffline(false) can reach the service worker a moment
    // after the page, so the page's own reload of its data may still meet "no signal".
    await page.reload();
    await hydrated(page);
    await expect(page.getByRole("button", { name: "Request Pending" })).toBeDisabled();
    expect(await requestsFrom()).toHaveLength(1);
  });

  test("a joining of a public club made offline joins once when the signal returns", async ({
    page,
    context,
    open,
    signUp,
    newPage,
    baseURL,
  }) => {
    const owner = await newPage();
    await signUp(owner);
    const club = await apiClub(owner, baseURL!, { isPrivate: false });
    const member = await signUp();
    const membersNamed = async () => {
      const res = await owner.request.get(`/api/clubs/${club.id}/members`);
      expect(res.status()).toBe(200);
      return JSON.stringify(await res.json()).split(`"username":"${member.username}"`).length - 1;
    };
    await open(`/clubs/${club.id}`);
    await workerControls(page);
    await context.setOffline(true);
    const refetched = dataRequests(page);
    await page.getByRole("button", { name: "Join Club" }).click();
    const note = page.getByTestId("outbox-note");
    await expect(note).toContainText("Join request");
    await expect(note).toContainText(WAITING);
    await page.waitForTimeout(1_000);
    expect(refetched).toEqual([]);
    await expect(note).toContainText(WAITING);
    expect(await membersNamed()).toBe(0);

    await context.setOffline(false);
    await expect(note).toHaveCount(0);
    await expect.poll(membersNamed).toBe(1);
    await page.reload();
    await hydrated(page);
    await expect(page.getByRole("link", { name: "Leave Club" })).toBeVisible();
    expect(await membersNamed()).toBe(1);
  });

  test("a send whose replay meets an ended session is kept, asks to sign in, and is sent once after signing in", async ({
    page,
    context,
    open,
    signUp,
    createPost,
  }) => {
    const member = await signUp();
    const post = await createPost();
    await open(`/post/${post.id}`);
    await workerControls(page);
    const text = `Comment across a sign-in ${uniqueName("s")}`;
    await context.setOffline(true);
    const section = await sendComment(page, text);
    const waiting = section.getByTestId("waiting-comment");
    await expect(waiting).toContainText(WAITING);

    // The session ends while the signal is away; the replay then meets it.
    await context.clearCookies();
    await context.setOffline(false);
    await expect(waiting).toContainText("Not sent yet: your session ended.");
    await expect(waiting).toContainText(text);
    expect(await commentsOn(page, post.id)).toEqual([]);

    await waiting.getByRole("link", { name: "Sign in" }).click();
    const form = page.locator("form#login");
    await form.getByLabel("Username").fill(member.username);
    await form.getByLabel("Password").fill(member.password);
    await form.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByTestId("toast")).toContainText("Welcome back!");
    await expect(page).toHaveURL(`/post/${post.id}`);
    await expect(section.getByTestId("comment").filter({ hasText: text })).toHaveCount(1);
    await expect(waiting).toHaveCount(0);
    expect(await commentsOn(page, post.id)).toEqual([text]);
    await page.reload();
    await hydrated(page);
    expect(await commentsOn(page, post.id)).toEqual([text]);
  });

  test.describe("with the service worker blocked (page.route cannot see its requests)", () => {
    test.use({ serviceWorkers: "block" });

    test("a waiting comment survives a reload, shows again, and the next page load sends it once", async ({
      page,
      open,
      signUp,
      createPost,
    }) => {
      await signUp();
      const post = await createPost();
      await open(`/post/${post.id}`);
      const text = `Reloaded comment ${uniqueName("c")}`;
      const restore = await dropPosts(page, `/post/${post.id}`, `/api/posts/${post.id}/comments`);
      const section = await sendComment(page, text);
      await expect(section.getByTestId("waiting-comment")).toContainText(text);

      // Reloaded while the send still cannot get through: it shows again in place, still waiting.
      await page.reload();
      await hydrated(page);
      await expect(section.getByTestId("waiting-comment")).toContainText(text);
      expect(await commentsOn(page, post.id)).toEqual([]);

      await restore();
      await page.reload();
      await expect(section.getByTestId("comment").filter({ hasText: text })).toHaveCount(1);
      await expect(section.getByTestId("waiting-comment")).toHaveCount(0);
      expect(await commentsOn(page, post.id)).toEqual([text]);
    });

    test("after logout, or another member signing in, nothing queued is sent as the next member", async ({
      page,
      context,
      open,
      signUp,
      signIn,
      createPost,
      newPage,
    }) => {
      // Two members, four sign-ins and a dozen page loads: 25–30 s on a 2-core machine, and 1 run in 4
      // passed the 30 s limit before issue 31's changes too (measured on 2e607dd).
      test.slow();
      const first = await signUp();
      const post = await createPost();
      const second = await signUp(await newPage(), "n");
      await open(`/post/${post.id}`);
      const restore = await dropPosts(page, `/post/${post.id}`, `/api/posts/${post.id}/comments`);
      await sendComment(page, "Queued by the first member, then logged out");
      await expect(page.getByTestId("waiting-comment")).toHaveCount(1);
      // What would be lost is shown, with its text, before anything is dropped (ADR 0057).
      const asked = new Promise<string>((resolve) =>
        page.once("dialog", (dialog) => {
          resolve(dialog.message());
          void dialog.accept();
        }),
      );
      await page.getByLabel("Account menu").click();
      await page.getByTestId("user-menu").getByRole("button", { name: "Log out" }).click();
      expect(await asked).toContain("• Comment: Queued by the first member, then logged out");
      await expect(page.getByTestId("toast")).toContainText("Logged out");
      await restore();
      await signIn(second.username, second.password);
      await open(`/post/${post.id}`);
      await expect(page.getByTestId("waiting-comment")).toHaveCount(0);

      // No logout: the first member's session simply ends, and the second signs in on the device.
      await context.clearCookies();
      await signIn(first.username, first.password);
      await open(`/post/${post.id}`);
      const again = await dropPosts(page, `/post/${post.id}`, `/api/posts/${post.id}/comments`);
      await sendComment(page, "Queued by the first member, session ended");
      await expect(page.getByTestId("waiting-comment")).toHaveCount(1);
      await context.clearCookies();
      await again();
      await signIn(second.username, second.password);
      await open(`/post/${post.id}`);
      await expect(page.getByTestId("waiting-comment")).toHaveCount(0);
      await page.reload();
      await hydrated(page);
      expect(await commentsOn(page, post.id)).toEqual([]);
    });
  });
});

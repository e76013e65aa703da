import type { Page } from "@playwright/test";
import { expect, hydrated, test, uniqueName } from "./fixtures";

/**
 * Issue 12, "Outbox" (rural audit §5, §6): with JavaScript, a comment, like or text-only post made
 * with no signal waits on the device, shown in place, and goes by itself when the signal returns,
 * exactly once (docs/decisions/0034-outbox.md). Without JavaScript the forms post as before, so
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

  /** Every POST to `path` fails at the network (a dropped send) until the returned function is called. */
  async function dropPosts(page: Page, path: string) {
    const handler = (route: Parameters<Parameters<Page["route"]>[1]>[0]) =>
      route.request().method() === "POST" ? route.abort("internetdisconnected") : route.continue();
    const matcher = (url: URL) => url.pathname === path;
    await page.route(matcher, handler);
    return () => page.unroute(matcher, handler);
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
      const restore = await dropPosts(page, `/post/${post.id}`);
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
      const first = await signUp();
      const post = await createPost();
      const second = await signUp(await newPage(), "n");
      await open(`/post/${post.id}`);
      const restore = await dropPosts(page, `/post/${post.id}`);
      await sendComment(page, "Queued by the first member, then logged out");
      await expect(page.getByTestId("waiting-comment")).toHaveCount(1);
      await page.getByLabel("Account menu").click();
      await page.getByTestId("user-menu").getByRole("button", { name: "Log out" }).click();
      await expect(page.getByTestId("toast")).toContainText("Logged out");
      await restore();
      await signIn(second.username, second.password);
      await open(`/post/${post.id}`);
      await expect(page.getByTestId("waiting-comment")).toHaveCount(0);

      // No logout: the first member's session simply ends, and the second signs in on the device.
      await context.clearCookies();
      await signIn(first.username, first.password);
      await open(`/post/${post.id}`);
      const again = await dropPosts(page, `/post/${post.id}`);
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

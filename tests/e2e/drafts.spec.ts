import type { Page, Route } from "@playwright/test";
import sharp from "sharp";
import { expect, hydrated, test } from "./fixtures";

/**
 * Local drafts (issue 12, ADR 0031): with JavaScript, what a member types into the post, comment,
 * join and club forms is kept in localStorage per member and form until the server confirms it, so
 * a reload, a dropped send or a sign-in round trip gives it back. Without JavaScript the server
 * already re-renders what was typed after a refusal (kept below). Input made while the JavaScript
 * is still on its way is never dropped when it arrives.
 */

const jsOnly = "drafts live in the browser: JavaScript on";

/** Resolves once a draft of `form` (key suffix) is in localStorage, with its values. */
async function savedDraft(page: Page, form: string) {
  const handle = await page.waitForFunction((suffix) => {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith("wp-draft:") && key.endsWith(`:${suffix}`)) return localStorage.getItem(key);
    }
    return null;
  }, form);
  return JSON.parse((await handle.jsonValue()) as string) as { v: Record<string, string[]> };
}

const draftKeys = (page: Page) =>
  page.evaluate(() => Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i)).filter((k) => k?.startsWith("wp-draft:")));

async function typePost(page: Page, title: string) {
  const form = page.getByRole("form", { name: "Create Post" });
  await form.getByLabel("Opinion").check();
  await form.getByLabel("Title", { exact: true }).fill(title);
  await form.getByLabel("Content", { exact: true }).fill("First paragraph about the rut.\n\nSecond paragraph: scrapes everywhere.");
  await form.getByLabel("Tags", { exact: true }).fill("rut");
  await form.getByLabel("Tags", { exact: true }).press("Enter");
  return form;
}

test("a typed post survives a reload, with a note that offers to discard it", async ({ page, js, open, signUp }) => {
  test.skip(!js, jsOnly);
  await signUp();
  await open("/create");
  await typePost(page, "Rut report from the ridge");
  await savedDraft(page, "post-create");

  await page.reload();
  await hydrated(page);
  const form = page.getByRole("form", { name: "Create Post" });
  await expect(page.getByTestId("draft-note")).toContainText("Restored your unsent draft");
  await expect(form.getByLabel("Title", { exact: true })).toHaveValue("Rut report from the ridge");
  await expect(form.getByLabel("Content", { exact: true })).toHaveValue(/Second paragraph: scrapes everywhere\./);
  await expect(form.getByLabel("Opinion")).toBeChecked();
  await expect(form.getByTestId("editor-tags")).toContainText("#rut");

  await page.getByRole("button", { name: "Discard draft" }).click();
  await expect(page.getByTestId("draft-note")).toHaveCount(0);
  await expect(form.getByLabel("Title", { exact: true })).toHaveValue("");
  await expect(form.getByLabel("Article")).toBeChecked();
  expect(await draftKeys(page)).toEqual([]);
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole("form", { name: "Create Post" }).getByLabel("Title", { exact: true })).toHaveValue("");
});

test.describe("with the service worker blocked", () => {
  // page.route cannot see the worker's own requests, and its Background Sync would send the post
  // around the dropped route (ADR 0034).
  test.use({ serviceWorkers: "block" });

  test("a send that is dropped keeps the draft until the server confirms the post, which then removes it", async ({
    page,
    js,
    open,
    signUp,
  }) => {
    test.skip(!js, jsOnly);
    const me = await signUp();
    await open("/create");
    const form = await typePost(page, "Dropped in the creek bottom");
    const dropped = (route: Route) => (route.request().method() === "POST" ? route.abort() : route.continue());
    // The page's form post, and the /api call the outbox resends it as (ADR 0057).
    const publish = (url: URL) => ["/create", "/create.data", "/api/posts"].includes(url.pathname);
    await page.route(publish, dropped);
    await form.getByRole("button", { name: "Publish Post" }).click();
    await page.waitForTimeout(500);

    // Still no way through (the outbox's own resend on this load is dropped too): the draft is back.
    await open("/create");
    const again = page.getByRole("form", { name: "Create Post" });
    await expect(again.getByLabel("Title", { exact: true })).toHaveValue("Dropped in the creek bottom");
    await expect(again.getByTestId("editor-tags")).toContainText("#rut");

    // The signal returns: the outbox (ADR 0034) publishes it once on the next page load, and only the
    // server's confirmation removes the draft.
    await page.unroute(publish, dropped);
    const posts = async () => {
      const res = await page.request.get(`/api/users/${me.username}/posts`);
      return ((await res.json()) as Array<{ title: string }>).filter((p) => p.title === "Dropped in the creek bottom").length;
    };
    await open("/");
    await expect.poll(posts).toBe(1);
    await expect.poll(() => draftKeys(page)).toEqual([]);

    await open("/create");
    await expect(page.getByRole("form", { name: "Create Post" }).getByLabel("Title", { exact: true })).toHaveValue("");
    await expect(page.getByTestId("draft-note")).toHaveCount(0);
    expect(await posts()).toBe(1);
  });
});

test("an expired session on Create: the member signs in and comes back to the text", async ({ page, js, open, signUp }) => {
  test.skip(!js, jsOnly);
  const me = await signUp();
  await open("/create");
  const form = await typePost(page, "Typed before the session ran out");
  await savedDraft(page, "post-create");
  await page.context().clearCookies();
  await form.getByRole("button", { name: "Publish Post" }).click();
  // The page stays and says why; its toast leads to sign in and back (issue 12, deviation #3).
  await expect(page.getByTestId("toast")).toContainText("Please log in to create posts");
  await page.getByTestId("toast").getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/auth/);
  const login = page.locator("form#login");
  await login.getByLabel("Username").fill(me.username);
  await login.getByLabel("Password").fill(me.password);
  await login.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/create$/);
  await hydrated(page);
  await expect(page.getByRole("form", { name: "Create Post" }).getByLabel("Title", { exact: true })).toHaveValue(
    "Typed before the session ran out",
  );
  await expect(page.getByTestId("draft-note")).toBeVisible();
});

test("the comment box keeps a draft per post until the comment is added", async ({ page, js, open, signUp, createPost }) => {
  test.skip(!js, jsOnly);
  await signUp();
  const first = await createPost();
  const second = await createPost();
  const box = page.locator("#comments").getByRole("textbox", { name: "Add a comment" });

  await open(`/post/${first.id}`);
  await box.fill("Saw him at 40 yards");
  await savedDraft(page, `comment:${first.id}`);
  await open(`/post/${second.id}`);
  await expect(box).toHaveValue("");
  await page.goBack();
  await hydrated(page);
  await expect(box).toHaveValue("Saw him at 40 yards");
  await page.reload();
  await hydrated(page);
  await expect(box).toHaveValue("Saw him at 40 yards");
  await expect(page.locator("#comments").getByTestId("draft-note")).toBeVisible();

  await page.locator("#comments").getByRole("button", { name: "Post Comment" }).click();
  await expect(page.locator("#comments").getByTestId("comment").filter({ hasText: "Saw him at 40 yards" })).toHaveCount(1);
  await expect(box).toHaveValue("");
  expect(await draftKeys(page)).toEqual([]);
  await page.reload();
  await hydrated(page);
  await expect(box).toHaveValue("");
});

test("a member's draft is gone after logout and never shown to the next member", async ({ page, js, open, signUp }) => {
  test.skip(!js, jsOnly);
  await signUp();
  await open("/create");
  await typePost(page, "Private thoughts of the first hunter");
  await savedDraft(page, "post-create");
  await page.getByLabel("Account menu").click();
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page.getByRole("link", { name: "Sign In" }).first()).toBeVisible();
  expect(await draftKeys(page)).toEqual([]);

  await signUp();
  await open("/create");
  await expect(page.getByRole("form", { name: "Create Post" }).getByLabel("Title", { exact: true })).toHaveValue("");
  await expect(page.getByTestId("draft-note")).toHaveCount(0);
});

test("another member on the same device never sees a draft left by a session that expired", async ({ page, js, open, signUp }) => {
  test.skip(!js, jsOnly);
  await signUp();
  await open("/create");
  await typePost(page, "Left behind by an expired session");
  await savedDraft(page, "post-create");
  await page.context().clearCookies();

  await signUp();
  await open("/create");
  await expect(page.getByRole("form", { name: "Create Post" }).getByLabel("Title", { exact: true })).toHaveValue("");
  await expect(page.getByTestId("draft-note")).toHaveCount(0);
  // The first member's text is not left readable on the device either.
  expect(await draftKeys(page)).toEqual([]);
});

test("the edit form keeps a draft too", async ({ page, js, open, signUp, createPost }) => {
  test.skip(!js, jsOnly);
  await signUp();
  const post = await createPost({ title: "Stored title" });
  await open(`/post/${post.id}?edit=1`);
  const form = page.getByTestId("edit-post-form");
  await form.getByLabel("Title", { exact: true }).fill("Edited but not saved");
  await savedDraft(page, `post-edit:${post.id}`);
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("edit-post-form").getByLabel("Title", { exact: true })).toHaveValue("Edited but not saved");
  await expect(page.getByTestId("draft-note")).toBeVisible();
  await page.getByTestId("edit-post-form").getByRole("button", { name: "Update Post" }).click();
  await expect(page.getByRole("heading", { name: "Edited but not saved" })).toBeVisible();
  expect(await draftKeys(page)).toEqual([]);
});

test("Create Club and a join request's message keep drafts until the server confirms them", async ({ page, js, open, signUp, newPage }) => {
  test.skip(!js, jsOnly);
  await signUp();
  await open("/clubs/create");
  const form = page.locator("form#create-club");
  await form.getByLabel("Club name").fill("Creek Bottom Crew");
  await form.getByLabel("Description").fill("Plans, work days and harvest logs for the lease.");
  await form.getByRole("textbox", { name: "Tags" }).fill("lease");
  await form.getByRole("textbox", { name: "Tags" }).press("Enter");
  await savedDraft(page, "club-create");
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("draft-note")).toBeVisible();
  await expect(form.getByLabel("Club name")).toHaveValue("Creek Bottom Crew");
  await expect(form.getByRole("button", { name: "Remove tag lease" })).toBeVisible();
  await expect(form.getByRole("switch", { name: "Private Club" })).toBeChecked();
  await form.getByRole("button", { name: "Create Club" }).click();
  await expect(page).toHaveURL(/\/clubs\/\d+$/);
  const clubId = Number(/\/clubs\/(\d+)/.exec(page.url())![1]);
  expect(await draftKeys(page)).toEqual([]);

  const other = await newPage();
  await signUp(other);
  await open(`/clubs/${clubId}`, other);
  await other.getByRole("link", { name: "Request to Join" }).click();
  await other.getByLabel("Message (optional)").fill("I hunt the next farm over");
  await savedDraft(other, `join:${clubId}`);
  await other.reload();
  await hydrated(other);
  await other.getByRole("link", { name: "Request to Join" }).click();
  await expect(other.getByLabel("Message (optional)")).toHaveValue("I hunt the next farm over");
  await other.getByRole("button", { name: "Send Request" }).click();
  await expect(other.getByTestId("toast")).toContainText("Request sent");
  expect(await draftKeys(other)).toEqual([]);
});

test("without JavaScript a refused post comes back as typed, with no draft note", async ({ page, js, open, signUp }) => {
  test.skip(js, "the no-JS path: the server re-renders the form");
  await signUp();
  await open("/create");
  const form = page.getByRole("form", { name: "Create Post" });
  await form.getByLabel("Title", { exact: true }).fill("Short one");
  await form.getByLabel("Content", { exact: true }).fill("Too short");
  await form.getByLabel("Tags", { exact: true }).fill("rut, scrapes");
  await form.getByRole("button", { name: "Publish Post" }).click();
  await expect(form.getByLabel("Title", { exact: true })).toHaveValue("Short one");
  await expect(form.getByLabel("Content", { exact: true })).toHaveValue("Too short");
  await expect(form.getByLabel("Tags", { exact: true })).toHaveValue("rut, scrapes");
  await expect(page.getByTestId("draft-note")).toHaveCount(0);
});

test("what is typed and chosen before the JavaScript arrives survives hydration", async ({ page, js, signUp }) => {
  test.skip(!js, "hydration happens only with JavaScript");
  await signUp();
  // Hold the app's JavaScript until the member has typed and chosen a file.
  const held: Route[] = [];
  let released = false;
  await page.route("**/assets/**", (route) => (released ? route.continue() : void held.push(route)));
  // Module scripts hold DOMContentLoaded back: wait for the HTML only.
  await page.goto("/create", { waitUntil: "commit" });
  const form = page.getByRole("form", { name: "Create Post" });
  await expect(form.getByRole("button", { name: "Publish Post" })).toBeVisible();
  await form.getByLabel("Title", { exact: true }).fill("Typed on one bar of signal");
  await form.getByLabel("Content", { exact: true }).fill("Written while the page was still loading its scripts.");
  await form.getByLabel("Tags", { exact: true }).fill("rut, scrapes, public land");
  const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 90, g: 110, b: 60 } } })
    .jpeg()
    .toBuffer();
  await page.getByTestId("media-file-input").setInputFiles({ name: "stand.jpg", mimeType: "image/jpeg", buffer: picture });
  expect(held.length).toBeGreaterThan(0);

  released = true;
  for (const route of held.splice(0)) await route.continue();
  await hydrated(page);

  await expect(form.getByLabel("Title", { exact: true })).toHaveValue("Typed on one bar of signal");
  await expect(form.getByLabel("Content", { exact: true })).toHaveValue("Written while the page was still loading its scripts.");
  await expect(form.getByTestId("editor-tags")).toContainText("#rut");
  await expect(form.getByTestId("editor-tags")).toContainText("#public land");
  await expect(form.getByTestId("uploaded-files")).toContainText("stand.jpg");

  await form.getByRole("button", { name: "Publish Post" }).click();
  await expect(page).toHaveURL(/\/post\/\d+/);
  const id = Number(new URL(page.url()).pathname.split("/").pop());
  const saved = (await (await page.request.get(`/api/posts/${id}`)).json()) as { tags: string[]; mediaFiles?: unknown[] };
  expect(saved.tags).toEqual(["rut", "scrapes", "public land"]);
});

test("a title typed into the edit form before the JavaScript arrives survives hydration", async ({ page, js, signUp, createPost }) => {
  test.skip(!js, "hydration happens only with JavaScript");
  await signUp();
  const post = await createPost({ title: "Stored title" });
  const held: Route[] = [];
  let released = false;
  await page.route("**/assets/**", (route) => (released ? route.continue() : void held.push(route)));
  await page.goto(`/post/${post.id}?edit=1`, { waitUntil: "commit" });
  const form = page.getByTestId("edit-post-form");
  await form.getByLabel("Title", { exact: true }).fill("Typed while loading");
  released = true;
  for (const route of held.splice(0)) await route.continue();
  await hydrated(page);
  await page.waitForTimeout(300);
  await expect(form.getByLabel("Title", { exact: true })).toHaveValue("Typed while loading");
  await expect(form.getByRole("button", { name: "Update Post" })).toBeEnabled();
});

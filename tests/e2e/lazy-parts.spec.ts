import type { Page } from "@playwright/test";
import sharp from "sharp";
import { apiClub, expect, test, uniqueName } from "./fixtures";

/**
 * Parts fetched on demand (docs/decisions/0044: the toast card, the Radix dialog, a feed card's
 * edit dialogs) whose file does not arrive, as on a weak link (docs/decisions/0045). Before, React
 * threw to the route's error page ("Something went wrong"), wiping the page and what was typed in
 * it; now each part has a plain stand-in and the member carries on.
 */

// page.route must see every script request, not a service worker's cache.
test.use({ serviceWorkers: "block" });
test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "parts fetched on demand are JavaScript's");

/**
 * Requests for the build file whose name starts with `name-`, a later try's fresh address included
 * (`?retry=N`: a browser never fetches an address whose module failed again, utils/import-again.ts).
 */
const chunk = (name: string) => new RegExp(`/assets/${name}-[\\w-]{8}\\.js(?:\\?retry=\\d+)?$`);

/**
 * The toast card's file: the shell's lazy parts in one (vite.config.ts, ADR 0097), so cutting it
 * also cuts the outbox's wire and the routes ahead, as a weak link would.
 */
const TOAST_CARD_FILE = "shell-later";

/** Every request for the build file whose name starts with `name-` fails, as with no signal. */
async function cut(page: Page, name: string) {
  const failed: string[] = [];
  await page.route(chunk(name), (route) => {
    failed.push(route.request().url());
    return route.abort("internetdisconnected");
  });
  return failed;
}

async function noErrorPage(page: Page) {
  await expect(page.getByText("Something went wrong")).toHaveCount(0);
}

/** Uncaught errors and unhandled rejections on the page (an early fetch of a part that failed, say). */
function pageErrors(page: Page) {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

test("a toast whose card cannot be fetched still shows, as a plain card, on the page as it was", async ({ page, open, signUp }) => {
  const member = await signUp(page.context());
  await page.context().clearCookies();
  const failed = await cut(page, TOAST_CARD_FILE);
  await open("/auth?mode=login");
  const form = page.locator("form#login");
  await form.getByLabel("Username").fill(member.username);
  await form.getByLabel("Password").fill(member.password);
  await form.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByTestId("toast")).toContainText("Welcome back!");
  expect(failed.length, "the card's file was asked for, and failed").toBeGreaterThan(0);
  await noErrorPage(page);
  await expect(page.getByTestId("post-card").first()).toBeVisible();
  // It goes when dismissed.
  await page.getByTestId("toast").getByRole("button", { name: "Dismiss" }).click();
  await expect(page.getByTestId("toast")).toHaveCount(0);
});

test("a comment refused with a toast keeps what was typed when the card cannot be fetched", async ({ page, open, signUp, createPost }) => {
  await signUp();
  const post = await createPost({ title: `Cut card ${uniqueName("cc")}` });
  await cut(page, TOAST_CARD_FILE);
  await open(`/post/${post.id}`);
  const reply = "Saw two does and a spike at the creek crossing at first light.";
  await page.locator("#comment-content").fill(reply);
  // The session ends while the member types: the answer is a refusal, shown as a toast.
  await page.context().clearCookies();
  await page.getByRole("button", { name: "Post Comment" }).click();
  await expect(page.getByTestId("toast")).toContainText("Failed to comment");
  await noErrorPage(page);
  await expect(page.locator("#comment-content")).toHaveValue(reply);
});

test("the Edit Post dialog opens without Radix's file, and saves", async ({ page, open, signUp, createPost }) => {
  await signUp();
  const title = `Plain dialog ${uniqueName("pd")}`;
  const post = await createPost({ title });
  const failed = await cut(page, "dialog");
  const errors = pageErrors(page);
  await open(`/post/${post.id}`);
  await page.getByLabel("Post options").click();
  await page.getByRole("link", { name: "Edit Post" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Post" });
  await expect(dialog.getByLabel("Title")).toHaveValue(title);
  expect(failed.length, "Radix's file was asked for, and failed").toBeGreaterThan(0);
  await dialog.getByLabel("Title").fill(`${title} (edited)`);
  await dialog.getByRole("button", { name: "Update Post" }).click();
  await expect(page.getByTestId("toast")).toContainText("Post updated");
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${title} (edited)`);
  // Escape closes it too.
  await page.getByLabel("Post options").click();
  await page.getByRole("link", { name: "Edit Post" }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await noErrorPage(page);
  expect(errors, "the menu's early fetch of Radix failed quietly").toEqual([]);
});

test("a feed card's Edit Post goes to the post's edit page when the dialogs' file cannot be fetched", async ({
  page,
  open,
  signUp,
  createPost,
}) => {
  await signUp();
  const tag = uniqueName("cd").replace(/_/g, "");
  const post = await createPost({ title: `Card dialogs ${tag}`, tags: [tag] });
  const failed = await cut(page, "dialogs");
  await open(`/?search=${encodeURIComponent(`#${tag}`)}`);
  const card = page.getByTestId("post-card").filter({ hasText: post.title });
  await card.getByLabel("Post options").click();
  await card.getByRole("link", { name: "Edit Post" }).click();
  await expect(page).toHaveURL(new RegExp(`/post/${post.id}\\?edit=1$`));
  expect(failed.length, "the dialogs' file was asked for, and failed").toBeGreaterThan(0);
  await expect(page.getByTestId("edit-post-form").getByLabel("Title")).toHaveValue(post.title);
});

test("Edit Club says so when its form cannot be fetched, and opens once it can", async ({ page, open, signUp, baseURL }) => {
  await signUp();
  const club = await apiClub(page, baseURL!);
  let signal = false;
  await page.route(chunk("forms"), (route) => (signal ? route.continue() : route.abort("internetdisconnected")));
  await open(`/clubs/${club.id}`);
  await page.getByRole("link", { name: "Edit Club" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Club" });
  await expect(dialog.getByRole("alert")).toContainText("could not be loaded");
  await noErrorPage(page);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  // The signal is back: opening it again fetches the form.
  signal = true;
  await page.getByRole("link", { name: "Edit Club" }).click();
  await expect(dialog.getByLabel("Club Name")).toHaveValue(club.name);
});

test("a photo chosen before the Edit Profile form's code arrives is sent once it does", async ({ page, open, signUp }) => {
  const me = await signUp();
  // A slow link: the form's code comes only when released.
  let release: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (release = resolve));
  await page.route(chunk("edit-form"), async (route) => {
    await arrived;
    await route.continue();
  });
  await open(`/profile/${me.username}?edit=1`);
  // Meanwhile the page shows the server's form: a file input and Upload. The member picks a photo.
  const upload = page.getByTestId("avatar-upload");
  await expect(upload.getByRole("button", { name: "Upload", exact: true })).toBeVisible();
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#56692c" } })
    .png()
    .toBuffer();
  await upload.locator('input[type="file"]').setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
  release();
  // The code arrives and the form comes alive: the photo chosen goes up, it is not dropped.
  await expect(page.getByTestId("toast")).toContainText("Avatar updated");
  await noErrorPage(page);
});

/**
 * A page's main form whose code comes after the first load (docs/decisions/0046): the post editor and
 * the invite form. Hydration keeps the server's form until the code arrives, and keeps it, working,
 * when the code does not come.
 */
test.describe("a page's main form drawn by the server", () => {
  test("the post editor's code does not come: the server's form stays, keeps what was typed, and publishes", async ({ page, signUp }) => {
    await signUp();
    const failed = await cut(page, "editor");
    const errors = pageErrors(page);
    await page.goto("/create");
    // The rest of the page hydrates; the form stays as the server drew it.
    await page.waitForFunction(() => document.documentElement.dataset.parts === "hydrating");
    await expect.poll(() => failed.length, { message: "the editor's file was asked for" }).toBeGreaterThan(0);
    const form = page.getByRole("form", { name: "Create Post" });
    const title = `Server form ${uniqueName("sf")}`;
    await form.getByLabel("Title").fill(title);
    await form.getByLabel("Content", { exact: true }).fill("Cold front coming in, the deer will be on their feet at dusk.");
    // Without the editor's code, tags are the plain comma-separated field.
    await form.getByLabel("Tags").fill("rut, scrapes");
    await noErrorPage(page);
    await expect(form.getByLabel("Title")).toHaveValue(title);
    await form.getByRole("button", { name: "Publish Post" }).click();
    await expect(page).toHaveURL(/\/post\/\d+$/);
    await expect(page.getByTestId("post").getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(page.getByTestId("post").getByRole("list", { name: "Tags" }).getByRole("link")).toHaveText(["#rut", "#scrapes"]);
    expect(errors).toEqual([]);
  });

  test("the post editor's code comes on a later try: the form hydrates in place, keeping what was typed", async ({ page, signUp }) => {
    await signUp();
    let signal = false;
    let asked = 0;
    await page.route(chunk("editor"), (route) => {
      asked += 1;
      return signal ? route.continue() : route.abort("internetdisconnected");
    });
    await page.goto("/create");
    await page.waitForFunction(() => document.documentElement.dataset.parts === "hydrating");
    const form = page.getByRole("form", { name: "Create Post" });
    await form.getByLabel("Title").fill("Typed before the code came");
    // No "Add" button yet: the server's tags field is the plain one.
    await expect(form.getByRole("button", { name: "Add", exact: true })).toHaveCount(0);
    signal = true;
    // The editor asks again by itself (a timer, or the browser going online).
    await page.waitForFunction(() => document.documentElement.dataset.parts === undefined, undefined, { timeout: 15_000 });
    expect(asked).toBeGreaterThan(1);
    await expect(form.getByRole("button", { name: "Add", exact: true })).toBeVisible();
    await expect(form.getByLabel("Title")).toHaveValue("Typed before the code came");
    await noErrorPage(page);
  });

  test("reached in the browser with no editor code, Create Post says so and offers the plain page", async ({ page, open, signUp }) => {
    await signUp();
    await cut(page, "editor");
    await open("/clubs");
    await page.getByRole("link", { name: "Create", exact: true }).click();
    await expect(page).toHaveURL(/\/create$/);
    const alert = page.getByRole("main").getByRole("alert");
    await expect(alert).toContainText("could not be loaded");
    await noErrorPage(page);
    // The link loads the page afresh: the server draws the form, which works without the code.
    await alert.getByRole("link", { name: "Open the page again" }).click();
    await expect(page.getByRole("form", { name: "Create Post" }).getByLabel("Title")).toBeVisible();
  });

  test("the invite form's code does not come: the server's form makes an invite", async ({ page, signUp, baseURL }) => {
    await signUp();
    const club = await apiClub(page, baseURL!);
    await cut(page, "invite-form");
    await page.goto(`/clubs/${club.id}/invites`);
    await page.waitForFunction(() => document.documentElement.dataset.parts === "hydrating");
    await page.getByLabel("Max uses (optional)").fill("3");
    await page.getByRole("button", { name: "Generate Invite Link" }).click();
    await expect(page.getByTestId("generated-invite")).toContainText("3 uses left");
    await noErrorPage(page);
  });
});

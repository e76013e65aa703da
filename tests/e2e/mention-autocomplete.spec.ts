import type { Locator, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, test } from "./fixtures";

/**
 * @mention suggestions (ux-3 U20, issue 42): display names are not usernames (Dani Ortiz is
 * @scrapeline), so with JavaScript typing `@` and the start of a name in the comment box or a post's
 * content offers the members it may mean, as "Dani Ortiz @scrapeline"; a tap, or the arrow keys and
 * Enter or Tab, puts `@scrapeline ` in place of what was typed. The people already in the thread come
 * at once, without a request; others from `GET /api/users?mention=`, asked once the typing pauses and
 * kept for the page's life. On a 390 px phone, options at least 44 px tall, axe clean with the list
 * open. Without JavaScript nothing changes: `@username` typed by hand still mentions.
 */

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

/** The demo post's id, by its title (db/seed-demo.ts). */
async function demoPost(page: Page, title: string): Promise<number> {
  const res = await page.request.get(`/api/posts?search=${encodeURIComponent(title)}`);
  const posts = (await res.json()) as { id: number; title: string }[];
  const post = posts.find((p) => p.title === title);
  if (!post) throw new Error(`no demo post "${title}"`);
  return post.id;
}

/** Counts the page's requests to the suggestions' URL. */
function lookups(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/api/users") seen.push(url.searchParams.get("mention") ?? "");
  });
  return seen;
}

/** The list offers exactly these members, in this order, each named as "Display Name @username" (the avatar is decoration). */
async function expectOffered(listbox: Locator, names: string[]) {
  const options = listbox.getByRole("option");
  await expect(options).toHaveCount(names.length);
  for (const [i, name] of names.entries()) await expect(options.nth(i)).toHaveAccessibleName(name);
}

const box = (page: Page) => page.locator("#comments").getByRole("textbox", { name: "Add a comment" });
const list = (page: Page) => page.locator("#comments").getByRole("listbox", { name: "Members to mention" });

test("typing @dan in a comment offers Dani Ortiz @scrapeline; the keys pick her, the draft keeps it, and the comment mentions her", async ({
  page,
  js,
  open,
  signUp,
  newPage,
}) => {
  test.skip(!js, "suggestions are JavaScript's; js-off: the test below");
  const me = await signUp();
  const asked = lookups(page);
  // Maggie Rourke's post: Dani Ortiz (@scrapeline) is not in its thread, so the server is asked.
  const postId = await demoPost(page, "Clover beats brassicas for most small plots");
  await open(`/post/${postId}`);

  const comment = box(page);
  await comment.click();
  await comment.pressSequentially("Ask @dan", { delay: 40 });
  const options = list(page).getByRole("option");
  await expectOffered(list(page), ["Dani Ortiz @scrapeline"]);
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  // Asked once the typing paused: not once per letter.
  expect(asked).toEqual(["dan"]);

  // The box is ARIA's list autocomplete: it controls the list; the active option is its descendant.
  const listId = await list(page).getAttribute("id");
  await expect(comment).toHaveAttribute("aria-autocomplete", "list");
  await expect(comment).toHaveAttribute("aria-controls", listId!);
  await expect(comment).toHaveAttribute("aria-activedescendant", (await options.first().getAttribute("id"))!);
  // A phone's tap target, within the screen.
  const option = (await options.first().boundingBox())!;
  expect(option.height).toBeGreaterThanOrEqual(44);
  expect(option.x).toBeGreaterThanOrEqual(0);
  expect(option.x + option.width).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page);

  // Escape closes the list and leaves the text; the arrow keys and Enter pick.
  await comment.press("Escape");
  await expect(list(page)).toBeHidden();
  await expect(comment).not.toHaveAttribute("aria-activedescendant", /./);
  await expect(comment).toHaveValue("Ask @dan");
  await comment.press("Backspace");
  await comment.press("n");
  await expectOffered(list(page), ["Dani Ortiz @scrapeline"]);
  // The same text again: from the page's memory, not the server.
  expect(asked).toEqual(["dan"]);
  await comment.press("ArrowDown");
  await comment.press("ArrowUp");
  await comment.press("Enter");
  await expect(comment).toHaveValue("Ask @scrapeline ");
  await expect(list(page)).toBeHidden();
  await expect(comment).toBeFocused();
  await comment.pressSequentially("about the clover.");
  await expect(comment).toHaveValue("Ask @scrapeline about the clover.");

  // The draft keeps what the pick put in the box (useDraft, 400 ms after the last change).
  await page.waitForTimeout(700);
  await open(`/post/${postId}`);
  await expect(box(page)).toHaveValue("Ask @scrapeline about the clover.");

  // Posted: the mention is a link to her profile, and she is told, as any mention.
  await page.locator("#comments").getByRole("button", { name: "Post Comment" }).click();
  const posted = page.locator("#comments").getByTestId("comment").filter({ hasText: "about the clover." });
  await expect(posted.getByRole("link", { name: "@scrapeline", exact: true })).toHaveAttribute("href", "/profile/scrapeline");
  const dani = await newPage();
  const login = await dani.request.post("/api/auth/login", {
    data: { username: "scrapeline", password: "whitetail" },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(login.status()).toBe(200);
  const { items } = (await (await dani.request.get("/api/notifications")).json()) as {
    items: { kind: string; actors: { username: string }[]; post?: { id: number } }[];
  };
  expect(items.some((n) => n.kind === "mention" && n.post?.id === postId && n.actors.some((a) => a.username === me.username))).toBe(true);
});

test("people in the thread come at once, without a request; a tap picks, and a longer name is narrowed without asking again", async ({
  page,
  js,
  open,
  signUp,
}) => {
  test.skip(!js, "suggestions are JavaScript's");
  await signUp();
  const asked = lookups(page);
  // Jake Holloway's post, on which Walt Pruitt and Dani Ortiz commented.
  const postId = await demoPost(page, "Reading rub lines in the early pre-rut");
  await open(`/post/${postId}`);
  // No lookup at all until the box is used (nor the list's code).
  expect(asked).toEqual([]);

  const comment = box(page);
  await comment.tap();
  await comment.pressSequentially("@");
  // Only `@`: the thread's people, the post's author first, and no request.
  await expectOffered(list(page), ["Jake Holloway @ridgerunner", "Walt Pruitt @oldbuck_ohio", "Dani Ortiz @scrapeline"]);
  await comment.pressSequentially("Or");
  await expectOffered(list(page), ["Dani Ortiz @scrapeline"]);
  await list(page).getByRole("option", { name: "Dani Ortiz @scrapeline" }).tap();
  await expect(comment).toHaveValue("@scrapeline ");
  await expect(comment).toBeFocused();
  await expect(list(page)).toBeHidden();

  // "ma": Maggie Rourke (@doe_talker) is not in the thread: asked once; "mag" and "magg" are narrowed from it.
  await comment.pressSequentially("and @ma", { delay: 40 });
  await expectOffered(list(page), ["Maggie Rourke @doe_talker"]);
  expect(asked).toEqual(["ma"]);
  await comment.pressSequentially("gg");
  await expectOffered(list(page), ["Maggie Rourke @doe_talker"]);
  await page.waitForTimeout(400);
  expect(asked).toEqual(["ma"]);
  await comment.press("Tab");
  await expect(comment).toHaveValue("@scrapeline and @doe_talker ");
});

test("the post editor's content offers members too, and the pick stays in the form", async ({ page, js, open, signUp }) => {
  test.skip(!js, "suggestions are JavaScript's");
  await signUp();
  await open("/create");
  const content = page.getByTestId("post-content-input");
  await content.click();
  await content.pressSequentially("Scouting with @Rou", { delay: 40 });
  const list = page.getByRole("listbox", { name: "Members to mention" });
  await expectOffered(list, ["Maggie Rourke @doe_talker"]);
  await expectNoAxeViolations(page);
  await content.press("Enter");
  await expect(content).toHaveValue("Scouting with @doe_talker ");
  await content.pressSequentially("on the ridge.");
  await page.getByLabel("Title").fill("Mentions from the editor");
  await page.getByRole("button", { name: "Publish Post" }).click();
  await expect(page).toHaveURL(/\/post\/\d+$/);
  await expect(page.getByTestId("post-content").getByRole("link", { name: "@doe_talker" })).toHaveAttribute("href", "/profile/doe_talker");
});

test("without JavaScript the box is as it was: no list, and @username typed by hand mentions", async ({ page, js, open, signUp }) => {
  test.skip(js, "the plain page");
  await signUp();
  const postId = await demoPost(page, "Clover beats brassicas for most small plots");
  await open(`/post/${postId}`);
  await expect(page.getByRole("listbox")).toHaveCount(0);
  await box(page).fill("By hand: @scrapeline knows clover.");
  await page.locator("#comments").getByRole("button", { name: "Post Comment" }).click();
  const posted = page.locator("#comments").getByTestId("comment").filter({ hasText: "By hand:" });
  await expect(posted.getByRole("link", { name: "@scrapeline", exact: true })).toHaveAttribute("href", "/profile/scrapeline");
});

test("in the Edit Post dialog, Escape closes the list and not the dialog, and the pick is saved", async ({
  page,
  js,
  open,
  signUp,
  createPost,
}) => {
  test.skip(!js, "the dialog is JavaScript's");
  await signUp();
  const post = await createPost({ content: "Sat the creek crossing this morning." });
  await open(`/post/${post.id}`);
  await page.getByTestId("post").getByLabel("Post options").click();
  await page.getByRole("link", { name: "Edit Post" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Post" });
  const content = dialog.getByLabel("Content");
  await content.click();
  await content.press("End");
  await content.pressSequentially(" With @walt", { delay: 40 });
  const list = dialog.getByRole("listbox", { name: "Members to mention" });
  await expectOffered(list, ["Walt Pruitt @oldbuck_ohio"]);
  await content.press("Escape");
  await expect(list).toBeHidden();
  await expect(dialog).toBeVisible();
  await content.pressSequentially("_");
  await content.press("Backspace");
  await expectOffered(list, ["Walt Pruitt @oldbuck_ohio"]);
  await list.getByRole("option").first().click();
  await expect(content).toHaveValue("Sat the creek crossing this morning. With @oldbuck_ohio ");
  await dialog.getByRole("button", { name: "Update Post" }).click();
  await expect(page.getByTestId("toast")).toContainText("Post updated");
  await expect(page.getByTestId("post-content").getByRole("link", { name: "@oldbuck_ohio" })).toHaveAttribute(
    "href",
    "/profile/oldbuck_ohio",
  );
});

test("a tab signed out and in as another member asks the server again: the page's memory was the first member's", async ({
  page,
  js,
  open,
  signUp,
  newPage,
  baseURL,
}) => {
  test.skip(!js, "suggestions are JavaScript's");
  await signUp();
  // The second member has blocked Dani Ortiz (@scrapeline): the server never offers her to them.
  const other = await newPage();
  const second = await signUp(other);
  const blocked = await other.request.post("/api/users/scrapeline/block", { headers: { Origin: baseURL! } });
  expect(blocked.status()).toBe(200);
  await other.close();

  const postId = await demoPost(page, "Clover beats brassicas for most small plots");
  await open(`/post/${postId}`);
  await box(page).click();
  await box(page).pressSequentially("@dan", { delay: 40 });
  await expectOffered(list(page), ["Dani Ortiz @scrapeline"]);
  await box(page).fill("");

  // Out and in as the second member in this same tab (client-side navigations: the page's code stays).
  const asked = lookups(page);
  await page.getByTestId("user-menu").locator("summary").click();
  await page.getByRole("button", { name: "Log out" }).click();
  await page.getByRole("link", { name: "Sign In" }).first().click();
  const form = page.locator("form#login");
  await form.getByLabel("Username").fill(second.username);
  await form.getByLabel("Password").fill(second.password);
  await form.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByTestId("toast")).toContainText("Welcome back!");
  // Back to the post by the phone's search (client-side too): the feed's first page may not hold it.
  await page.getByRole("banner").getByRole("link", { name: "Search" }).click();
  const search = page.getByRole("searchbox", { name: "Search" });
  await search.fill("Clover beats brassicas");
  await search.press("Enter");
  await page.getByRole("link", { name: "Clover beats brassicas for most small plots" }).first().click();
  await expect(page).toHaveURL(`/post/${postId}`);

  await box(page).click();
  await box(page).pressSequentially("@dan", { delay: 40 });
  await expect.poll(() => asked).toEqual(["dan"]);
  await expect(list(page)).toBeHidden();
});

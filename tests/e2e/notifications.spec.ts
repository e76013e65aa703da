import type { Page } from "@playwright/test";
import { expect, setSiteRole, test, type ApiPost } from "./fixtures";

/**
 * /notifications and the top bar's count (issue 26, CONTRACT.md §7 "Pages"), JavaScript off (plain
 * forms, POST/redirect/GET) and on (fetchers). Member B comments on member A's post; A hears of it.
 */

async function comment(as: Page, baseURL: string, post: ApiPost, content: string) {
  const res = await as.request.post(`/api/posts/${post.id}/comments`, { data: { content }, headers: { Origin: baseURL } });
  expect(res.status(), await res.text()).toBe(201);
}

const bell = (page: Page) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Notifications/ });

test("a comment shows in the top bar and the title, links to the post, and Mark all read clears it", async ({
  page,
  open,
  signUp,
  createPost,
  newPage,
  baseURL,
}) => {
  await signUp();
  const other = await newPage();
  const b = await signUp(other, "nb");
  const post = await createPost({ title: "Ridge buck at first light" });

  await open("/");
  await expect(bell(page)).toHaveAccessibleName("Notifications");
  await expect(page).not.toHaveTitle(/^\(/);

  await comment(other, baseURL!, post, "Great buck, where was this?");
  await open("/");
  await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");
  await expect(page).toHaveTitle(/^\(1\) /);
  // The server's HTML carries both (no JavaScript needed).
  const html = await (await page.request.get("/")).text();
  expect(html).toContain('aria-label="Notifications, 1 unread"');
  expect(html).toMatch(/<title>\(1\) /);

  await bell(page).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page).toHaveTitle(/^\(1\) Notifications/);
  const item = page.getByTestId("notification");
  await expect(item).toHaveCount(1);
  const link = item.getByRole("link", { name: `Unread: ${b.displayName} commented on “Ridge buck at first light”` });
  await expect(link).toHaveAttribute("href", new RegExp(`^/post/${post.id}`));
  await expect(item.getByRole("time")).toContainText(/minute|ago/);

  await page.getByRole("button", { name: "Mark all read" }).click();
  await expect(item).toHaveAttribute("data-read", "true");
  await expect(bell(page)).toHaveAccessibleName("Notifications");
  await expect(page).not.toHaveTitle(/^\(/);
  await expect(page.getByRole("button", { name: "Mark all read" })).toHaveCount(0);
  await expect(item.getByRole("link", { name: /^Unread/ })).toHaveCount(0);
});

test("a row's Mark read needs no toast with JavaScript; opening one marks its comment and the bell follows (ux-3 U11)", async ({
  page,
  js,
  open,
  signUp,
  createPost,
  newPage,
  baseURL,
}) => {
  await signUp();
  const other = await newPage();
  await signUp(other, "nb");
  const post = await createPost({ title: "Opened from the list" });
  await comment(other, baseURL!, post, "First comment on it");
  await comment(other, baseURL!, post, "Second comment on it");

  await open("/notifications");
  await expect(bell(page)).toHaveAccessibleName("Notifications, 2 unread");
  const items = page.getByTestId("notification");
  await items
    .first()
    .getByRole("button", { name: /^Mark read/ })
    .click();
  await expect(items.first()).toHaveAttribute("data-read", "true");
  // The bell shows the page's data reloaded after the send, toast and all: with JavaScript the row
  // says it, and a toast could follow the member to the next page; without it the page is new.
  await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");
  if (js) await expect(page.getByTestId("toast")).toHaveCount(0);
  else await expect(page.getByTestId("toast")).toContainText("Marked read");

  await items
    .nth(1)
    .getByRole("link", { name: /^Unread: / })
    .click();
  await expect(page).toHaveURL(new RegExp(`/post/${post.id}#comment-\\d+$`));
  const target = page.locator(new URL(page.url()).hash);
  await expect(target).toContainText("First comment on it");
  // Marked: by :target without JavaScript, by data-targeted with it (a client navigation leaves :target).
  await expect(target).toHaveCSS("background-color", "rgb(255, 251, 235)");
  await expect(page.getByTestId("comment").filter({ hasText: "Second comment on it" })).toHaveCSS("background-color", "rgb(255, 255, 255)");
  // Opening it marked it read on the way (a POST, with JavaScript): the bell follows at once.
  if (js) await expect(bell(page)).toHaveAccessibleName("Notifications");
});

test("on a phone a row's text has the width, Mark read is a 44 px ✓, and the site's own notice shows its badge, not a '?' (ux-3 U12)", async ({
  page,
  open,
  signUp,
  createPost,
  newPage,
  baseURL,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUp();
  const other = await newPage();
  await signUp(other, "nb");
  const post = await createPost({ title: "A title long enough that a phone wraps it over lines" });
  await comment(other, baseURL!, post, "Where was this?");
  // A moderator removes another post: its author hears of it from the site, with no member's face.
  // (A removed post's own notifications leave the list with it.)
  const removedPost = await createPost({ title: "Tags for sale" });
  const modPage = await newPage();
  const moderator = await signUp(modPage, "mod");
  setSiteRole(moderator.username, "moderator");
  const removed = await modPage.request.post(`/api/moderation/posts/${removedPost.id}/remove`, {
    data: { reason: "Testing the notice" },
    headers: { Origin: baseURL! },
  });
  expect(removed.status(), await removed.text()).toBe(200);

  await open("/notifications");
  const rows = page.getByTestId("notification");
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ has: page.getByTestId("site-avatar") })).toHaveCount(1);
  for (const row of await rows.all()) {
    const mark = (await row.getByRole("button", { name: /^Mark read/ }).boundingBox())!;
    expect(mark.width).toBeLessThanOrEqual(48);
    expect(mark.height).toBeGreaterThanOrEqual(44);
    const text = (await row.getByRole("link").boundingBox())!;
    expect(text.width).toBeGreaterThan(0.55 * (await row.boundingBox())!.width);
  }
});

test("Mark read marks one; more than 30 page with Older; signed out gets the sign-in notice", async ({
  page,
  open,
  signUp,
  createPost,
  newPage,
  baseURL,
}) => {
  test.setTimeout(90_000); // 32 comments through the API first
  await signUp();
  const other = await newPage();
  await signUp(other, "nb");
  const post = await createPost({ title: "Many comments" });
  for (let i = 1; i <= 32; i += 1) await comment(other, baseURL!, post, `Comment number ${i}`);

  await open("/notifications");
  await expect(bell(page)).toHaveAccessibleName("Notifications, 32 unread");
  const items = page.getByTestId("notification");
  await expect(items).toHaveCount(30);
  await expect(items.first().getByRole("link", { name: /^Unread: / })).toBeVisible();

  const first = items.first();
  await first.getByRole("button", { name: /^Mark read/ }).click();
  await expect(first).toHaveAttribute("data-read", "true");
  await expect(bell(page)).toHaveAccessibleName("Notifications, 31 unread");
  await expect(page).toHaveTitle(/^\(31\) /);
  await expect(items.nth(1)).toHaveAttribute("data-read", "false");

  await page.getByRole("link", { name: "Older" }).click();
  await expect(page).toHaveURL(/\/notifications\?cursor=\d+$/);
  await expect(items).toHaveCount(2);
  await expect(page.getByRole("link", { name: "Older" })).toHaveCount(0);
  // Marking one on this page comes back to this page.
  await items
    .first()
    .getByRole("button", { name: /^Mark read/ })
    .click();
  await expect(items.first()).toHaveAttribute("data-read", "true");
  await expect(page).toHaveURL(/\/notifications\?cursor=\d+$/);
  await expect(bell(page)).toHaveAccessibleName("Notifications, 30 unread");

  // Tap targets on a phone: the bar's link and the page's buttons are at least 44 px.
  await page.setViewportSize({ width: 390, height: 800 });
  for (const target of [bell(page), items.nth(1).getByRole("button", { name: /^Mark read/ }), page.getByRole("link", { name: "Newest" })]) {
    const box = await target.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
    expect(box!.width).toBeGreaterThanOrEqual(44);
  }

  const visitor = await newPage();
  const response = await visitor.goto("/notifications");
  expect(response!.status()).toBe(401);
  await expect(visitor.getByText("Please sign in to see your notifications.")).toBeVisible();
  await expect(visitor.getByRole("link", { name: "Sign In" }).last()).toHaveAttribute("href", /redirectTo=%2Fnotifications/);
});

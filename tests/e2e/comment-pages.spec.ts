import { expect, test } from "./fixtures";

/**
 * Comments in pages (issue 13): a long thread shows its first 30 comments, oldest first, and a
 * 'Show more comments' link. Without JavaScript the link opens the next page at #comments; with it
 * the next page is added in place. A comment added meanwhile shows at once, and the count is the
 * thread's, not the page's.
 */

test("a long thread comes in pages behind 'Show more comments'", async ({ page, js, open, signUp, createPost, baseURL }) => {
  test.setTimeout(90_000);
  await signUp();
  const post = await createPost();
  for (let i = 1; i <= 35; i++) {
    const res = await page.request.post(`/api/posts/${post.id}/comments`, {
      data: { content: `Sit number ${i}` },
      headers: { Origin: baseURL! },
    });
    expect(res.status()).toBe(201);
  }
  await open(`/post/${post.id}`);
  const section = page.locator("#comments");
  await expect(section.getByRole("heading", { name: "Comments (35)" })).toBeVisible();
  await expect(section.getByTestId("comment")).toHaveCount(30);
  await expect(section.getByTestId("comment").first()).toContainText("Sit number 1");
  await expect(section.getByTestId("comment").last()).toContainText("Sit number 30");

  await section.getByRole("link", { name: "Show more comments" }).click();
  if (js) {
    // In place: the first page stays, the next one follows it, and the page did not change.
    await expect(section.getByTestId("comment")).toHaveCount(35);
    await expect(section.getByTestId("comment").first()).toContainText("Sit number 1");
    await expect(page).toHaveURL(new RegExp(`/post/${post.id}$`));
  } else {
    await expect(page).toHaveURL(new RegExp(`/post/${post.id}\\?comments=[^#]+#comments$`));
    await expect(section.getByTestId("comment")).toHaveCount(5);
    await expect(section.getByTestId("comment").first()).toContainText("Sit number 31");
    await expect(section.getByRole("link", { name: "Show the first comments" })).toBeVisible();
  }
  await expect(section.getByTestId("comment").last()).toContainText("Sit number 35");
  await expect(section.getByRole("link", { name: "Show more comments" })).toHaveCount(0);
  await expect(section.getByRole("heading", { name: "Comments (35)" })).toBeVisible();
});

test("a comment added below an unopened page shows at once", async ({ page, open, signUp, createPost, baseURL }) => {
  test.setTimeout(90_000);
  await signUp();
  const post = await createPost();
  for (let i = 1; i <= 32; i++) {
    const res = await page.request.post(`/api/posts/${post.id}/comments`, {
      data: { content: `Track ${i}` },
      headers: { Origin: baseURL! },
    });
    expect(res.status()).toBe(201);
  }
  await open(`/post/${post.id}`);
  const section = page.locator("#comments");
  await section.getByRole("textbox", { name: "Add a comment" }).fill("Fresh scrape by the creek");
  await section.getByRole("button", { name: "Post Comment" }).click();
  await expect(section.getByTestId("comment").filter({ hasText: "Fresh scrape by the creek" })).toBeVisible();
  await expect(section.getByRole("heading", { name: "Comments (33)" })).toBeVisible();
});

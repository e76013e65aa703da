import { expect, test } from "./fixtures";

/**
 * A member's own comments (issue 14, Beyond SPEC #2 and #3): deleting asks first, and a comment can
 * be edited in place, with JavaScript off (pages and plain forms) and on (a dialog, same form).
 */

async function commentOn(page: import("@playwright/test").Page, content: string) {
  const section = page.locator("#comments");
  await section.getByRole("textbox", { name: "Add a comment" }).fill(content);
  await section.getByRole("button", { name: "Post Comment" }).click();
  await expect(section.getByTestId("comment").filter({ hasText: content })).toHaveCount(1);
  // The test's only comment (a text filter would lose it while its text sits in the edit box).
  return section.getByTestId("comment").first();
}

test("deleting a comment asks for confirmation; Cancel keeps it, Delete removes it", async ({ page, js, open, signUp, createPost }) => {
  await signUp();
  const post = await createPost();
  await open(`/post/${post.id}`);
  const comment = await commentOn(page, "Three scrapes on the ridge");
  const confirm = page.getByRole("alertdialog", { name: "Delete Comment" });

  await comment.getByRole("link", { name: "Delete comment" }).click();
  await expect(confirm).toContainText("Are you sure you want to delete this comment?");
  await confirm
    .getByRole("link", { name: "Cancel" })
    .or(confirm.getByRole("button", { name: "Cancel" }))
    .click();
  await expect(confirm).toHaveCount(0);
  await expect(page.locator("#comments").getByTestId("comment")).toHaveCount(1);
  if (js) await expect(comment.getByRole("link", { name: "Delete comment" })).toBeFocused();

  await comment.getByRole("link", { name: "Delete comment" }).click();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.locator("#comments").getByTestId("comment")).toHaveCount(0);
  await page.reload();
  await expect(page.locator("#comments").getByTestId("comment")).toHaveCount(0);
});

test("the author edits a comment in place; a blank edit keeps the form with its message; others cannot edit", async ({
  page,
  open,
  signUp,
  createPost,
  newPage,
}) => {
  await signUp();
  const post = await createPost();
  await open(`/post/${post.id}`);
  const comment = await commentOn(page, "Fisrt light on the ridge");

  await comment.getByRole("link", { name: "Edit comment" }).click();
  const form = comment.getByRole("form", { name: "Edit comment" });
  const text = form.getByRole("textbox", { name: "Comment" });
  await expect(text).toHaveValue("Fisrt light on the ridge");
  await text.fill("   ");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form).toContainText("Comment cannot be empty");
  await expect(text).toHaveValue("   ");

  await text.fill("First light on the ridge");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Comment updated");
  await expect(page.locator("#comments").getByTestId("comment")).toContainText("First light on the ridge");
  await expect(page.locator("#comments").getByRole("form", { name: "Edit comment" })).toHaveCount(0);

  // Another member sees no Edit link, and the edit param shows them no form.
  const other = await newPage();
  await signUp(other);
  await open(`/post/${post.id}?edit-comment=1`, other);
  await expect(other.locator("#comments").getByRole("link", { name: "Edit comment" })).toHaveCount(0);
  await expect(other.locator("#comments").getByRole("form", { name: "Edit comment" })).toHaveCount(0);
});

import { expect, test } from "./fixtures";

/**
 * @mentions (issue 26, CONTRACT.md §7): `@username` of a member who exists is a link to their
 * profile on the cards, on the post page and in comments; an unknown name, and anything that only
 * looks like markup, stays text. JavaScript off (server HTML) and on (hydrated: the link navigates
 * in the app).
 */

test("a mention links to the profile on the card, the post page and in a comment; an unknown name stays text", async ({
  page,
  open,
  signUp,
  createPost,
  newPage,
}) => {
  const named = await signUp(await newPage(), "nm");
  const author = await signUp();
  const unknown = `@ghost_${named.username.slice(-8)}`;
  const post = await createPost({
    content: `Morning sit with @${named.username.toUpperCase()} and ${unknown} on the ridge. <b>@<script>alert(1)</script></b>`,
  });

  // The card, on the author's profile.
  await open(`/profile/${author.username}`);
  const card = page.locator(`#post-${post.id}`);
  const cardLink = card.getByTestId("post-excerpt").getByRole("link", { name: `@${named.username.toUpperCase()}` });
  await expect(cardLink).toHaveAttribute("href", `/profile/${named.username}`);
  await expect(card.getByTestId("post-excerpt")).toContainText(`${unknown} on the ridge. <b>@<script>alert(1)</script></b>`);
  await expect(card.getByTestId("post-excerpt").getByRole("link")).toHaveCount(1);

  // The post page's text.
  await open(`/post/${post.id}`);
  const body = page.getByTestId("post-content");
  await expect(body.getByRole("link")).toHaveCount(1);
  await expect(body.getByRole("link", { name: `@${named.username.toUpperCase()}` })).toHaveAttribute("href", `/profile/${named.username}`);
  await expect(body).toContainText(`${unknown} on the ridge. <b>@<script>alert(1)</script></b>`);
  expect(await page.locator("[data-testid=post-content] script, [data-testid=post-content] b").count()).toBe(0);

  // A comment, sent through the page's own form.
  const section = page.locator("#comments");
  await section.getByRole("textbox", { name: "Add a comment" }).fill(`Good one @${named.username}, ask ${unknown}`);
  await section.getByRole("button", { name: "Post Comment" }).click();
  const comment = section.getByTestId("comment").filter({ hasText: "Good one" });
  await expect(comment).toHaveCount(1);
  await expect(comment.getByRole("link", { name: `@${named.username}`, exact: true })).toHaveAttribute(
    "href",
    `/profile/${named.username}`,
  );
  await expect(comment).toContainText(`ask ${unknown}`);
  await expect(comment.getByRole("link", { name: unknown })).toHaveCount(0);

  // Following the link lands on the member's profile.
  await body.getByRole("link", { name: `@${named.username.toUpperCase()}` }).click();
  await expect(page).toHaveURL(new RegExp(`/profile/${named.username}$`));
  await expect(page.getByRole("heading", { name: named.displayName })).toBeVisible();
});

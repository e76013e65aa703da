import { expect, test } from "./fixtures";

/**
 * Issue 14 #12: a signed-out visitor's cards ask for link previews as a member's do (before, the
 * endpoint answered visitors 401 and their cards never asked, so they saw bare links).
 */
test("a visitor's post card asks for the link preview of a post without stored metadata", async ({
  page,
  js,
  open,
  signUp,
  createPost,
  newPage,
}) => {
  test.skip(!js, "the preview request is a JavaScript enhancement; without it the plain link shows");
  const author = await newPage();
  await signUp(author);
  // This sandbox reaches no such site, so the post is published without stored metadata.
  const post = await createPost({ type: "podcast", mediaUrl: "https://podcasts.invalid/episode-1" }, author);
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/fetch-url-metadata"));
  await open(`/post/${post.id}`);
  expect((await answer).status()).toBe(200);
  await expect(page.getByTestId("media-link")).toHaveText("https://podcasts.invalid/episode-1");
});

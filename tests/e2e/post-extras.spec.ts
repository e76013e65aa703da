import { expect, test } from "./fixtures";

/**
 * Posts beyond SPEC (issue 14, the audit's "Beyond SPEC" list): a club post outside its club names
 * the club. Each test runs with JavaScript off and on, except where the behaviour exists in one only.
 */

test("a club post on its author's profile and its page names the club, linking to it; inside the club it does not (beyond SPEC #6)", async ({
  page,
  baseURL,
  open,
  signUp,
  createPost,
}) => {
  const me = await signUp();
  const name = `Big Woods Camp ${Date.now()}`;
  const created = await page.request.post("/api/clubs", {
    data: { name, description: "Deer camp up north since 1971.", isPrivate: false },
    headers: { Origin: baseURL! },
  });
  expect(created.status(), await created.text()).toBe(201);
  const clubId = ((await created.json()) as { id: number }).id;
  const clubPost = await createPost({ title: "Who brings the stove?", clubId });
  const plainPost = await createPost({ title: "Scrapes on the ridge" });

  await open(`/profile/${me.username}`);
  const clubCard = page.locator(`#post-${clubPost.id}`);
  await expect(clubCard.getByTestId("post-club")).toHaveText(`in ${name}`);
  await expect(clubCard.getByRole("link", { name })).toHaveAttribute("href", `/clubs/${clubId}`);
  await expect(page.locator(`#post-${plainPost.id}`).getByTestId("post-club")).toHaveCount(0);

  await clubCard.getByRole("link", { name }).click();
  await expect(page).toHaveURL(`/clubs/${clubId}`);
  await expect(page.locator(`#post-${clubPost.id}`)).toBeVisible();
  await expect(page.getByTestId("post-club")).toHaveCount(0);

  await open(`/post/${clubPost.id}`);
  await expect(page.getByTestId("post-club")).toHaveText(`in ${name}`);
});

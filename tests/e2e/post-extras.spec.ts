import { expect, test } from "./fixtures";

/**
 * Posts beyond SPEC (issue 14, the audit's "Beyond SPEC" list): a club post outside its club names
 * the club; a video or podcast Media URL offers its type. Each test runs with JavaScript off and on, except where the behaviour exists in one only.
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

test("a YouTube or podcast Media URL offers the Video or Podcast type while the type is Article (beyond SPEC #10)", async ({
  page,
  js,
  open,
  signUp,
}) => {
  await signUp();
  await open("/create");
  const form = page.getByRole("form", { name: "Create Post" });
  const mediaUrl = form.getByLabel("Media URL (optional)");
  const radio = (name: string) => form.getByRole("radio", { name: new RegExp(`^${name}`) });
  const offer = (type: string) => form.getByRole("button", { name: `Make this a ${type} post` });

  await mediaUrl.fill("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
  if (!js) {
    // Without JavaScript nothing changes: no offer, the type stays Article.
    await expect(form.getByRole("button", { name: /Make this a/ })).toHaveCount(0);
    await expect(radio("Article")).toBeChecked();
    return;
  }
  await expect(form.getByText("Looks like a video.")).toBeVisible();
  // Only an offer: the type is still Article until the member takes it.
  await expect(radio("Article")).toBeChecked();
  await offer("Video").click();
  await expect(radio("Video")).toBeChecked();
  await expect(offer("Video")).toHaveCount(0);

  // A type the member chose is never second-guessed.
  await radio("Opinion").check();
  await mediaUrl.fill("https://open.spotify.com/episode/4rOoJ6Egrf8K2IrywzwOMk");
  await expect(form.getByRole("button", { name: /Make this a/ })).toHaveCount(0);
  await expect(radio("Opinion")).toBeChecked();

  await radio("Article").check();
  await expect(form.getByText("Looks like a podcast.")).toBeVisible();
  await offer("Podcast").click();
  await expect(radio("Podcast")).toBeChecked();

  // Any other link offers nothing.
  await radio("Article").check();
  await mediaUrl.fill("https://www.outdoorlife.com/hunting/whitetail-rut-guide");
  await expect(form.getByRole("button", { name: /Make this a/ })).toHaveCount(0);
});

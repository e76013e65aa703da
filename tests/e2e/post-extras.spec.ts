import type { Page } from "@playwright/test";
import sharp from "sharp";
import { expect, test } from "./fixtures";

/**
 * Posts beyond SPEC (issue 14, the audit's "Beyond SPEC" list): a club post outside its club names
 * the club; a video or podcast Media URL offers its type; the upload area takes dropped files. Each test runs with JavaScript off and on, except where the behaviour exists in one only.
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

/** A DataTransfer built in the page, carrying one PNG as a dragged file would. */
async function draggedPng(page: Page, name: string) {
  const bytes = [
    ...(await sharp({ create: { width: 8, height: 8, channels: 3, background: "#607040" } })
      .png()
      .toBuffer()),
  ];
  return page.evaluateHandle(
    ([bytes, name]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes as number[])], name as string, { type: "image/png" }));
      return dt;
    },
    [bytes, name] as const,
  );
}

test("files dropped on the upload area upload; a file dropped elsewhere does not leave the form (beyond SPEC #9)", async ({
  page,
  js,
  open,
  signUp,
}) => {
  test.skip(!js, "without JavaScript the upload area is a plain file input");
  await signUp();
  await open("/create");
  const form = page.getByRole("form", { name: "Create Post" });
  await form.getByLabel("Title").fill("Half-written post");
  const zone = page.getByTestId("drop-zone");

  const dataTransfer = await draggedPng(page, "scrape.png");
  await zone.dispatchEvent("dragenter", { dataTransfer });
  await zone.dispatchEvent("dragover", { dataTransfer });
  await expect(zone).toHaveAttribute("data-dragging", "true");
  await expect(zone).toContainText("Drop to upload");
  await zone.dispatchEvent("drop", { dataTransfer });
  await expect(zone).not.toHaveAttribute("data-dragging");
  await expect(page.getByTestId("uploaded-files")).toContainText("scrape.png");
  await expect(page.getByTestId("uploaded-files").locator('input[name="uploadedFiles"]')).toHaveCount(1);

  // Dropped on the title or the page around the form, the file is refused (the browser would
  // otherwise open it in place of the half-written post) and nothing else happens.
  const elsewhere = await draggedPng(page, "stray.png");
  const refused = await page.evaluate(
    (dt) =>
      ["h1", "input[name=title]", "body"].map((selector) => {
        const target = document.querySelector(selector)!;
        const init = { dataTransfer: dt, bubbles: true, cancelable: true };
        target.dispatchEvent(new DragEvent("dragover", init));
        return !target.dispatchEvent(new DragEvent("drop", init));
      }),
    elsewhere,
  );
  expect(refused).toEqual([true, true, true]);
  await expect(page).toHaveURL(/\/create$/);
  await expect(form.getByLabel("Title")).toHaveValue("Half-written post");
  await expect(page.getByTestId("uploaded-files").getByRole("listitem")).toHaveCount(1);
});

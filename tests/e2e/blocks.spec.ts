import { expect, expectNoAxeViolations, test } from "./fixtures";

/**
 * Blocks (CONTRACT.md §8 "Blocks"), JavaScript off and on: a member blocks another from their
 * profile (a dialog with JavaScript, the inline confirmation at ?block=1 without), no longer sees
 * their posts on home or their comments on a post, finds them in Settings › Privacy and unblocks
 * them there; the blocked member's comment on the blocker's post is refused.
 */
test.describe("blocks", () => {
  test("block from the profile, the effects, and unblock from Settings › Privacy", async ({
    page,
    js,
    open,
    signUp,
    createPost,
    newPage,
    baseURL,
  }) => {
    const other = await newPage();
    const pest = await signUp(other, "pest");
    const theirs = await createPost({ title: `Pest post ${pest.username}` }, other);
    const me = await signUp(page, "me");
    const mine = await createPost({ title: `My post ${me.username}` }, page);
    // The pest comments on my post before the block.
    const comment = await other.request.post(`/api/posts/${mine.id}/comments`, {
      data: { content: `Comment by ${pest.username}` },
      headers: { Origin: baseURL! },
    });
    expect(comment.status()).toBe(201);

    await open(`/profile/${pest.username}`);
    await page.getByRole("link", { name: "Block", exact: true }).click();
    // A dialog with JavaScript, the same confirmation inline at ?block=1 without.
    if (js) await expect(page).not.toHaveURL(/block=1/);
    else await expect(page).toHaveURL(/\?block=1/);
    const scope = page.getByRole("alertdialog");
    await expect(scope.getByText(`Block ${pest.displayName}?`)).toBeVisible();
    await scope.getByRole("button", { name: "Block", exact: true }).click();
    await expect(page.getByTestId("toast")).toContainText(`You blocked ${pest.displayName}`);
    expect(new URL(page.url()).pathname).toBe(`/profile/${pest.username}`);
    await expect(page.getByTestId("blocked-note")).toBeVisible();
    await expect(page.getByText(theirs.title)).toHaveCount(0);

    // Home no longer shows their post; my post page no longer shows their comment.
    await open("/");
    await expect(page.getByText(mine.title).first()).toBeVisible();
    await expect(page.getByText(theirs.title)).toHaveCount(0);
    await open(`/post/${mine.id}`);
    await expect(page.getByText(`Comment by ${pest.username}`)).toHaveCount(0);

    // Their post opened by its address (an old link, a notification) says why it is hidden, and
    // shows it on request (ux-3 U9).
    await open(`/post/${theirs.id}`);
    const note = page.getByTestId("blocked-author-note");
    await expect(note).toContainText(`You blocked ${pest.displayName}: this post is hidden from you.`);
    await expect(page.getByTestId("post-content")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Post Comment" })).toHaveCount(0);
    await note.getByRole("link", { name: "Show anyway" }).click();
    await expect(page).toHaveURL(new RegExp(`/post/${theirs.id}\\?show=1$`));
    await expect(page.getByRole("heading", { level: 1, name: theirs.title })).toBeVisible();
    await expect(page.getByTestId("post-content")).toBeVisible();
    if (js) await expectNoAxeViolations(page);

    // They cannot comment on my post any more.
    const refused = await other.request.post(`/api/posts/${mine.id}/comments`, {
      data: { content: "Again" },
      headers: { Origin: baseURL! },
    });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error).toBe("You can't comment on this member's posts");

    // Settings › Privacy lists them; Unblock is a plain form that comes back here.
    await open("/settings?tab=privacy");
    const list = page.getByTestId("blocked-members");
    await expect(list.getByText(pest.displayName)).toBeVisible();
    // On a phone the list fits the screen: no sideways scrolling (issue 31).
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await list.getByRole("button", { name: `Unblock ${pest.displayName} (@${pest.username})` }).click();
    await expect(page.getByTestId("toast")).toContainText(`You unblocked @${pest.username}`);
    await expect(page).toHaveURL(/\/settings\?tab=privacy$/);
    await expect(list.getByText("You haven't blocked anyone.")).toBeVisible();

    await open("/");
    await expect(page.getByText(theirs.title).first()).toBeVisible();
  });

  test("the blocked member keeps their page and what they typed, and is not offered what cannot work (ux-3 U3)", async ({
    page,
    js,
    open,
    signUp,
    createPost,
    newPage,
    baseURL,
  }) => {
    const blocker = await newPage();
    const me = await signUp(blocker, "quiet");
    const mine = await createPost({ title: `Quiet post ${me.username}` }, blocker);
    const pest = await signUp(page, "pest");

    // Pages opened before the block: the Follow and the comment meet it.
    await open(`/profile/${me.username}`);
    const follow = page.getByRole("button", { name: "Follow", exact: true });
    await expect(follow).toBeVisible();
    // A second tab of the same browser (the same member).
    const post = await page.context().newPage();
    await open(`/post/${mine.id}`, post);
    const text = `A long thought from ${pest.username} that took a while to type on a phone.`;
    await post.getByRole("textbox", { name: "Add a comment" }).fill(text);
    const blocked = await blocker.request.post(`/api/users/${pest.username}/block`, { headers: { Origin: baseURL! } });
    expect(blocked.status(), await blocked.text()).toBe(200);

    await follow.click();
    // Without JavaScript the refused page says it above the profile's posts; with it, the page's data
    // comes back without the Follow button and the note says it in its place.
    await expect(page.getByText("You can't follow this member").first()).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: me.displayName })).toBeVisible();
    await expect(page.getByText("Access Denied")).toHaveCount(0);

    await post.getByRole("button", { name: "Post Comment" }).click();
    await expect(post.getByText("You can't comment on this member's posts").first()).toBeVisible();
    await expect(post.getByRole("textbox", { name: "Add a comment" })).toHaveValue(text);
    await expect(post.getByText("Access Denied")).toHaveCount(0);

    // Opened afresh, the pages offer neither, and say why.
    await open(`/profile/${me.username}`);
    await expect(page.getByRole("button", { name: "Follow", exact: true })).toHaveCount(0);
    await expect(page.getByTestId("blocked-by-note")).toContainText("You can't follow this member");
    await open(`/post/${mine.id}`);
    await expect(page.getByRole("textbox", { name: "Add a comment" })).toHaveCount(0);
    await expect(page.getByTestId("comment-blocked")).toContainText("You can't comment on this member's posts");
    if (js) await expectNoAxeViolations(page);
  });
});

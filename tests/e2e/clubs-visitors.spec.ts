import { apiClub, expect, test } from "./fixtures";

/**
 * Issue 14 (audit #7, #8, #10): what a visitor and a would-be member meet on a club they cannot
 * join or read. Clubs are made through the JSON API by the member signed in on `as`.
 */

test.describe("clubs for visitors", () => {
  test.describe.configure({ timeout: 60_000 });

  test("a private club's Posts tab is shown to a visitor, saying its posts are for members", async ({
    page,
    open,
    signUp,
    newPage,
    baseURL,
  }) => {
    const owner = await newPage();
    await signUp(owner);
    const club = await apiClub(owner, baseURL!);
    await open(`/clubs/${club.id}`);
    await expect(page.getByRole("navigation", { name: "Club sections" }).getByRole("link", { name: "Posts" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(page.getByTestId("club-posts-private")).toContainText("Only members can see its posts.");
    await expect(page.getByTestId("club-posts-private")).toContainText("Sign in and request to join to read them.");
  });

  test("a visitor's Request to Join asks them to sign in before they write anything", async ({ page, open, signUp, newPage, baseURL }) => {
    const owner = await newPage();
    await signUp(owner);
    const club = await apiClub(owner, baseURL!);
    await open(`/clubs/${club.id}`);
    await page.getByRole("button", { name: "Request to Join" }).click();
    await expect(page).toHaveURL(/\/auth\?mode=login&redirectTo=/);
    await expect(page.getByTestId("toast")).toContainText("Please sign in to join clubs");
    await expect(page.getByLabel("Message (optional)")).toHaveCount(0);

    // The same from the club list's card.
    await open(`/clubs?search=${encodeURIComponent(club.name)}`);
    await page.getByTestId("club-card").getByRole("button", { name: "Request to Join" }).click();
    await expect(page).toHaveURL(/\/auth\?mode=login&redirectTo=/);
    await expect(page.getByTestId("toast")).toContainText("Please sign in to join clubs");
  });

  test("a full club says Club full on its card and its page instead of offering to join", async ({
    page,
    open,
    signUp,
    newPage,
    baseURL,
  }) => {
    const owner = await newPage();
    await signUp(owner);
    const club = await apiClub(owner, baseURL!, { isPrivate: false, memberLimit: 2 });
    const second = await newPage();
    await signUp(second);
    const join = await second.request.post(`/api/clubs/${club.id}/join`, { data: {}, headers: { Origin: baseURL! } });
    expect(join.ok(), await join.text()).toBe(true);

    await signUp();
    await open(`/clubs/${club.id}`);
    await expect(page.getByRole("button", { name: "Club full" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Join Club" })).toHaveCount(0);
    await open(`/clubs?search=${encodeURIComponent(club.name)}`);
    const card = page.getByTestId("club-card");
    await expect(card.getByRole("button", { name: "Club full" })).toBeDisabled();
    await expect(card.getByRole("button", { name: "Join Club" })).toHaveCount(0);
  });
});

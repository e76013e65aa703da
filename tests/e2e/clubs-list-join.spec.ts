import { apiClub, expect, test } from "./fixtures";

/**
 * Issue 14 #27: "Request to Join" on a /clubs card. With JavaScript it opens the club page's message
 * dialog in place (the list stays where it was); without, it leads to the club page's inline form.
 * Either way the request carries the message and the card then says Request Pending. (A visitor is
 * sent to sign in first: clubs-visitors.spec.ts.)
 */

test("Request to Join on a club card asks for a message: a dialog with JavaScript, the club page's form without", async ({
  page,
  js,
  open,
  signUp,
  newPage,
  baseURL,
}) => {
  const owner = await newPage();
  await signUp(owner);
  const club = await apiClub(owner, baseURL!);
  await signUp();
  const list = `/clubs?search=${encodeURIComponent(club.name)}`;
  await open(list);
  const card = page.getByTestId("club-card").filter({ hasText: club.name });
  await card.getByRole("link", { name: "Request to Join" }).click();

  if (js) {
    const dialog = page.getByRole("dialog", { name: `Request to join ${club.name}` });
    await expect(dialog).toBeVisible();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(list);
    await dialog.getByLabel("Message (optional)").fill("I hunt the creek bottom every November.");
    await dialog.getByRole("button", { name: "Send Request" }).click();
    await expect(page.getByTestId("toast")).toContainText("Request sent");
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(list);
    await expect(card.getByRole("button", { name: "Request Pending" })).toBeDisabled();
  } else {
    await expect(page).toHaveURL(`/clubs/${club.id}?join=1`);
    await page.getByLabel("Message (optional)").fill("I hunt the creek bottom every November.");
    await page.getByRole("button", { name: "Send Request" }).click();
    await expect(page.getByTestId("toast")).toContainText("Request sent");
    await open(list);
    await expect(card.getByRole("button", { name: "Request Pending" })).toBeDisabled();
  }

  const requests = await owner.request.get(`/api/clubs/${club.id}/requests`);
  expect(JSON.stringify(await requests.json())).toContain("I hunt the creek bottom every November.");
});

test("the card's dialog Cancel closes it and sends nothing", async ({ page, js, open, signUp, newPage, baseURL }) => {
  test.skip(!js, "the dialog is JavaScript's; without it the link leads to the club page (above)");
  const owner = await newPage();
  await signUp(owner);
  const club = await apiClub(owner, baseURL!);
  await signUp();
  await open(`/clubs?search=${encodeURIComponent(club.name)}`);
  const trigger = page.getByTestId("club-card").getByRole("link", { name: "Request to Join" });
  await trigger.click();
  const dialog = page.getByRole("dialog", { name: `Request to join ${club.name}` });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(trigger).toBeFocused();
  const requests = await owner.request.get(`/api/clubs/${club.id}/requests`);
  expect(JSON.stringify(await requests.json())).not.toContain('"pending"');
});

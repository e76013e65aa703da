import type { Locator } from "@playwright/test";
import { apiClub, expect, test, type Member } from "./fixtures";

/**
 * Issue 42: the third phone audit's small deviations (../shared/audits/ux-3.md U14, U16), on a
 * 390×844 phone, JavaScript off and on (docs/decisions/0081-phone-audit-ux-3-answers.md).
 */

const PHONE = { width: 390, height: 844 };

test.beforeEach(async ({ page }) => {
  await page.setViewportSize(PHONE);
});

const box = async (locator: Locator) => (await locator.boundingBox())!;

test("U14: a profile's counts read '0 Followers', on one baseline with its posts", async ({ page, open, signUp }) => {
  const me = await signUp();
  await open(`/profile/${me.username}`);
  const counts = page.getByRole("list", { name: "Counts" });
  for (const word of ["Followers", "Following"]) {
    const link = counts.getByRole("link", { name: new RegExp(`^0 ${word}$`) });
    await expect(link).toBeVisible();
    // A space's width at least between the number and its word, as beside "0 Posts".
    const number = await box(link.locator("strong"));
    const label = await box(link.getByText(word, { exact: true }));
    expect(label.x - (number.x + number.width), word).toBeGreaterThanOrEqual(2);
    // The same baseline as "0 Posts" (it was 10 px lower): the numbers' boxes end within the 2 px
    // an inline box and a flex item's line box differ by at the same baseline.
    const posts = await box(page.getByTestId("posts-count"));
    expect(Math.abs(number.y + number.height - (posts.y + posts.height)), word).toBeLessThanOrEqual(3);
  }
});

test("U16: the owner's Members tab says 'Remove admin role', and every row lays its actions out alike", async ({
  page,
  open,
  signUp,
  newPage,
  baseURL,
}) => {
  await signUp();
  const club = await apiClub(page, baseURL!, { isPrivate: false });
  const joined: Member[] = [];
  for (const prefix of ["adm", "mem"]) {
    const their = await newPage();
    joined.push(await signUp(their, prefix));
    expect((await their.request.post(`/api/clubs/${club.id}/join`, { data: {}, headers: { Origin: baseURL! } })).status()).toBe(200);
  }
  const [admin, member] = joined as [Member, Member];
  await open(`/clubs/${club.id}/members`);
  await page.getByRole("button", { name: `Make admin: ${admin.displayName}` }).click();
  const demote = page.getByRole("button", { name: `Remove admin role: ${admin.displayName}` });
  await expect(demote).toBeVisible();
  await expect(page.getByRole("button", { name: /Make member/ })).toHaveCount(0);

  // Remove from club sits in the same place against the role button on the admin's row and the member's.
  const offset = async (name: string, role: Locator) => {
    const button = await box(role);
    const remove = await box(page.getByRole("link", { name: `Remove from club: ${name}` }));
    return { x: Math.round(remove.x - button.x), y: Math.round(remove.y - button.y) };
  };
  const adminOffset = await offset(admin.displayName, demote);
  const memberOffset = await offset(member.displayName, page.getByRole("button", { name: `Make admin: ${member.displayName}` }));
  expect(adminOffset).toEqual(memberOffset);
});

import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { clubWithInvite, expect, hydrated, test } from "./fixtures";

/**
 * Issue 14: no serious or critical axe-core violation on any page, and a meta description on every
 * page. Run with JavaScript on (hydrated pages, dialogs' triggers, tab lists; a visitor's home has
 * no scripts, ADR 0047), as a visitor and as a club owner with a pending request, so every tab has
 * its content.
 */

/** Audit `url` once hydrated, or (null) the page as it stands. */
async function audit(page: Page, url: string | null) {
  if (url !== null) {
    await page.goto(url);
    await hydrated(page);
  }
  // Drawn in standards mode: a page without a doctype falls into quirks mode (ADR 0065).
  expect.soft(await page.evaluate(() => document.compatMode), `${url ?? page.url()} is drawn in standards mode`).toBe("CSS1Compat");
  // label-content-name-mismatch is off by default in axe (experimental): the like and share buttons
  // once had names without their visible counts.
  const results = await new AxeBuilder({ page }).options({ rules: { "label-content-name-mismatch": { enabled: true } } }).analyze();
  const bad = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(" ")}: ${n.failureSummary ?? ""}`).join("\n")}`);
  const where = url ?? page.url();
  expect.soft(bad, `${where}\n${bad.join("\n")}`).toEqual([]);
  // A missing description fails here at once (a bare getAttribute would wait out the test's timeout).
  await expect
    .soft(page.locator('head meta[name="description"]'), `${url ?? page.url()} has a meta description`)
    .toHaveAttribute("content", /\S/);
}

test.describe("accessibility (axe-core, JavaScript on)", () => {
  test.describe.configure({ timeout: 120_000 });
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "axe runs in the page: JavaScript on");

  test("every page a visitor sees", async ({ page, signUp, createPost, newPage, baseURL }) => {
    const author = await newPage();
    const member = await signUp(author);
    const post = await createPost({ type: "video", mediaUrl: "https://www.youtube.com/watch?v=abc" }, author);
    for (const url of [
      "/",
      `/post/${post.id}`,
      "/auth?mode=login",
      "/auth?mode=register",
      `/profile/${member.username}`,
      `/profile/${member.username}/followers`,
      `/profile/${member.username}/following`,
      "/clubs",
      "/clubs/1",
      "/search",
      "/forgot-password",
      "/forgot-password?sent=1",
      "/reset-password/no-such-link",
      "/no/such/page",
    ]) {
      await audit(page, url);
    }
    // A full club's invite (audit ux-2 N1): the notice and the offer to sign up without joining.
    const full = await clubWithInvite({ newPage, signUp, baseURL }, 2, 2);
    await audit(page, `/join/${full.code}`);
  });

  test("every page a club owner sees", async ({ page, signUp, newPage, baseURL }) => {
    const owner = await signUp();
    const res = await page.request.post("/api/clubs", {
      data: {
        name: `Axe ${owner.username}`,
        description: "A club to check every tab of the club page with axe-core.",
        isPrivate: true,
        tags: ["bow"],
        rules: "Be kind.",
      },
      headers: { Origin: baseURL! },
    });
    expect(res.status(), await res.text()).toBe(201);
    const club = (await res.json()) as { id: number };
    const invite = await page.request.post(`/api/clubs/${club.id}/invites`, { data: {}, headers: { Origin: baseURL! } });
    expect(invite.status()).toBe(201);
    const { inviteCode } = (await invite.json()) as { inviteCode: string };
    const requester = await newPage();
    await signUp(requester);
    const join = await requester.request.post(`/api/clubs/${club.id}/join`, {
      data: { message: "Let me in" },
      headers: { Origin: baseURL! },
    });
    expect(join.ok(), await join.text()).toBe(true);

    for (const url of [
      "/create",
      `/profile/${owner.username}`,
      "/settings?tab=profile",
      "/settings?tab=security",
      "/settings?tab=notifications",
      "/settings?tab=privacy",
      "/clubs",
      "/clubs/create",
      `/clubs/${club.id}`,
      `/clubs/${club.id}?tab=members`,
      `/clubs/${club.id}?tab=rules`,
      `/clubs/${club.id}?tab=requests`,
      `/clubs/${club.id}?tab=invites`,
      `/join/${inviteCode}`,
    ]) {
      await audit(page, url);
    }
    // The invite page as a visitor (the sign-up offer).
    await audit(await newPage(), `/join/${inviteCode}`);
  });

  test("a post whose link preview is still on its way", async ({ page, signUp, createPost }) => {
    await signUp(page);
    const post = await createPost({ type: "video", mediaUrl: "https://www.youtube.com/watch?v=slow" }, page);
    // The preview's request is held until the audit is over: the page shows its loading card.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/fetch-url-metadata", async (route) => {
      await held;
      await route.abort();
    });
    try {
      await page.goto(`/post/${post.id}`);
      await expect(page.getByTestId("link-preview-loading")).toBeVisible();
      await audit(page, null);
      await expect(page.getByTestId("link-preview-loading")).toContainText("Loading link preview");
    } finally {
      release();
    }
  });
});

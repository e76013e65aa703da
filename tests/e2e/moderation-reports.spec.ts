import { apiClub, expect, expectNoAxeViolations, setSiteRole, test } from "./fixtures";

/**
 * CONTRACT.md §8 reports and the queue through the real server, JavaScript off and on: a member
 * reports a club post (the report page without JavaScript, the dialog with it), the club's owner
 * (its staff) finds it on /moderation without learning who reported it and removes it with a reason.
 */
test.describe("reports and the moderation queue", () => {
  test("a member reports a post; the club's staff see it on /moderation and remove it with a reason", async ({
    page,
    js,
    open,
    signUp,
    createPost,
    newPage,
    baseURL,
  }) => {
    // Four members in three browsers, on a machine shared with other runs.
    test.setTimeout(90_000);
    // The club's owner (staff), a member who posts in it, and the member who reports.
    const ownerPage = await newPage();
    const owner = await signUp(ownerPage, "own");
    const club = await apiClub(ownerPage, baseURL!, { isPrivate: false });
    const authorPage = await newPage();
    const authorMember = await signUp(authorPage, "auth");
    const joined = await authorPage.request.post(`/api/clubs/${club.id}/join`, { data: {}, headers: { Origin: baseURL! } });
    expect(joined.status(), await joined.text()).toBeLessThan(300);
    const post = await createPost({ clubId: club.id, title: `Corn pile ${Date.now().toString(36)}` }, authorPage);

    const reporter = await signUp(page, "rep");
    // From the post's card on the club's page (the post page has the same header).
    await open(`/clubs/${club.id}`);
    await page.getByTestId("post-card").filter({ hasText: post.title }).getByTestId("report-link").click();
    if (js) {
      const dialog = page.getByRole("dialog");
      await expect(dialog).toContainText("Report this post");
      await dialog.getByLabel("Illegal hunting or other illegal activity").check();
      await dialog.getByLabel(/Details/).fill("Baiting is illegal in this county");
      await dialog.getByRole("button", { name: "Send report" }).click();
      await expect(page.getByTestId("toast")).toContainText("Thanks — a moderator will look at it");
      await expect(dialog).toBeHidden();
      expect(new URL(page.url()).pathname).toBe(`/clubs/${club.id}`);
    } else {
      await expect(page).toHaveURL(/\/report\?type=post/);
      await page.getByLabel("Illegal hunting or other illegal activity").check();
      await page.getByLabel(/Details/).fill("Baiting is illegal in this county");
      await page.getByRole("button", { name: "Send report" }).click();
      await expect(page.getByTestId("toast")).toContainText("Thanks — a moderator will look at it");
      expect(new URL(page.url()).pathname).toBe(`/clubs/${club.id}`);
    }

    // Reporting again: the form says so and keeps what was typed.
    await open(`/report?type=post&id=${post.id}&from=/post/${post.id}`);
    await page.getByLabel("Spam or advertising").check();
    await page.getByLabel(/Details/).fill("Second time");
    await page.getByRole("button", { name: "Send report" }).click();
    await expect(page.getByRole("alert")).toContainText("You have already reported this");
    await expect(page.getByLabel(/Details/)).toHaveValue("Second time");

    // A member who staffs nothing is refused /moderation.
    await open("/moderation");
    await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();

    // (signUp signs each member in.) The club's owner sees the case: as reported, the report's reason and details, never the reporter.
    await expect(page.getByTestId("user-menu").getByRole("link", { name: "Moderation" })).toHaveCount(0);
    await open(`/clubs/${club.id}`, ownerPage);
    await ownerPage.getByTestId("user-menu").locator("summary").click();
    await ownerPage.getByTestId("user-menu").getByRole("link", { name: "Moderation" }).click();
    await expect(ownerPage).toHaveURL(/\/moderation$/);
    if (js) await open("/moderation", ownerPage);
    const card = ownerPage.getByTestId("moderation-case").filter({ hasText: post.title });
    await expect(card).toBeVisible();
    await expect(card.getByTestId("case-reports")).toContainText("Baiting is illegal in this county");
    await expect(ownerPage.locator("#main")).not.toContainText(reporter.username);
    // ux-3 U13: the way to the post says so and is a phone's tap tall; text unchanged since the
    // report is shown once ("As reported, unchanged"), not as "As reported" and "Now".
    await ownerPage.setViewportSize({ width: 390, height: 844 });
    const view = card.getByRole("link", { name: "View post ›" });
    await expect(view).toHaveAttribute("href", `/post/${post.id}`);
    expect((await view.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await expect(card.getByRole("heading", { name: "As reported, unchanged" })).toBeVisible();
    await expect(card.getByRole("heading", { name: "Now", exact: true })).toHaveCount(0);

    // Remove without a reason: the form says why; then with one.
    await card.getByRole("button", { name: "Remove" }).click();
    await expect(card.getByRole("alert")).toContainText(/reason/i);
    await card.getByLabel(/Reason for removal/).fill("Baiting is not allowed here");
    await card.getByRole("button", { name: "Remove" }).click();
    await expect(ownerPage.getByTestId("toast")).toContainText("Removed");
    await expect(ownerPage.getByTestId("moderation-case").filter({ hasText: post.title })).toHaveCount(0);
    await open("/moderation?tab=closed", ownerPage);
    await expect(ownerPage.getByTestId("moderation-case").filter({ hasText: post.title })).toContainText(
      "Removed: Baiting is not allowed here",
    );
    await expect(ownerPage.getByTestId("moderation-case").filter({ hasText: post.title }).getByTestId("case-closed")).toContainText(
      `Removed by ${owner.username}`,
    );
    await open("/moderation?tab=log", ownerPage);
    // In the past tense, naming what was decided (ux-3 U13: it read "remove post").
    await expect(ownerPage.getByTestId("log-entry").first()).toContainText(
      `${owner.username} removed post “${post.title}”: Baiting is not allowed here`,
    );

    // Its author reads who removed it (the club's staff, not a site moderator: ux-3 U10), on the
    // post and on the post's card in their own profile (ux-3 U8).
    await open(`/post/${post.id}`, authorPage);
    await expect(authorPage.getByTestId("post-hidden-notice")).toContainText("Removed by the club's staff: Baiting is not allowed here");
    await open(`/profile/${authorMember.username}`, authorPage);
    await expect(authorPage.getByTestId("post-card").filter({ hasText: post.title }).getByTestId("post-hidden-notice")).toContainText(
      "Removed by the club's staff: Baiting is not allowed here",
    );
  });

  test("a visitor's Report goes to sign-in and back; a dismissed report closes", async ({
    page,
    open,
    signUp,
    createPost,
    newPage,
    baseURL,
  }) => {
    const ownerPage = await newPage();
    await signUp(ownerPage, "own");
    const club = await apiClub(ownerPage, baseURL!, { isPrivate: false });
    const post = await createPost({ clubId: club.id, title: `Fine post ${Date.now().toString(36)}` }, ownerPage);

    await open(`/clubs/${club.id}`);
    await page.getByTestId("post-card").filter({ hasText: post.title }).getByTestId("report-link").click();
    await expect(page).toHaveURL(/\/auth\?.*redirectTo=%2Freport/);

    await signUp(page, "rep");
    await open(`/report?type=club&id=${club.id}&from=/clubs/${club.id}`);
    await page.getByLabel("Off topic").check();
    await page.getByRole("button", { name: "Send report" }).click();
    await expect(page.getByTestId("toast")).toContainText("Thanks — a moderator will look at it");
    // The club's own staff never see reports about their club; a site moderator does.
    await open("/moderation", ownerPage);
    await expect(ownerPage.getByTestId("moderation-case").filter({ hasText: club.name })).toHaveCount(0);
    const moderatorPage = await newPage();
    const moderator = await signUp(moderatorPage, "mod");
    setSiteRole(moderator.username, "moderator");
    await open("/moderation", moderatorPage);
    const card = moderatorPage.getByTestId("moderation-case").filter({ hasText: club.name });
    await expect(card).toContainText("Off topic");
    await card.getByRole("button", { name: "Dismiss" }).click();
    await expect(moderatorPage.getByTestId("toast")).toContainText("Report dismissed");
    await expect(moderatorPage.getByTestId("moderation-case").filter({ hasText: club.name })).toHaveCount(0);
  });

  test("a member is reported from their profile", async ({ page, js, open, signUp, newPage }) => {
    const other = await newPage();
    const reported = await signUp(other, "bad");
    await signUp(page, "rep");
    await open(`/profile/${reported.username}`);
    await page.getByTestId("report-link").click();
    const scope = js ? page.getByRole("dialog") : page;
    if (!js) await expect(page).toHaveURL(/\/report\?type=user/);
    await expect(scope.getByText("Report this member")).toBeVisible();
    await scope.getByLabel("Harassment or abuse").check();
    await scope.getByRole("button", { name: "Send report" }).click();
    await expect(page.getByTestId("toast")).toContainText("Thanks — a moderator will look at it");
    expect(new URL(page.url()).pathname).toBe(`/profile/${reported.username}`);
  });

  test("staff are told of a new report, the queue names the author, and the member's page shows their history (ux-3 U23)", async ({
    page,
    js,
    open,
    signUp,
    createPost,
    newPage,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    // A site moderator on a phone, an author, and the member who reports.
    await page.setViewportSize({ width: 390, height: 844 });
    const moderator = await signUp(page, "mod");
    setSiteRole(moderator.username, "moderator");
    const authorPage = await newPage();
    const author = await signUp(authorPage, "auth");
    const post = await createPost({ title: `Cheap scopes ${Date.now().toString(36)}` }, authorPage);
    const reporterPage = await newPage();
    const reporter = await signUp(reporterPage, "rep");
    const reported = await reporterPage.request.post("/api/reports", {
      data: { targetType: "post", targetId: post.id, reason: "spam" },
      headers: { Origin: baseURL! },
    });
    expect(reported.status(), await reported.text()).toBe(201);

    // The top bar tells the moderator (server HTML, JavaScript or not): the menu's button and its Moderation item count open cases.
    await open("/");
    const menu = page.getByTestId("user-menu");
    await expect(menu.locator("summary")).toHaveAccessibleName(/^Account menu, (\d+|99\+) open reports?$/);
    await menu.locator("summary").click();
    await expect(menu.getByTestId("menu-moderation")).toHaveAccessibleName(/^Moderation, (\d+|99\+) open reports?$/);
    if (js) await expectNoAxeViolations(page);

    // A notice in the bell's list, saying what and why, never who reported; it leads to the queue.
    await open("/notifications");
    const notice = page.getByRole("link", { name: `New report: a post “${post.title}” (spam)` });
    await expect(notice).toBeVisible();
    await expect(page.locator("#main")).not.toContainText(reporter.username);
    if (js) await expectNoAxeViolations(page);
    await notice.click();
    await expect(page).toHaveURL(/\/moderation$/);
    if (js) await open("/moderation");

    // The card names the author, with their profile and their history.
    const card = page.getByTestId("moderation-case").filter({ hasText: post.title });
    await expect(card.getByTestId("case-author")).toHaveText(`${author.displayName} (@${author.username})`);
    await expect(card.getByTestId("case-author")).toHaveAttribute("href", `/profile/${author.username}`);
    await expect(card.getByTestId("case-author-history")).toHaveAttribute("href", `/moderation/members/${author.username}`);
    if (js) await expectNoAxeViolations(page);
    await card.getByLabel(/Reason for removal/).fill("No selling gear here");
    await card.getByRole("button", { name: "Remove" }).click();
    await expect(page.getByTestId("toast")).toContainText("Removed");

    // The author's page: the removal of their post, and the report it drew (ux-3 U23: it said "No decisions about this member yet").
    await open(`/moderation/members/${author.username}`);
    await expect(page.getByTestId("member-reports-drawn")).toHaveText("1 report about 1 of their posts and comments.");
    await expect(page.getByTestId("member-log-entry").first()).toContainText(
      `${moderator.username} removed post “${post.title}”: No selling gear here`,
    );
    if (js) await expectNoAxeViolations(page);

    // Settings › Notifications offers staff the kind, on by default; a member who moderates nothing is not offered it.
    await open("/settings?tab=notifications");
    await expect(page.getByLabel("New reports to moderate (staff)")).toBeChecked();
    if (js) await expectNoAxeViolations(page);
    await open("/settings?tab=notifications", reporterPage);
    await expect(reporterPage.getByLabel("Comments on my posts")).toBeVisible();
    await expect(reporterPage.getByLabel("New reports to moderate (staff)")).toHaveCount(0);

    // Neither the reporter nor the author hears of the report.
    for (const other of [reporterPage, authorPage]) {
      await open("/notifications", other);
      await expect(other.locator("#main")).not.toContainText("New report");
    }
  });
});

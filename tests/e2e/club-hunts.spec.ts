import { expect, expectNoAxeViolations, test, uniqueName } from "./fixtures";

/**
 * Club hunts (issue 44): the owner plans a hunt from the Hunts tab with a plain form (a refused
 * form keeps what was typed), a member answers on the hunt's page and is counted and named, the
 * owner edits and cancels it; every control is at least 44 px on a 390 px phone. Both projects:
 * JavaScript off posts and redirects, on sends without a reload.
 */
test.describe("club hunts", () => {
  test.describe.configure({ timeout: 90_000 });

  test("plan, answer, edit and cancel a hunt", async ({ page, js, open, signUp, newPage, baseURL }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signUp(page, "o");
    const res = await page.request.post("/api/clubs", {
      data: { name: `Hunts ${uniqueName("h")}`, description: "A club that plans its mornings.", isPrivate: false },
      headers: { Origin: baseURL! },
    });
    expect(res.status()).toBe(201);
    const { id } = (await res.json()) as { id: number };

    // The Hunts tab: empty, with the owner's "Plan a hunt".
    await open(`/clubs/${id}`);
    await page.getByRole("navigation", { name: "Club sections" }).getByRole("link", { name: "Hunts" }).click();
    await expect(page).toHaveURL(new RegExp(`/clubs/${id}/events$`));
    await expect(page.getByText("No hunts planned yet.")).toBeVisible();
    await page.getByRole("link", { name: "Plan a hunt" }).click();
    await expect(page).toHaveURL(new RegExp(`/clubs/${id}/events/new$`));

    // A refused form (the end before the start) keeps everything typed.
    const form = page.getByTestId("hunt-form");
    await form.getByLabel("Title").fill("Opening morning");
    await form.getByLabel("Starts").fill("2031-11-15T05:30");
    await form.getByLabel("Ends (optional)").fill("2031-11-15T04:00");
    await form.getByLabel("Time zone").selectOption("America/Chicago");
    await form.getByLabel("Place (optional)").fill("North gate");
    await form.getByLabel("Details (optional)").fill("Blaze orange, no talking past the creek.");
    await form.getByRole("button", { name: "Plan hunt" }).click();
    await expect(page.getByText("End time must be after the start time")).toBeVisible();
    await expect(form.getByLabel("Title")).toHaveValue("Opening morning");
    await expect(form.getByLabel("Starts")).toHaveValue("2031-11-15T05:30");
    await expect(form.getByLabel("Place (optional)")).toHaveValue("North gate");
    await expect(form.getByLabel("Details (optional)")).toHaveValue("Blaze orange, no talking past the creek.");
    await expect(form.getByLabel("Time zone")).toHaveValue("America/Chicago");
    await form.getByLabel("Ends (optional)").fill("2031-11-15T11:00");
    await form.getByRole("button", { name: "Plan hunt" }).click();

    await expect(page.getByTestId("toast")).toContainText("Hunt planned");
    await expect(page.getByRole("heading", { name: "Opening morning" })).toBeVisible();
    const huntUrl = page.url();
    const eventId = Number(/events\/(\d+)/.exec(huntUrl)![1]);
    // Stored as the instant 05:30 in Chicago names (CST, UTC−6).
    const api = await page.request.get(`/api/clubs/${id}/events/${eventId}`);
    expect(((await api.json()) as { startsAt: string }).startsAt).toBe("2031-11-15T11:30:00.000Z");

    // A member answers "Going" and is counted and named.
    const member = await newPage();
    await member.setViewportSize({ width: 390, height: 844 });
    const m = await signUp(member, "m");
    expect((await member.request.post(`/api/clubs/${id}/join`, { data: {}, headers: { Origin: baseURL! } })).ok()).toBe(true);
    await open(huntUrl, member);
    await member.getByRole("button", { name: "Going" }).click();
    await expect(member.getByRole("button", { name: "Going" })).toHaveAttribute("aria-pressed", "true");
    await expect(member.getByTestId("hunt-counts")).toHaveText("1 going · 0 maybe");
    await expect(member.getByRole("list", { name: "Going" })).toContainText(`Hunter ${m.username}`);
    await member.getByRole("button", { name: "Maybe" }).click();
    await expect(member.getByTestId("hunt-counts")).toHaveText("0 going · 1 maybe");

    // Every control on the hunt's page is at least 44 px tall.
    for (const control of await member.locator("article button, article a, article summary").all()) {
      if (!(await control.isVisible())) continue;
      const box = (await control.boundingBox())!;
      expect(box.height, await control.evaluate((e) => e.outerHTML.slice(0, 80))).toBeGreaterThanOrEqual(44);
    }
    if (js) await expectNoAxeViolations(member);

    // The owner edits it.
    await open(huntUrl);
    await page.getByRole("link", { name: "Edit hunt" }).click();
    const edit = page.getByTestId("hunt-form");
    await expect(edit.getByLabel("Title")).toHaveValue("Opening morning");
    await edit.getByLabel("Title").fill("Opening morning, moved");
    await edit.getByRole("button", { name: "Save hunt" }).click();
    await expect(page.getByTestId("toast")).toContainText("Hunt saved");
    await expect(page.getByRole("heading", { name: "Opening morning, moved" })).toBeVisible();

    // The Hunts tab lists it; the owner cancels it.
    await open(`/clubs/${id}/events`);
    await expect(page.getByTestId("hunt")).toContainText("Opening morning, moved");
    await expect(page.getByTestId("calendar-links")).toBeVisible();
    // "Add to calendar": a webcal: subscription and a download of the same feed.
    const subscribe = await page.getByRole("link", { name: "Subscribe" }).getAttribute("href");
    expect(subscribe).toMatch(new RegExp(`^webcal://[^/]+/clubs/${id}/events\\.ics$`));
    const download = (await page.getByRole("link", { name: "Download .ics" }).getAttribute("href"))!;
    const feed = await page.request.get(download);
    expect(feed.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(feed.headers()["content-disposition"]).toContain("attachment");
    expect(await feed.text()).toContain("SUMMARY:Opening morning\\, moved");
    if (js) await expectNoAxeViolations(page);
    await open(huntUrl);
    await page.getByTestId("cancel-hunt").locator("summary").click();
    await page.getByRole("button", { name: "Cancel this hunt" }).click();
    await expect(page.getByTestId("toast")).toContainText("Hunt cancelled");
    await expect(page.getByTestId("hunt-cancelled")).toBeVisible();
    await open(huntUrl, member);
    await expect(member.getByRole("button", { name: "Going" })).toHaveCount(0);
  });

  test("a private club's hunts stay with its members", async ({ page, open, signUp, newPage, baseURL }) => {
    await signUp(page, "o");
    const res = await page.request.post("/api/clubs", {
      data: { name: `Private ${uniqueName("p")}`, description: "Members only, hunts too.", isPrivate: true },
      headers: { Origin: baseURL! },
    });
    const { id } = (await res.json()) as { id: number };
    const made = await page.request.post(`/api/clubs/${id}/events`, {
      data: { title: "Secret stand day", startsAt: "2031-11-20T06:00:00-06:00" },
      headers: { Origin: baseURL! },
    });
    expect(made.status()).toBe(201);
    const { id: eventId } = (await made.json()) as { id: number };
    const outsider = await newPage();
    await signUp(outsider, "x");
    await open(`/clubs/${id}/events/${eventId}`, outsider);
    await expect(outsider).toHaveURL(new RegExp(`/clubs/${id}$`));
    await expect(outsider.getByText("Secret stand day")).toHaveCount(0);
    await expect(outsider.getByRole("navigation", { name: "Club sections" }).getByRole("link", { name: "Hunts" })).toHaveCount(0);
  });
});

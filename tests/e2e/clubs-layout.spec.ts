import { expect, test, uniqueName } from "./fixtures";

/**
 * Issue 14 #24–#26: a club image that fails shows the letter placeholder; on a 390 px phone the
 * owner's tab row keeps every tab (counts whole) in view, and a join request keeps its requester
 * column wide enough to read.
 */
test.describe("club page layout", () => {
  test.describe.configure({ timeout: 60_000 });

  test("a club image that fails to load leaves the letter placeholder", async ({ page, js, open, signUp, baseURL }) => {
    await signUp();
    const name = `Broken ${uniqueName("b")}`;
    const res = await page.request.post("/api/clubs", {
      data: { name, description: "Its image address does not exist anywhere at all.", imageUrl: "https://images.example.invalid/deer.jpg" },
      headers: { Origin: baseURL! },
    });
    expect(res.status(), await res.text()).toBe(201);
    const { id } = (await res.json()) as { id: number };
    for (const url of [`/clubs/${id}`, `/clubs?search=${encodeURIComponent(name)}`]) {
      await open(url);
      const frame = page.getByTestId("club-image").first();
      await expect(frame.getByTestId("club-image-placeholder")).toHaveText("B");
      // With JavaScript the failed image is dropped; without, it is a transparent box over the placeholder.
      if (js) await expect(frame.locator("img")).toHaveCount(0);
      else await expect(frame.locator("img")).toHaveClass(/text-transparent/);
    }
  });

  test("on a phone the owner's tabs and a join request fit the screen", async ({ page, open, signUp, newPage, baseURL }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signUp();
    const res = await page.request.post("/api/clubs", {
      data: {
        name: `Phone ${uniqueName("p")}`,
        description: "A club with rules, a request and invites.",
        isPrivate: true,
        rules: "Be kind.",
      },
      headers: { Origin: baseURL! },
    });
    const { id } = (await res.json()) as { id: number };
    const requester = await newPage();
    await signUp(requester);
    const join = await requester.request.post(`/api/clubs/${id}/join`, { data: { message: "Let me in" }, headers: { Origin: baseURL! } });
    expect(join.ok()).toBe(true);

    await open(`/clubs/${id}`);
    const tabs = page.getByRole("navigation", { name: "Club sections" }).getByRole("link");
    await expect(tabs).toHaveText(["Posts", "Hunts", "Members", "Rules", "Requests (1)", "Invites"]);
    for (const tab of await tabs.all()) {
      const box = (await tab.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await open(`/clubs/${id}/requests`);
    const who = page.getByTestId("join-request-who");
    expect((await who.boundingBox())!.width).toBeGreaterThan(250);
    await expect(page.getByTestId("join-request").getByRole("button", { name: "Approve" })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

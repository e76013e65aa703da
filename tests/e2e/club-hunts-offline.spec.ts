import { apiClub, expect, savedPage, test } from "./fixtures";

/**
 * Club hunts offline (issue 44 item 5): the Hunts tab and a hunt's page a member has opened read
 * with no signal from the saved pages (ADR 0033), and an answer made with no signal waits in the
 * outbox and goes once, as POST /api/clubs/{id}/events/{eventId}/rsvp, when the signal returns
 * (ADR 0034, 0057). The outbox needs JavaScript: js-on only.
 */
test.describe("club hunts offline", () => {
  test.skip(({ js }) => !js, "saved pages and the outbox need JavaScript");
  test.describe.configure({ timeout: 90_000 });

  test("the Hunts tab and a hunt read offline; an answer made offline goes once the signal returns", async ({
    page,
    context,
    open,
    signUp,
    newPage,
    baseURL,
  }) => {
    const owner = await newPage();
    await signUp(owner, "o");
    const club = await apiClub(owner, baseURL!, { isPrivate: false });
    const made = await owner.request.post(`/api/clubs/${club.id}/events`, {
      data: { title: "Saturday work day", startsAt: "2031-11-22T07:00:00-06:00", location: "Food plot 3" },
      headers: { Origin: baseURL! },
    });
    expect(made.status()).toBe(201);
    const { id: eventId } = (await made.json()) as { id: number };
    await signUp(page, "m");
    expect((await page.request.post(`/api/clubs/${club.id}/join`, { data: {}, headers: { Origin: baseURL! } })).ok()).toBe(true);

    const tab = `/clubs/${club.id}/events`;
    const hunt = `/clubs/${club.id}/events/${eventId}`;
    await open(tab);
    await savedPage(page, tab);
    await open(hunt);
    await savedPage(page, hunt);

    await context.setOffline(true);
    await page.goto(tab);
    await expect(page.getByTestId("hunt")).toContainText("Saturday work day");
    await expect(page.getByTestId("saved-copy-note")).toHaveText(/^Saved copy from .+ ago$/);
    await page.goto(hunt);
    await expect(page.getByRole("heading", { name: "Saturday work day" })).toBeVisible();
    await expect(page.getByText("Food plot 3")).toBeVisible();
    await context.setOffline(false);

    // An answer with no signal waits in the outbox, then goes once.
    await open(hunt);
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
    await context.setOffline(true);
    await page.getByRole("button", { name: "Going" }).click();
    const note = page.getByTestId("outbox-note");
    await expect(note).toContainText("Waiting — will send when you're back in coverage");
    const going = async () =>
      ((await (await owner.request.get(`/api/clubs/${club.id}/events/${eventId}`)).json()) as { going: number }).going;
    expect(await going()).toBe(0);
    await context.setOffline(false);
    await expect(note).toHaveCount(0);
    await expect.poll(going).toBe(1);
    const mine = (await (await page.request.get(`/api/clubs/${club.id}/events/${eventId}`)).json()) as { myRsvp: string };
    expect(mine.myRsvp).toBe("going");
  });
});

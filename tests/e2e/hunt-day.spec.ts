import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, savedPage, test } from "./fixtures";

/**
 * Issue 45 item 3, the hunt-day card (CONTRACT.md §14; docs/decisions/0090-counties-and-hunt-day.md):
 * /hunt-day for a county chosen by state then county (plain GET forms), or the member's home county
 * (Settings › Profile, or "Make … my home county"), with JavaScript off and on; offline with the
 * service worker (JavaScript on), a saved copy opened days later starts at the device's today.
 */

const DAY = 86_400_000;
const LAKE_IN = "18089";

/** "6:55 AM" in the zone, as the page writes it. */
function clock(iso: string, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", hour12: true, timeZone }).formatToParts(
    new Date(iso),
  );
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("hour")}:${part("minute")} ${part("dayPeriod").toUpperCase()}`;
}

/** The county's local date at `at`. */
const localDate = (at: number, timeZone: string) => new Intl.DateTimeFormat("en-CA", { timeZone }).format(new Date(at));

async function chooseCounty(page: Page, state: string, county: string) {
  await page.getByRole("combobox", { name: "State", exact: true }).selectOption({ label: state });
  await page.getByRole("button", { name: "Show counties" }).click();
  await expect(page.getByRole("combobox", { name: "County", exact: true })).toBeVisible();
  await page.getByRole("combobox", { name: "County", exact: true }).selectOption({ label: county });
  await page.getByRole("button", { name: "Show hunt day" }).click();
}

test("a visitor chooses a state, then a county, and reads today and the next 14 days in the county's time", async ({ page, open, js }) => {
  await open("/");
  await page.getByRole("link", { name: "Hunt day" }).click();
  await expect(page).toHaveURL("/hunt-day");
  await expect(page.getByRole("heading", { name: "Hunt day", level: 1 })).toBeVisible();
  await chooseCounty(page, "Indiana", "Lake");
  await expect(page).toHaveURL(/\/hunt-day\?state=IN&county=18089$/);
  await expect(page.getByTestId("hunt-day-county")).toHaveText("Lake, Indiana");

  const api = await (await page.request.get(`/api/hunt-day?county=${LAKE_IN}`)).json();
  const today = page.getByTestId("hunt-day-today");
  await expect(today).toHaveAttribute("data-date", api.date);
  await expect(today.getByText(clock(api.sunrise, "America/Chicago"), { exact: true })).toBeVisible();
  await expect(today.getByText(clock(api.legalStart, "America/Chicago"), { exact: true })).toBeVisible();
  await expect(today.getByText(clock(api.sunset, "America/Chicago"), { exact: true })).toBeVisible();
  await expect(today.getByText(clock(api.legalEnd, "America/Chicago"), { exact: true })).toBeVisible();
  await expect(today).toContainText(`Moon: ${api.moon.name}, ${Math.round(api.moon.illumination * 100)}% lit`);
  await expect(today).toContainText(/Times in C[SD]T/);
  await expect(page.getByTestId("legal-light-note")).toContainText("Check your state's rule");
  await expect(page.getByTestId("hunt-day-table").locator("tbody tr")).toHaveCount(14);

  // El Paso keeps Mountain time (Texas is otherwise Central).
  await chooseCounty(page, "Texas", "El Paso");
  const elPaso = await (await page.request.get("/api/hunt-day?county=48141")).json();
  await expect(page.getByTestId("hunt-day-today").getByText(clock(elPaso.sunrise, "America/Denver"), { exact: true })).toBeVisible();
  await expect(page.getByTestId("hunt-day-today")).toContainText(/Times in M[SD]T/);

  if (js) {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const control of [
      page.getByRole("combobox", { name: "State", exact: true }),
      page.getByRole("combobox", { name: "County", exact: true }),
      page.getByRole("button", { name: "Show counties" }),
    ]) {
      expect((await control.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    }
    await expectNoAxeViolations(page);
  }
});

test("a county that is not one is a 400 page that says so, with the chooser", async ({ page }) => {
  for (const [query, message] of [
    ["county=abc", "County must be a 5-digit FIPS code"],
    ["county=99999", "No US county has that FIPS code"],
  ]) {
    const response = await page.goto(`/hunt-day?${query}`);
    expect(response!.status()).toBe(400);
    await expect(page.getByRole("alert").filter({ hasText: message })).toBeVisible();
    await expect(page.getByRole("combobox", { name: "State", exact: true })).toBeVisible();
  }
});

test("a member's home county, from Settings › Profile or the card, opens /hunt-day", async ({ page, open, signUp, js }) => {
  await signUp();
  await open("/settings?tab=profile");
  const section = page.getByTestId("home-county");
  await section.getByRole("combobox", { name: "State", exact: true }).selectOption({ label: "Oregon" });
  await section.getByRole("button", { name: "Show counties" }).click();
  await page.getByTestId("home-county").getByRole("combobox", { name: "County", exact: true }).selectOption({ label: "Malheur" });
  await page.getByTestId("home-county").getByRole("button", { name: "Save home county" }).click();
  await expect(page.getByTestId("toast")).toContainText("Home county saved");
  await expect(page.getByTestId("home-county")).toContainText("Malheur, Oregon");
  if (js) {
    await page.setViewportSize({ width: 390, height: 844 });
    const buttons = page.getByTestId("home-county").getByRole("button");
    for (const button of await buttons.all()) expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await expectNoAxeViolations(page);
    // On a phone the link is in the account menu.
    await page.getByLabel("Account menu").click();
    await page.getByTestId("user-menu").getByRole("link", { name: "Hunt day" }).click();
  } else {
    await open("/hunt-day");
  }
  await expect(page).toHaveURL("/hunt-day");
  await expect(page.getByTestId("hunt-day-county")).toContainText("Malheur, Oregon");
  await expect(page.getByTestId("hunt-day-county")).toContainText("Home county");
  // Malheur keeps Mountain time (Oregon is otherwise Pacific).
  await expect(page.getByTestId("hunt-day-today")).toContainText(/Times in M[SD]T/);

  // Another county, made home from the card.
  await open(`/hunt-day?county=${LAKE_IN}`);
  await page.getByRole("button", { name: "Make Lake, IN my home county" }).click();
  await expect(page.getByTestId("toast")).toContainText("Lake, IN is your home county");
  await open("/hunt-day");
  await expect(page.getByTestId("hunt-day-county")).toContainText("Lake, Indiana");

  // Removed: the page asks for a county again.
  await open("/settings?tab=profile");
  await page.getByTestId("home-county").getByRole("button", { name: "Remove home county" }).click();
  await expect(page.getByTestId("toast")).toContainText("Home county removed");
  await open("/hunt-day");
  await expect(page.getByRole("heading", { name: "Choose a county" })).toBeVisible();
});

test.describe("offline", () => {
  test.skip(({ js }) => !js, "service workers need JavaScript");

  test("a saved card opened days later with no signal starts at the device's today", async ({ page, context, open }) => {
    const path = `/hunt-day?county=${LAKE_IN}`;
    await open(path);
    await savedPage(page, path);
    // The calculation's chunk, fetched after the page started, is kept for offline use too.
    await expect
      .poll(
        () =>
          page.evaluate(() =>
            caches
              .keys()
              .then((names) => Promise.all(names.map((n) => caches.open(n).then((c) => c.keys()))))
              .then((all) => all.flat().some((r) => /\/assets\/hunt-day-[\w-]+\.js$/.test(r.url))),
          ),
        {
          intervals: [100],
        },
      )
      .toBe(true);
    const drawnToday = await page.getByTestId("hunt-day-today").getAttribute("data-date");

    const later = Date.now() + 3 * DAY;
    await page.clock.setFixedTime(later);
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByTestId("hunt-day-county")).toHaveText("Lake, Indiana");
    const today = localDate(later, "America/Chicago");
    expect(today).not.toBe(drawnToday);
    await expect(page.getByTestId("hunt-day-today")).toHaveAttribute("data-date", today);
    await expect(page.getByTestId("worked-out-here")).toBeVisible();
    await expect(page.getByTestId("hunt-day-table").locator("tbody tr")).toHaveCount(14);
    await expect(page.getByTestId("saved-copy-note")).toHaveText(/^Saved copy from .+ ago$/);
  });

  test("a member's home-county card still opens with no signal 10 days after one visit (past the 72-hour bound on their own pages)", async ({
    page,
    context,
    open,
    signUp,
    baseURL,
  }) => {
    const member = await signUp();
    const made = await page.request.post(`/hunt-day?county=${LAKE_IN}`, {
      form: { intent: "home", county: LAKE_IN },
      headers: { Origin: baseURL! },
      maxRedirects: 0,
    });
    expect(made.status()).toBe(302);
    await open("/hunt-day");
    await expect(page.getByTestId("hunt-day-county")).toContainText("Home county");
    await savedPage(page, "/hunt-day");
    // The worker keeps the same card drawn for a visitor (no name on it) beside the member's page.
    await expect
      .poll(() => page.evaluate(() => caches.open("hunt-day-card").then((c) => c.match("/hunt-day").then(Boolean))), { intervals: [100] })
      .toBe(true);

    // Ten days on with no signal: nothing from the server has confirmed the session for 240 hours.
    const later = Date.now() + 10 * DAY;
    await page.evaluate(
      (at) => caches.open("pulse-meta").then((meta) => meta.put("/__pulse/confirmed", new Response(String(at)))),
      Date.now() - 240 * 3_600_000,
    );
    await page.clock.setFixedTime(later);
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByTestId("hunt-day-county")).toHaveText("Lake, Indiana");
    await expect(page.getByTestId("hunt-day-today")).toHaveAttribute("data-date", localDate(later, "America/Chicago"));
    await expect(page.getByTestId("worked-out-here")).toBeVisible();
    await expect(page.getByTestId("hunt-day-table").locator("tbody tr")).toHaveCount(14);
    await expect(page.getByTestId("saved-copy-note")).toHaveText(/^Saved copy from .+ ago$/);
    // The member's own pages are gone (ADR 0053): nothing on the device names them.
    expect(await page.content()).not.toContain(member.username);
  });
});

import { describe, expect, it } from "vitest";
import { action as huntDayAction, loader as huntDayLoader } from "~/routes/hunt-day/route";
import { action as settingsAction, loader as settingsLoader } from "~/routes/settings/route";
import { getHomeCounty, setHomeCounty } from "~/models/places/home-county.server";
import { exportAccount } from "~/models/members/account.server";
import { call, createMember, makeRequest } from "#tests/fixtures/members";
import { errorOf } from "#tests/fixtures/errors";
import { CARD_HEADER } from "~/offline/hunt-day-card";

/** Issue 45 item 3: Settings › Profile › Home county, and /hunt-day opening on it (both engines). */

async function pageData(res: Response) {
  return (await res.json()) as Record<string, unknown>;
}

describe("home county", () => {
  it("is the member's own: set, read, cleared; a code the list does not know is a 400", async () => {
    const member = await createMember();
    const other = await createMember();
    expect(await getHomeCounty(member)).toBeNull();
    await setHomeCounty(member, "41045");
    expect((await getHomeCounty(member))?.name).toBe("Malheur");
    expect(await getHomeCounty(other)).toBeNull();
    // The member's data export carries it (CONTRACT §6).
    expect((await exportAccount(member)).homeCounty).toEqual({ fips: "41045", name: "Malheur", state: "OR" });
    expect((await exportAccount(other)).homeCounty).toBeNull();
    expect((await errorOf(() => setHomeCounty(member, "99999"))).status).toBe(400);
    expect((await errorOf(() => setHomeCounty(null, "41045"))).status).toBe(401);
    await setHomeCounty(member, null);
    expect(await getHomeCounty(member)).toBeNull();
  });

  it("Settings › Profile saves it (POST/redirect/GET) and /hunt-day opens on it", async () => {
    const member = await createMember();
    const saved = await call(
      settingsAction,
      makeRequest("/settings?tab=profile", {
        form: { intent: "home-county", homeCounty: "48141" },
        cookie: member.cookie,
      }),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/settings?tab=profile");
    const settings = await pageData(await call(settingsLoader, makeRequest("/settings?tab=profile", { cookie: member.cookie })));
    expect(settings.homeCounty).toMatchObject({
      county: { fips: "48141", name: "El Paso", state: "TX", stateName: "Texas" },
      chosenState: "TX",
    });

    const page = await pageData(await call(huntDayLoader, makeRequest("/hunt-day", { cookie: member.cookie })));
    expect(page).toMatchObject({ county: { fips: "48141", timeZone: "America/Denver" }, isHome: true });
    expect(page.days).toHaveLength(15);
    const visitor = await pageData(await call(huntDayLoader, makeRequest("/hunt-day")));
    expect(visitor).toMatchObject({ county: null, days: [] });
  });

  it("a member's card names the visitor address of the same card, which the service worker keeps offline (ADR 0090, 0095)", async () => {
    const member = await createMember();
    await setHomeCounty(member, "48141");
    const mine = await call(huntDayLoader, makeRequest("/hunt-day", { cookie: member.cookie }));
    expect(mine.headers.get(CARD_HEADER)).toBe("/hunt-day?county=48141");
    const asked = await call(huntDayLoader, makeRequest("/hunt-day?county=18089", { cookie: member.cookie }));
    expect(asked.headers.get(CARD_HEADER)).toBe("/hunt-day?county=18089");
    // The address draws the same county for a visitor; a visitor's own card needs none.
    const card = await call(huntDayLoader, makeRequest("/hunt-day?county=48141"));
    expect(card.headers.get(CARD_HEADER)).toBeNull();
    expect(await pageData(card)).toMatchObject({ county: { fips: "48141" }, signedIn: false });
    // No county, no card.
    const none = await createMember();
    expect((await call(huntDayLoader, makeRequest("/hunt-day", { cookie: none.cookie }))).headers.get(CARD_HEADER)).toBeNull();
  });

  it("the card's 'Make … my home county' sets it; signed out it asks to sign in", async () => {
    const member = await createMember();
    const res = await call(
      huntDayAction,
      makeRequest("/hunt-day?county=18089", {
        form: { intent: "home", county: "18089" },
        cookie: member.cookie,
      }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/hunt-day?county=18089");
    expect((await getHomeCounty(member))?.fips).toBe("18089");
    const signedOut = await call(huntDayAction, makeRequest("/hunt-day", { form: { intent: "home", county: "18089" } }));
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/auth\?/);
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { fieldReports, posts } from "#db/schema";
import { loader as pulseLoader } from "~/routes/api.pulse";
import { loader as countyPulseLoader } from "~/routes/api.pulse.$fips";
import { db } from "~/utils/db.server";
import { call, createMember, makeRequest } from "#tests/fixtures/members";
import { addMember, makeClub } from "#tests/fixtures/posts";

/**
 * CONTRACT.md §14 "The pulse" through the routes as a client calls them (both engines): the floor of
 * 3 reporters, a private club's and a hidden post's reports never counted, the window by day seen,
 * `days` 1-30, and a county's page with its posts or 404 under the floor. Every test uses counties of
 * its own: the pulse is the whole site's.
 */

type Member = Awaited<ReturnType<typeof createMember>>;
type Phase = "pre" | "seeking" | "chasing" | "lockdown" | "post";

const DAY = 86_400_000;
/** The UTC calendar day `ago` days before today. */
const daysAgo = (ago: number) => new Date(Date.now() - ago * DAY).toISOString().slice(0, 10);

/** A post with a field report, written straight to the tables (as the posts API will once `field` lands). */
async function report(
  author: Member,
  county: string,
  {
    ago = 0,
    rutPhase = null,
    clubId = null,
    hidden = false,
  }: { ago?: number; rutPhase?: Phase | null; clubId?: number | null; hidden?: boolean } = {},
): Promise<number> {
  const [post] = await db
    .insert(posts)
    .values({
      authorId: author.id,
      clubId,
      type: "opinion",
      title: `Deer seen in ${county}`,
      content: "Two does at the field edge",
      hiddenAt: hidden ? new Date() : null,
    })
    .returning({ id: posts.id });
  await db
    .insert(fieldReports)
    .values({ postId: post!.id, authorId: author.id, kind: "sighting", county, observedOn: daysAgo(ago), rutPhase });
  return post!.id;
}

async function pulse(query = "") {
  const res = await call(pulseLoader, makeRequest(`/api/pulse${query}`));
  expect(res.status).toBe(200);
  return (await res.json()) as {
    days: number;
    counties: { fips: string; name: string; state: string; reports: number; reporters: number; rutPhase: string | null; lastAt: string }[];
  };
}
const countyIn = async (fips: string, query = "") => (await pulse(query)).counties.find((c) => c.fips === fips);
const countyPage = (fips: string, query = "", cookie?: string) =>
  call(countyPulseLoader, makeRequest(`/api/pulse/${fips}${query}`, { cookie }), { fips });

describe("the pulse", () => {
  it("lists a county only from 3 different reporters on, with its figures", async () => {
    const [a, b, c] = [await createMember(), await createMember(), await createMember()];
    const county = "18089"; // Lake, IN
    await report(a, county, { rutPhase: "seeking" });
    await report(a, county, { ago: 1, rutPhase: "chasing" });
    await report(b, county, { ago: 2, rutPhase: "chasing" });
    // Two members, three reports: under the floor.
    expect(await countyIn(county)).toBeUndefined();
    expect((await countyPage(county)).status).toBe(404);
    expect(await (await countyPage(county)).json()).toEqual({ error: "Not enough reports yet" });

    const newest = await report(c, county, { rutPhase: "pre" });
    const row = await countyIn(county);
    expect(row).toMatchObject({ fips: county, name: "Lake", state: "IN", reports: 4, reporters: 3, rutPhase: "chasing" });
    const [written] = await db.select({ createdAt: fieldReports.createdAt }).from(fieldReports).where(eq(fieldReports.postId, newest));
    expect(row!.lastAt).toBe(new Date(written!.createdAt).toISOString());
    expect(Object.keys(row!).sort()).toEqual(["fips", "lastAt", "name", "reporters", "reports", "rutPhase", "state"]);
  });

  it("never counts a private club's report or a hidden post's; a public club's counts", async () => {
    const [a, b, c] = [await createMember(), await createMember(), await createMember()];
    const county = "41045"; // Malheur, OR
    await report(a, county);
    await report(b, county);
    const secret = await makeClub(c.id, { isPrivate: true });
    await report(c, county, { clubId: secret });
    await report(c, county, { hidden: true });
    expect(await countyIn(county)).toBeUndefined();
    expect((await countyPage(county, "", c.cookie)).status).toBe(404);

    const open = await makeClub(a.id, { isPrivate: false });
    await addMember(open, c.id);
    const shown = await report(c, county, { clubId: open });
    expect(await countyIn(county)).toMatchObject({ reports: 3, reporters: 3, rutPhase: null });
    const page = await countyPage(county);
    expect(page.status).toBe(200);
    const body = (await page.json()) as { county: { reports: number }; posts: { id: number; title: string }[] };
    expect(body.county).toMatchObject({ fips: county, reports: 3, reporters: 3 });
    expect(body.posts).toHaveLength(3);
    expect(body.posts[0]!.id).toBe(shown); // newest first
  });

  it("counts the days seen in the window, today included, and reads days 1-30", async () => {
    const [a, b, c] = [await createMember(), await createMember(), await createMember()];
    const county = "48141"; // El Paso, TX
    await report(a, county, { ago: 0 });
    await report(b, county, { ago: 6 });
    await report(c, county, { ago: 7 });
    // Seven days: today and the six before; the third reporter's day is the eighth.
    expect(await countyIn(county)).toBeUndefined();
    expect((await pulse()).days).toBe(7);
    expect(await countyIn(county, "?days=8")).toMatchObject({ reports: 3, reporters: 3 });
    expect(await countyIn(county, "?days=1")).toBeUndefined();
    // Out of range is clamped, junk is the default (as the feed's `limit`).
    expect((await pulse("?days=0")).days).toBe(1);
    expect((await pulse("?days=-3")).days).toBe(7);
    expect((await pulse("?days=31")).days).toBe(30);
    expect((await pulse("?days=9999999")).days).toBe(30);
    expect((await pulse("?days=abc")).days).toBe(7);
    expect((await pulse("?days=30")).days).toBe(30);
    expect(await countyIn(county, "?days=30")).toMatchObject({ reports: 3 });
    // 31 days ago is outside even the longest window.
    const d = await createMember();
    await report(d, "48001", { ago: 30 });
    await report(a, "48001", { ago: 30 });
    await report(b, "48001", { ago: 30 });
    expect(await countyIn("48001", "?days=30")).toBeUndefined();
    expect(await countyIn("48001", "?days=31")).toBeUndefined();

    const page = await countyPage(county, "?days=8");
    expect(page.status).toBe(200);
    expect((await page.json()) as { days: number; posts: unknown[] }).toMatchObject({ days: 8, posts: [{}, {}, {}] });
    expect((await countyPage(county, "?days=7")).status).toBe(404);
  });

  it("a county's page: 404 for a code that is no county", async () => {
    for (const fips of ["99999", "1808", "abcde", "180890"]) {
      const res = await countyPage(fips);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "No US county has that FIPS code" });
    }
  });
});

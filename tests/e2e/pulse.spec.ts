import { expect, expectNoAxeViolations, test, type ApiPost } from "./fixtures";

/**
 * Issue 45 item 2, the pulse (CONTRACT.md §14; docs/decisions/0094-the-pulse.md): /pulse draws the
 * map on the server (a link per county at the floor) and the list, the days form is a plain GET form
 * (JavaScript off and on), a county's page shows its figures and links its posts; under the floor a
 * county's page says "Not enough reports yet". On a 390 px phone, axe clean (JavaScript on).
 *
 * The posts and their field reports come through POST /api/posts, as a client files them. Each
 * project has a county of its own: the pulse is the site's.
 */

/** Yesterday on UTC's calendar: within the pulse's window, and never a day to come in a US county. */
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

test("the map and the list show a county once 3 members report there; the days form and the county's posts work", async ({
  page,
  open,
  js,
  signUp,
  createPost,
  newPage,
}) => {
  // Three members, six pages and two axe runs: more than the default 30 s on a busy machine.
  test.slow();
  await page.setViewportSize({ width: 390, height: 844 });
  // Each project (and a retry) its own county, one no other spec reports in: the pulse is the site's,
  // and field-report.spec and harvest-log.spec file reports in Lake, IN, lifting it over the floor early.
  const counties = js
    ? [
        ["31005", "Arthur, NE"],
        ["31009", "Blaine, NE"],
      ]
    : [
        ["48301", "Loving, TX"],
        ["48269", "King, TX"],
      ];
  const [fips, name] = counties[test.info().retry % counties.length]!;
  const posts: ApiPost[] = [];
  for (const [i, phase] of (["chasing", "chasing", "seeking"] as const).entries()) {
    const as = i === 0 ? page : await newPage();
    await signUp(as);
    const field = { kind: "sighting", county: fips, observedOn: yesterday(), rutPhase: phase };
    posts.push(await createPost({ title: `Pulse sighting ${i + 1} ${fips} ${Date.now()}`, field }, as));
    if (i === 1) {
      // Two members: under the floor, the county's page says so.
      await open(`/pulse/${fips}`);
      await expect(page.getByRole("heading", { name: "Not enough reports yet", level: 1 })).toBeVisible();
      await expect(page.getByRole("link", { name: "Back to the pulse" })).toHaveAttribute("href", "/pulse");
    }
  }

  await open("/pulse");
  await expect(page.getByRole("heading", { name: "The pulse", level: 1 })).toBeVisible();
  // The map: drawn on the server, named, its county a link with the figures in its name.
  const map = page.getByTestId("pulse-map").locator("svg");
  await expect(map).toHaveAttribute("aria-labelledby", "pulse-map-title");
  await expect(map.locator("title#pulse-map-title")).toHaveText("Map of US counties with field reports");
  const shape = map.locator(`a[href="/pulse/${fips}?days=7"]`);
  await expect(shape.locator("title")).toHaveText(new RegExp(`^${name}: \\d+ reports from \\d+ members$`));
  // The list: the real content.
  const row = page.getByTestId("pulse-list").locator(`li[data-fips="${fips}"]`);
  await expect(row).toContainText(name);
  await expect(row).toContainText(/3 reports from 3 members · Rut: Chasing · Last report/);
  if (js) await expectNoAxeViolations(page);

  // The days form: a plain GET.
  await page.getByLabel("Reports seen in the last").selectOption("30");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/\/pulse\?days=30$/);
  await expect(page.getByLabel("Reports seen in the last")).toHaveValue("30");
  await expect(page.getByTestId("pulse-map").locator(`a[href="/pulse/${fips}?days=30"]`)).toHaveCount(1);

  // The county's page, from the list: its figures and its posts, each linked.
  await page
    .getByTestId("pulse-list")
    .getByRole("link", { name: new RegExp(`^${name}`) })
    .click();
  await expect(page).toHaveURL(`/pulse/${fips}?days=30`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  const figures = page.getByTestId("pulse-county-figures");
  await expect(figures).toContainText("Reports3");
  await expect(figures).toContainText("Members reporting3");
  await expect(figures).toContainText("Rut phase reported mostChasing");
  const cards = page.getByTestId("post-card");
  await expect(cards).toHaveCount(3);
  // Newest first.
  await expect(cards.first()).toContainText(posts[2]!.title);
  if (js) await expectNoAxeViolations(page);
  await cards.first().getByRole("link", { name: posts[2]!.title }).click();
  await expect(page).toHaveURL(`/post/${posts[2]!.id}`);
});

test("a phone's visitor, whose top bar has no room for it, finds the pulse from the hunt-day card", async ({ page, open }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open("/hunt-day?county=18089");
  const link = page.getByRole("link", { name: "What hunters are seeing, county by county: the pulse" });
  expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await link.click();
  await expect(page).toHaveURL("/pulse");
  await expect(page.getByRole("heading", { name: "The pulse", level: 1 })).toBeVisible();
});

import Database from "better-sqlite3";
import pg from "pg";
import { expect, expectNoAxeViolations, suiteDatabaseUrl, test, type ApiPost } from "./fixtures";

/**
 * Issue 45 item 2, the pulse (CONTRACT.md §14; docs/decisions/0094-the-pulse.md): /pulse draws the
 * map on the server (a link per county at the floor) and the list, the days form is a plain GET form
 * (JavaScript off and on), a county's page shows its figures and links its posts; under the floor a
 * county's page says "Not enough reports yet". On a 390 px phone, axe clean (JavaScript on).
 *
 * The posts come through POST /api/posts; their field reports are written into the server's database
 * (the form's `field` part is issue 45 item 1). Each project has a county of its own: the pulse is the site's.
 */

const DATA_DIR = process.env.E2E_DATA_DIR ?? `tmp/e2e-${process.env.E2E_PORT ?? 3100}`;

/** The post's field report, as the posts API writes it: the author's, the county, today (UTC), written now. */
async function fileReport(post: ApiPost, county: string, rutPhase: string | null) {
  const values = [county, new Date().toISOString().slice(0, 10), rutPhase, Date.now(), post.id];
  const insert = (p: string[]) =>
    "INSERT INTO field_reports (post_id, author_id, kind, county, observed_on, rut_phase, created_at) " +
    `SELECT id, author_id, 'sighting', ${p.slice(0, 4).join(", ")} FROM posts WHERE id = ${p[4]}`;
  if (suiteDatabaseUrl) {
    const client = new pg.Client({ connectionString: suiteDatabaseUrl });
    await client.connect();
    try {
      await client.query(insert(["$1", "$2", "$3", "$4", "$5"]), values);
    } finally {
      await client.end();
    }
    return;
  }
  const db = new Database(`${DATA_DIR}/app.db`);
  try {
    db.pragma("busy_timeout = 5000");
    db.prepare(insert(["?", "?", "?", "?", "?"])).run(...values);
  } finally {
    db.close();
  }
}

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
  // Each project its own county: Lake, IN (JavaScript on) and Porter, IN (off).
  const [fips, name] = js ? ["18089", "Lake, IN"] : ["18127", "Porter, IN"];
  const posts: ApiPost[] = [];
  for (const [i, phase] of (["chasing", "chasing", "seeking"] as const).entries()) {
    const as = i === 0 ? page : await newPage();
    await signUp(as);
    posts.push(await createPost({ title: `Pulse sighting ${i + 1} ${fips} ${Date.now()}` }, as));
    await fileReport(posts[i]!, fips, phase);
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

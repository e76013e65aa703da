import Database from "better-sqlite3";
import pg from "pg";
import { expect, expectNoAxeViolations, suiteDatabaseUrl, test } from "./fixtures";

/**
 * Issue 45 item 4, the harvest log (CONTRACT.md §14; docs/decisions/0095-harvest-log.md): from
 * Settings › Privacy to /settings/harvest-log, the member's own field reports with a kind filter (a
 * plain GET form) and "Download CSV", with JavaScript off and on.
 */

const DATA_DIR = process.env.E2E_DATA_DIR ?? `tmp/e2e-${process.env.E2E_PORT ?? 3100}`;

type Report = { postId: number; kind: string; county: string; observedOn: string; bucks: number | null; does: number | null };

/** Field reports written into the server's database beside the posts they belong to (the post form's part is another change). */
async function addReports(username: string, reports: Report[]) {
  const insert = (p: string[]) =>
    `INSERT INTO field_reports (post_id, author_id, kind, county, observed_on, bucks, does, created_at) ` +
    `SELECT ${p[0]}, id, ${p[1]}, ${p[2]}, ${p[3]}, ${p[4]}, ${p[5]}, ${p[6]} FROM users WHERE username = ${p[7]}`;
  const rows = reports.map((r) => [r.postId, r.kind, r.county, r.observedOn, r.bucks, r.does, Date.now(), username]);
  if (suiteDatabaseUrl) {
    const client = new pg.Client({ connectionString: suiteDatabaseUrl });
    await client.connect();
    try {
      for (const row of rows) await client.query(insert(["$1", "$2", "$3", "$4", "$5", "$6", "$7", "$8"]), row);
    } finally {
      await client.end();
    }
    return;
  }
  const db = new Database(`${DATA_DIR}/app.db`);
  try {
    db.pragma("busy_timeout = 5000");
    for (const row of rows) db.prepare(insert(Array(8).fill("?"))).run(...row);
  } finally {
    db.close();
  }
}

test("a member reads their harvest log, filters it by kind and downloads it as CSV", async ({ page, open, signUp, createPost, js }) => {
  const member = await signUp();
  const buck = await createPost({ title: "=Opening-day eight pointer" });
  const does = await createPost({ title: "Four does on the food plot" });
  await addReports(member.username, [
    { postId: buck.id, kind: "harvest", county: "18089", observedOn: "2026-11-15", bucks: 1, does: null },
    { postId: does.id, kind: "sighting", county: "55025", observedOn: "2026-11-20", bucks: 0, does: 4 },
  ]);

  await open("/settings?tab=privacy");
  await page.getByRole("link", { name: "Open harvest log" }).click();
  await expect(page).toHaveURL("/settings/harvest-log");
  await expect(page.getByRole("heading", { name: "Harvest log", level: 1 })).toBeVisible();
  const entries = page.getByTestId("harvest-log-entry");
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0)).toContainText("2026-11-20 · Sighting");
  await expect(entries.nth(0)).toContainText("Dane, WI · 0 bucks · 4 does");
  await expect(entries.nth(1)).toContainText("2026-11-15 · Harvest");
  await expect(entries.nth(1).getByRole("link", { name: "=Opening-day eight pointer" })).toHaveAttribute("href", `/post/${buck.id}`);

  await page.getByRole("combobox", { name: "Kind" }).selectOption({ label: "Harvest" });
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL("/settings/harvest-log?kind=harvest");
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText("Lake, IN · 1 buck");
  await expect(page.getByRole("combobox", { name: "Kind" })).toHaveValue("harvest");

  const download = page.getByRole("link", { name: "Download CSV" });
  await expect(download).toHaveAttribute("href", "/api/auth/field-reports.csv?kind=harvest");
  const csv = await page.request.get((await download.getAttribute("href"))!);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-disposition"]).toMatch(/^attachment; filename="whitetail-pulse-harvest-log-.+\.csv"$/);
  const lines = (await csv.text()).split("\r\n");
  expect(lines[0]).toBe("date,county,state,kind,rut phase,bucks,does,post URL");
  expect(lines[1]).toMatch(new RegExp(`^2026-11-15,Lake,IN,Harvest,,1,,https?://[^,]+/post/${buck.id}$`));
  expect(lines.slice(2)).toEqual([""]);

  if (js) {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const control of [
      page.getByRole("combobox", { name: "Kind" }),
      page.getByRole("button", { name: "Show" }),
      download,
      entries.first().getByRole("link"),
    ]) {
      expect((await control.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    }
    await expectNoAxeViolations(page);
  }

  // An unknown kind says so beside the filter (400), never a 500.
  const bad = await page.goto("/settings/harvest-log?kind=trophy");
  expect(bad!.status()).toBe(400);
  await expect(page.getByRole("alert").filter({ hasText: "Kind must be one of sighting, rut_sign, harvest" })).toBeVisible();
});

test("a visitor is asked to sign in; another member's log holds none of yours", async ({ page, open, signUp, createPost, newPage }) => {
  const response = await page.goto("/settings/harvest-log");
  expect(response!.status()).toBe(401);
  await expect(page.getByText("Please sign in to see your harvest log.")).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Sign In" })).toHaveAttribute("href", /^\/auth\?.*harvest-log/);

  const owner = await signUp();
  const post = await createPost({ title: "Not for anyone else" });
  await addReports(owner.username, [{ postId: post.id, kind: "harvest", county: "18089", observedOn: "2026-11-10", bucks: 1, does: 0 }]);
  const other = await newPage();
  await signUp(other);
  await open("/settings/harvest-log", other);
  await expect(other.getByTestId("harvest-log-empty")).toHaveText(/^No field reports yet\./);
  await expect(other.getByText("Not for anyone else")).toHaveCount(0);
});

import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, test, uniqueName } from "./fixtures";

/**
 * Field reports on posts (issue 45 item 1, CONTRACT.md §14): the post forms' optional "Field report"
 * part, with JavaScript off (a state select, "List counties", which brings the same form back with
 * everything kept, then the county select) and on (a type-ahead over /api/counties), and its line on
 * the card and the post page. Two taps past the post form with a home county: open the part, tap
 * the kind; the county and today are already there.
 */

const LAKE_IN = "18089";
const BODY = "Two bucks cruising the creek bottom at first light, nose down.";

/** Today as the form defaults it for a member without a home county (the US's latest zone). */
function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
}
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const shortDay = (date: string) => `${Number(date.slice(8, 10))} ${MONTHS[Number(date.slice(5, 7)) - 1]}`;

async function fillPost(page: Page, title: string) {
  await page.getByLabel("Title").fill(title);
  await page.getByTestId("post-content-input").fill(BODY);
}

const part = (page: Page) => page.getByTestId("field-report-part");

test("without JavaScript: state, List counties (the form kept), county, publish; the line on the post and its card", async ({
  page,
  open,
  signUp,
  js,
}) => {
  test.skip(js, "the plain selects are the form without JavaScript; with it, the type-ahead (below)");
  await signUp();
  await open("/create");
  const title = `Creek bottom ${uniqueName("fr")}`;
  await fillPost(page, title);
  await page.getByLabel("Tags").fill("rut, indiana");
  await part(page).locator("summary").click();
  await part(page).getByLabel("Sighting").check();
  await part(page).getByLabel("Bucks seen (optional)").fill("2");
  await part(page).getByLabel("Does seen (optional)").fill("3");
  await part(page).getByLabel("Rut phase (optional)").selectOption({ label: "Seeking" });
  await part(page).getByRole("combobox", { name: "State", exact: true }).selectOption({ label: "Indiana" });
  await part(page).getByRole("button", { name: "List counties" }).click();

  // The same form back, nothing published, everything typed kept, Indiana's counties listed.
  await expect(page).toHaveURL("/create");
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await expect(page.getByTestId("post-content-input")).toHaveValue(BODY);
  await expect(page.getByLabel("Tags")).toHaveValue("rut, indiana");
  await expect(part(page)).toHaveAttribute("open", "");
  await expect(part(page).getByLabel("Sighting")).toBeChecked();
  await expect(part(page).getByLabel("Bucks seen (optional)")).toHaveValue("2");
  await expect(part(page).getByLabel("Does seen (optional)")).toHaveValue("3");
  await expect(part(page).getByLabel("Rut phase (optional)")).toHaveValue("seeking");
  await expect(page.getByRole("alert")).toHaveCount(0);
  const county = part(page).getByRole("combobox", { name: "County", exact: true });
  await county.selectOption({ label: "Lake" });
  await page.getByRole("button", { name: "Publish Post" }).click();

  await expect(page.getByTestId("toast")).toContainText("Post created!");
  const line = page.getByTestId("post").getByTestId("field-report");
  await expect(line).toContainText(`Sighting · Lake, IN · ${shortDay(todayIn("America/Los_Angeles"))} · Seeking · 2 bucks, 3 does`);
  await expect(line.getByRole("link", { name: "Lake, IN" })).toHaveAttribute("href", `/pulse/${LAKE_IN}`);
  const id = new URL(page.url()).pathname.split("/").pop();
  const post = await (await page.request.get(`/api/posts/${id}`)).json();
  expect(post.field).toEqual({
    kind: "sighting",
    county: { fips: LAKE_IN, name: "Lake", state: "IN" },
    observedOn: todayIn("America/Los_Angeles"),
    rutPhase: "seeking",
    bucks: 2,
    does: 3,
  });
  await open(`/?search=${encodeURIComponent(title)}`);
  await expect(page.getByTestId("post-card").filter({ hasText: title }).getByTestId("field-report")).toContainText("Sighting · Lake, IN");
});

test("with JavaScript: the county by type-ahead; the part is axe clean and its controls 44 px on a phone", async ({
  page,
  open,
  signUp,
  js,
}) => {
  test.skip(!js, "the type-ahead is JavaScript's");
  await page.setViewportSize({ width: 390, height: 844 });
  await signUp();
  await open("/create");
  const title = `Scrape line ${uniqueName("fr")}`;
  await fillPost(page, title);
  await part(page).locator("summary").click();
  await part(page).getByLabel("Rut sign").check();
  const box = part(page).getByRole("combobox", { name: "County", exact: true });
  await box.fill("Lake");
  const options = page.getByRole("listbox", { name: "Counties" }).getByRole("option");
  await expect(options.first()).toBeVisible();
  await expectNoAxeViolations(page);
  for (const control of await part(page)
    .locator("summary, input:not([type=hidden]):not([type=radio]), select, button, label:has(input[type=radio])")
    .all()) {
    expect((await control.boundingBox())!.height, await control.evaluate((el) => el.outerHTML.slice(0, 80))).toBeGreaterThanOrEqual(44);
  }
  await options.filter({ hasText: "Lake, IN" }).click();
  await expect(box).toHaveValue("Lake, IN");
  await expect(part(page).locator('input[name="field.county"]')).toHaveValue(LAKE_IN);
  await page.getByRole("button", { name: "Publish Post" }).click();
  await expect(page.getByTestId("toast")).toContainText("Post created!");
  await expect(page.getByTestId("post").getByTestId("field-report")).toContainText("Rut sign · Lake, IN");
});

test("two taps past the post form: the member's home county and today are there, the kind is the second tap", async ({
  page,
  open,
  signUp,
  baseURL,
}) => {
  await signUp();
  const saved = await page.request.post("/settings?tab=profile", {
    form: { intent: "home-county", homeCounty: LAKE_IN },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(saved.status(), await saved.text()).toBeLessThan(400);
  await open("/create");
  const title = `First light ${uniqueName("fr")}`;
  await fillPost(page, title);
  await part(page).locator("summary").click(); // tap 1
  await part(page).getByText("Sighting", { exact: true }).click(); // tap 2
  await page.getByRole("button", { name: "Publish Post" }).click();
  await expect(page.getByTestId("toast")).toContainText("Post created!");
  // Lake County, Indiana keeps Central time.
  await expect(page.getByTestId("post").getByTestId("field-report")).toHaveText(
    `Field report: Sighting · Lake, IN · ${shortDay(todayIn("America/Chicago"))}`,
  );
});

test("a post without a report publishes with the part left as it is, the home county and today filled in", async ({
  page,
  open,
  signUp,
  baseURL,
}) => {
  await signUp();
  await page.request.post("/settings?tab=profile", { form: { intent: "home-county", homeCounty: LAKE_IN }, headers: { Origin: baseURL! } });
  await open("/create");
  const title = `No report ${uniqueName("fr")}`;
  await fillPost(page, title);
  await page.getByRole("button", { name: "Publish Post" }).click();
  await expect(page.getByTestId("toast")).toContainText("Post created!");
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await expect(page.getByTestId("post").getByTestId("field-report")).toHaveCount(0);
});

test("editing changes the report, then removes it", async ({ page, open, signUp, createPost, js }) => {
  await signUp();
  const post = await createPost({ field: { kind: "sighting", county: LAKE_IN, observedOn: todayIn("America/Los_Angeles"), bucks: 1 } });
  expect((post as unknown as { field: unknown }).field).toMatchObject({ kind: "sighting", county: { fips: LAKE_IN } });

  const edit = async () => {
    await open(`/post/${post.id}${js ? "" : "?edit=1"}`);
    if (js) {
      await page.getByLabel("Post options").click();
      await page
        .getByRole("button", { name: "Edit Post" })
        .or(page.getByRole("link", { name: "Edit Post" }))
        .first()
        .click();
    }
    const form = js ? page.getByRole("dialog", { name: "Edit Post" }) : page.getByTestId("edit-post-form");
    await expect(form.getByTestId("field-report-part")).toHaveAttribute("open", "");
    return form;
  };

  let form = await edit();
  await expect(form.getByLabel("Sighting")).toBeChecked();
  await form.getByLabel("Harvest").check();
  await form.getByLabel("Bucks seen (optional)").fill("");
  if (!js) {
    // The state then county without JavaScript: the form comes back as it was, Ohio listed.
    await form.getByRole("combobox", { name: "State", exact: true }).selectOption({ label: "Ohio" });
    await form.getByRole("button", { name: "List counties" }).click();
    form = page.getByTestId("edit-post-form");
    await expect(form.getByLabel("Harvest")).toBeChecked();
    await form.getByRole("combobox", { name: "County", exact: true }).selectOption({ label: "Athens" });
  } else {
    await form.getByRole("combobox", { name: "County", exact: true }).fill("Athens");
    await page.getByRole("option", { name: "Athens, OH" }).click();
  }
  await form.getByRole("button", { name: "Update Post" }).click();
  await expect(page.getByTestId("toast")).toContainText("Post updated");
  await expect(page.getByTestId("post").getByTestId("field-report")).toContainText("Harvest · Athens, OH");
  await expect(page.getByTestId("post").getByTestId("field-report")).not.toContainText("buck");

  form = await edit();
  await form.getByLabel("No report").check();
  await form.getByRole("button", { name: "Update Post" }).click();
  await expect(page.getByTestId("toast")).toContainText("Post updated");
  await expect(page.getByTestId("post").getByTestId("field-report")).toHaveCount(0);
  expect((await (await page.request.get(`/api/posts/${post.id}`)).json()).field).toBeNull();
});

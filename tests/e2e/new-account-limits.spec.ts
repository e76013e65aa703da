import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import type { Browser } from "@playwright/test";
import { expect, expectNoAxeViolations, hydrated, startServer, test, uniqueName } from "./fixtures";

/**
 * CONTRACT.md §8 first-day caps through the real server, JavaScript off and on. The suite's server
 * runs with RATE_LIMITS=off, so this spec starts its own with limits on (as client-address and
 * password-reset do), one per project on its own port.
 */
const suitePort = Number(process.env.E2E_PORT ?? 3100);

test.describe("a brand-new member's first day", () => {
  test.describe.configure({ mode: "serial" });
  let server: ChildProcess | undefined;
  let origin = "";

  // Playwright needs the fixtures argument to be a destructuring pattern, even an empty one.
  // eslint-disable-next-line no-empty-pattern
  test.beforeAll(async ({}, testInfo) => {
    const port = suitePort + (testInfo.project.name === "js-on" ? 71 : 70);
    const dataDir = `${process.env.E2E_DATA_DIR ?? `tmp/e2e-${suitePort}`}-new-accounts-${port}`;
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    origin = `http://localhost:${port}`;
    server = await startServer(port, dataDir, { RATE_LIMITS: "on", NEW_ACCOUNT_HOURS: "24" });
  });

  test.afterAll(() => {
    server?.kill();
  });

  /** A new member signed in on a page of their own (this server's origin), and how to open pages there. */
  async function newMember(browser: Browser, js: boolean) {
    // A phone (ux-3 U1, U2): a refusal must land in view, not above or below it.
    // In Chicago: with JavaScript the page tells the server its zone, and the refusal names the
    // moment in it; without, in UTC, labelled (ux-3 U15).
    const context = await browser.newContext({
      baseURL: origin,
      javaScriptEnabled: js,
      viewport: { width: 390, height: 844 },
      timezoneId: "America/Chicago",
    });
    const page = await context.newPage();
    const username = uniqueName("fresh");
    const res = await page.request.post("/api/auth/register", {
      data: { username, displayName: `Fresh ${username}`, email: `${username}@example.com`, password: "secret123" },
      headers: { Origin: origin },
    });
    expect(res.status(), await res.text()).toBe(201);
    const open = async (path: string) => {
      await page.goto(path);
      if (js) await hydrated(page);
    };
    const apiPost = async (title: string, content = "A long enough body about a morning in the stand.") => {
      const made = await page.request.post("/api/posts", {
        data: { title, content, type: "article" },
        headers: { Origin: origin },
      });
      expect(made.status(), await made.text()).toBe(201);
      return (await made.json()) as { id: number };
    };
    return { page, context, open, apiPost };
  }

  // Just under a day is left: within its last minute "24 hours", past it "23 hours 58 minutes" and so
  // on, never a whole hour more than is left (ux-3 U15; tryAgainIn's own test has the cases).
  const liftText = (js: boolean) =>
    new RegExp(
      `You can post again in (24 hours|23 hours \\d{1,2} minutes?), at \\d\\d:\\d\\d ${js ? "C[SD]T" : "UTC"} on \\d{1,2} [A-Z][a-z]{2}\\.`,
    );

  test("the fourth post is refused with when the cap lifts, and the form keeps the title and text", async ({ browser, js }) => {
    const { page, context, open, apiPost } = await newMember(browser, js);
    for (let i = 1; i <= 3; i++) await apiPost(`Post ${i} ${uniqueName("t")}`);

    await open("/create");
    const form = page.getByRole("form", { name: "Create Post" });
    const title = `A fourth post ${uniqueName("t")}`;
    const text = "Fourth sit of the day,\nstill no buck past the oaks.";
    await form.getByRole("radio", { name: /^Opinion/ }).check();
    await form.getByLabel("Title").fill(title);
    await form.getByLabel("Content", { exact: true }).fill(text);
    await form.getByRole("button", { name: "Publish Post" }).click();

    await expect(form).toContainText("New accounts can make 3 posts in their first day.");
    await expect(form).toContainText(liftText(js));
    // Publish is at the foot of the form and the refusal at its head: it comes into view, focused.
    const refusal = form.getByRole("alert").filter({ hasText: "New accounts can make 3 posts" });
    await expect(refusal).toBeInViewport();
    if (js) await expect(page.locator(":focus")).toContainText("New accounts can make 3 posts");
    if (js) await expectNoAxeViolations(page);
    await expect(form.getByLabel("Title")).toHaveValue(title);
    await expect(form.getByLabel("Content", { exact: true })).toHaveValue(text);
    await expect(form.getByRole("radio", { name: /^Opinion/ })).toBeChecked();
    await expect(page).toHaveURL(/\/create$/);

    // Nothing was published: the member's profile still lists three posts.
    const mine = await page.request.get(`/api/auth/user`);
    expect((await mine.json()).postsCount).toBe(3);
    await context.close();
  });

  test("a comment with three links is refused with the reason, and the comment box keeps the text", async ({ browser, js }) => {
    const { page, context, open, apiPost } = await newMember(browser, js);
    // A long post, so that the comment box is well below the top of the page.
    const story = Array.from({ length: 12 }, (_, i) => `Sit ${i + 1}: wind from the north, two does at the oaks, no buck.`).join("\n\n");
    const post = await apiPost(`Somewhere to comment ${uniqueName("t")}`, story);
    await open(`/post/${post.id}`);
    const text = "Try deer.example.org, rut.example.org and https://stands.example.org/maps";
    const box = page.getByRole("textbox", { name: "Add a comment" });
    await box.fill(text);
    await page.getByRole("button", { name: "Post Comment" }).click();
    const refusal = page.getByText(/New accounts can put at most 2 links in a comment in their first day \(this one has 3\)\./).first();
    await expect(refusal).toBeVisible();
    await expect(box).toHaveValue(text);
    // Without JavaScript the refusal is a new page: it opens at the comment box, not at the post's top.
    await expect(refusal).toBeInViewport();
    await expect(box).toBeInViewport();
    if (js) await expectNoAxeViolations(page);
    const comments = await page.request.get(`/api/posts/${post.id}/comments`);
    expect(await comments.json()).toEqual([]);
    await context.close();
  });
});

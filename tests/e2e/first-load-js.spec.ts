import path from "node:path";
import { firstLoads } from "../../scripts/first-load";
import type { Page } from "@playwright/test";
import { test, expect } from "./fixtures";

/**
 * Issue 13, lighter first loads (ADR 0038): zod's classic build and any `new Function`/eval stay out
 * of every page's browser code (the CSP has no 'unsafe-eval'), and the form pages still show SPEC.md
 * §5's messages before anything is sent, with no CSP violation reported.
 */

const assets = path.join(process.env.REMIX_BUILD_DIR ?? ".", "public/build");

test("no page's first-load JavaScript holds classic zod or new Function/eval", async ({ js }) => {
  test.skip(!js, "reads the build, once");
  const pages = firstLoads(assets);
  expect(pages.length).toBeGreaterThan(10);
  for (const page of pages) {
    expect(page.evalIn, `${page.route}: new Function/eval`).toEqual([]);
    expect(page.classicZodIn, `${page.route}: classic zod`).toEqual([]);
  }
});

/** Records every `securitypolicyviolation` the page reports, from the first script on. */
async function watchCsp(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      w.cspViolations.push(`${e.violatedDirective} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  const posts: string[] = [];
  page.on("request", (req) => {
    if (req.method() === "POST") posts.push(req.url());
  });
  return {
    violations: () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
    posts,
  };
}

const FORMS: Array<{ url: string; member: boolean; fill: (page: Page) => Promise<void>; message: string }> = [
  {
    url: "/auth?mode=register",
    member: false,
    fill: async (page) => {
      const form = page.locator("form#register");
      await form.getByLabel("Username").fill("ab");
      await form.getByRole("button", { name: "Join Now" }).click();
    },
    message: "Username must be at least 3 characters",
  },
  {
    url: "/create",
    member: true,
    fill: async (page) => {
      await page.getByLabel("Title").fill("A title");
      await page.getByRole("button", { name: "Publish Post" }).click();
    },
    message: "Content must be at least 10 characters",
  },
  {
    url: "/clubs/create",
    member: true,
    fill: async (page) => {
      await page.getByLabel(/Club name/).fill("ab");
      await page.getByRole("button", { name: "Create Club" }).click();
    },
    message: "Club name must be at least 3 characters",
  },
  {
    url: "/settings",
    member: true,
    fill: async (page) => {
      await page.getByLabel("Display name").fill("");
      await page.getByRole("button", { name: "Save Changes" }).click();
    },
    message: "Display name is required",
  },
];

for (const form of FORMS) {
  test(`${form.url}: SPEC's message before submit, and no CSP violation`, async ({ page, js, open, signUp }) => {
    test.skip(!js, "browser validation and CSP reports need JavaScript");
    // Signing up through the API signs this page's context in.
    if (form.member) await signUp();
    const watch = await watchCsp(page);
    await open(form.url);
    watch.posts.length = 0;
    await form.fill(page);
    await expect(page.locator("main")).toContainText(form.message);
    expect(watch.posts, "the browser refused the form before sending it").toEqual([]);
    expect(await watch.violations()).toEqual([]);
  });
}

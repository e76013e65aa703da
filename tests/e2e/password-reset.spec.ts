import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import type { Page } from "@playwright/test";
import { resetLinkIn, startMailSink } from "../fixtures/mail-sink";
import { expect, operatorCommand, startServer, test, uniqueName } from "./fixtures";

/**
 * "Forgot password?" (ADR 0028), with JavaScript off and on: the sign-in form links to it; without
 * SMTP the page sends the member to the operator, whose command prints the link; with SMTP (a local
 * sink) the form mails it. Either way the link's form sets the password, signs this browser in and
 * every other session of the member out.
 */

const suitePort = Number(process.env.E2E_PORT ?? 3100);
const signedIn = async (page: Page) => (await page.request.get("/api/auth/user")).status();

/** On the link's page: choose the new password and land signed in on the feed. */
async function chooseNewPassword(page: Page, link: string, password: string) {
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill(password);
  await page.getByLabel("Confirm new password").fill(password);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByTestId("toast")).toContainText("Password updated");
  await expect(page).toHaveURL(/\/$/);
}

test("without SMTP: the operator's link sets a new password and ends the old sessions", async ({
  page,
  baseURL,
  open,
  signUp,
  signIn,
  newPage,
}) => {
  // The operator's command is a cold start of its own (tsx, the database opened and migrated): on a
  // loaded two-core machine the whole test took ~50 s on PostgreSQL.
  test.slow();
  const me = await signUp();
  expect(await signedIn(page)).toBe(200);

  const visitor = await newPage();
  await open("/auth?mode=login", visitor);
  await visitor.getByRole("link", { name: "Forgot password?" }).click();
  await expect(visitor).toHaveURL(/\/forgot-password$/);
  await expect(visitor.getByTestId("ask-operator")).toContainText("Ask the person who runs");

  const out = operatorCommand("reset-password.ts", [me.username, "--origin", baseURL!]);
  const link = /http:\/\/\S+/.exec(out)![0];
  // Opening the link changes nothing; a second look still shows the form.
  await visitor.goto(link);
  await chooseNewPassword(visitor, link, "brandnew1");
  expect(await signedIn(visitor)).toBe(200);
  expect(await signedIn(page)).toBe(401);

  // Used once: the link now says so and offers a new one.
  await visitor.goto(link);
  await expect(visitor.getByTestId("reset-invalid")).toContainText("expired or has already been used");
  await expect(visitor.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute("href", "/forgot-password");

  const another = await newPage();
  await signIn(me.username, "brandnew1", another);
});

test.describe("with SMTP", () => {
  // Its own server (with mail configured) per project, on a fixed port: one worker at a time.
  test.describe.configure({ mode: "serial" });
  let server: ChildProcess | undefined;
  let sink: Awaited<ReturnType<typeof startMailSink>>;
  let origin = "";

  // Playwright needs the fixtures argument to be a destructuring pattern, even an empty one.
  // eslint-disable-next-line no-empty-pattern
  test.beforeAll(async ({}, testInfo) => {
    const port = suitePort + (testInfo.project.name === "js-on" ? 5 : 4);
    const dataDir = `${process.env.E2E_DATA_DIR ?? `tmp/e2e-${suitePort}`}-reset-${port}`;
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    sink = await startMailSink();
    origin = `http://localhost:${port}`;
    server = await startServer(port, dataDir, {
      SMTP_URL: sink.url,
      MAIL_FROM: "Pulse <pulse@example.org>",
      PUBLIC_URL: origin,
      RATE_LIMITS: "on",
    });
  });

  test.afterAll(async () => {
    server?.kill();
    await sink?.close();
  });

  test("the form mails a one-time link; unknown names get the same answer", async ({ page, js, newPage }) => {
    // Two sign-up round trips, two mails through the sink and a reset against a server of its own:
    // more than the default 30 s on a loaded two-core machine (it failed there once at 30 s).
    test.slow();
    const username = uniqueName("r");
    const register = await page.request.post(`${origin}/api/auth/register`, {
      data: { username, displayName: "Reset Me", email: `${username}@example.com`, password: "oldpass1" },
      headers: { Origin: origin },
    });
    expect(register.status()).toBe(201);
    expect((await page.request.get(`${origin}/api/auth/user`)).status()).toBe(200);

    const visitor = await newPage();
    const ask = async (identifier: string) => {
      await visitor.goto(`${origin}/forgot-password`);
      if (js) await visitor.waitForFunction(() => Object.keys(document.querySelector("main")!).some((k) => k.startsWith("__reactFiber")));
      await visitor.getByLabel("Username or email").fill(identifier);
      await visitor.getByRole("button", { name: "Send reset link" }).click();
      await expect(visitor.getByTestId("reset-sent")).toContainText("If an account matches");
    };
    await ask("no_such_member_here");
    await ask(`${username}@example.com`);
    // On PostgreSQL this server shares the suite's database, and a node with mail configured also
    // sends the notification mails queued there for other members (CONTRACT.md §7): only reset
    // mails count here, and the one reset mail is this member's.
    const isReset = (m: { raw: string }) => /^Subject: Reset your /m.test(m.raw);
    let mail = await sink.next();
    while (!isReset(mail)) mail = await sink.next();
    expect(mail.to).toEqual([`${username}@example.com`]);
    expect(sink.received.filter(isReset)).toHaveLength(0);

    await chooseNewPassword(visitor, resetLinkIn(mail), "brandnew1");
    expect((await visitor.request.get(`${origin}/api/auth/user`)).status()).toBe(200);
    expect((await page.request.get(`${origin}/api/auth/user`)).status()).toBe(401);
  });
});

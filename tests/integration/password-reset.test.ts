import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { passwordResets } from "#db/schema";
import { setResetMailDelay } from "~/models/members/password-reset.server";
import * as passwordApi from "~/routes/api.auth.password";
import * as profileApi from "~/routes/api.auth.profile";
import { loader as userApi } from "~/routes/api.auth.user";
import * as authPage from "~/routes/auth/route";
import * as forgotPage from "~/routes/forgot-password/route";
import * as resetPage from "~/routes/reset-password.$token/route";
import { db } from "~/utils/db.server";
import { setMailSettings } from "~/utils/mail.server";
import { decodedBody, resetLinkIn, startMailSink } from "../fixtures/mail-sink";
import { call, cookiesFrom, createMember, makeRequest } from "../fixtures/members";

/**
 * "Forgot password?" end to end through the route modules (ADR 0028): a request mails a link through
 * a real SMTP conversation with a local sink, the link's page changes nothing on GET, and its form
 * sets the password, ends the member's sessions and signs this device in. The operator command
 * prints a link that works the same.
 */

const ORIGIN = "http://localhost:3000";
const run = promisify(execFile);
const root = path.resolve(__dirname, "../..");
const signedIn = async (cookie: string) => (await call(userApi, makeRequest("/api/auth/user", { cookie }))).status === 200;
const resetRowsOf = async (userId: number) => (await db.select().from(passwordResets).where(eq(passwordResets.userId, userId))).length;
const pathOf = (link: string) => new URL(link).pathname;
const tokenOf = (link: string) => pathOf(link).split("/").pop()!;
const ask = (identifier: string) => call(forgotPage.action, makeRequest("/forgot-password", { form: { identifier } }));
const openLink = (link: string) => call(resetPage.loader, makeRequest(pathOf(link)), { token: tokenOf(link) });
const setPassword = (link: string, newPassword: string, confirmPassword = newPassword) =>
  call(resetPage.action, makeRequest(pathOf(link), { form: { newPassword, confirmPassword } }), { token: tokenOf(link) });
const signIn = (username: string, password: string) =>
  call(authPage.action, makeRequest("/auth", { form: { intent: "login", username, password, redirectTo: "/" } }));

describe("forgot password, by mail", () => {
  let sink: Awaited<ReturnType<typeof startMailSink>>;
  beforeAll(async () => {
    sink = await startMailSink();
    setMailSettings({ smtpUrl: sink.url, from: "Whitetail Pulse <pulse@example.org>", publicUrl: ORIGIN });
    // The mail's 1–3 s wait (timed in password-reset-timing.test.ts) would only slow these down.
    setResetMailDelay({ min: 0, max: 0 });
  });
  afterAll(async () => {
    setMailSettings(null);
    await sink.close();
  });

  it("offers the form where SMTP is configured", async () => {
    const res = await call(forgotPage.loader, makeRequest("/forgot-password"));
    expect(await res.json()).toEqual({ byMail: true, sent: false });
  });

  it("answers a known and an unknown account alike", async () => {
    const member = await createMember();
    const known = await ask(member.username);
    const unknown = await ask("no_such_member");
    for (const res of [known, unknown]) {
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/forgot-password?sent=1");
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expect((await sink.next()).to).toEqual([member.email]);
  });

  it("mails a link that sets a new password, ends every session and signs this device in", async () => {
    const member = await createMember({ password: "oldpass1" });
    await ask(member.email);
    const mail = await sink.next();
    expect(mail.to).toEqual([member.email]);
    const link = resetLinkIn(mail);
    expect(link.startsWith(`${ORIGIN}/reset-password/`)).toBe(true);

    // GET shows the form and changes nothing: the link still works afterwards.
    for (let i = 0; i < 2; i++) {
      const page = await openLink(link);
      expect(page.status).toBe(200);
      expect(page.headers.get("Cache-Control")).toMatch(/no-store/);
      expect(await page.json()).toEqual({ username: member.username });
    }
    expect(await signedIn(member.cookie)).toBe(true);

    // Registration's password rules, and a confirmation that must match.
    const short = await setPassword(link, "abc");
    expect(short.status).toBe(400);
    expect(JSON.stringify(await short.json())).toContain("Password must be at least 6 characters");
    const mismatch = await setPassword(link, "brandnew1", "brandnew2");
    expect(JSON.stringify(await mismatch.json())).toContain("Passwords don't match");

    const done = await setPassword(link, "brandnew1");
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/");
    const cookie = cookiesFrom(done);
    expect(cookie).toMatch(/__session=/);
    expect(cookie).toMatch(/__toast=/);
    expect(await signedIn(cookie.split("; ").find((c) => c.startsWith("__session="))!)).toBe(true);
    expect(await signedIn(member.cookie)).toBe(false);

    expect((await signIn(member.username, "oldpass1")).status).toBe(401);
    expect((await signIn(member.username, "brandnew1")).status).toBe(302);

    // Used once: the page now says the link no longer works, and its form changes nothing.
    const again = await openLink(link);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ username: null });
    const reuse = await setPassword(link, "stolen123");
    expect(reuse.status).toBe(404);
    expect((await signIn(member.username, "brandnew1")).status).toBe(302);
  });

  it("makes the link before the 302 and mails it after (security-3 N14)", async () => {
    const member = await createMember();
    setResetMailDelay({ min: 300, max: 300 });
    try {
      const res = await ask(member.username);
      expect(res.status).toBe(302);
      expect(await resetRowsOf(member.id)).toBe(1);
      expect(sink.received).toHaveLength(0);
      expect((await sink.next()).to).toEqual([member.email]);
    } finally {
      setResetMailDelay({ min: 0, max: 0 });
    }
  });

  it("a mailed link stops working when the password changes (security-2 N15)", async () => {
    const member = await createMember({ password: "oldpass1" });
    await ask(member.username);
    const link = resetLinkIn(await sink.next());
    const changed = await call(
      passwordApi.action,
      makeRequest("/api/auth/password", {
        method: "PUT",
        json: { currentPassword: "oldpass1", newPassword: "brandnew1", confirmPassword: "brandnew1" },
        cookie: member.cookie,
      }),
    );
    expect(changed.status).toBe(204);
    expect((await openLink(link)).status).toBe(404);
    expect((await setPassword(link, "stolen123")).status).toBe(404);
    expect((await signIn(member.username, "brandnew1")).status).toBe(302);
  });

  it("a mailed link stops working when the email changes, and the old address is told (security-2 N15, N4)", async () => {
    const member = await createMember({ password: "oldpass1" });
    await ask(member.email);
    const link = resetLinkIn(await sink.next());
    const changed = await call(
      profileApi.action,
      makeRequest("/api/auth/profile", {
        method: "PUT",
        json: { displayName: member.displayName, email: `moved-${member.email}`, currentPassword: "oldpass1" },
        cookie: member.cookie,
      }),
    );
    expect(changed.status).toBe(200);
    const notice = await sink.next();
    expect(notice.to).toEqual([member.email]);
    expect(decodedBody(notice.raw)).toContain(`moved-${member.email}`);
    expect((await openLink(link)).status).toBe(404);
    expect((await setPassword(link, "stolen123")).status).toBe(404);
    expect((await signIn(member.username, "oldpass1")).status).toBe(302);
  });

  it("refuses a form post from another site", async () => {
    const res = await call(
      forgotPage.action,
      makeRequest("/forgot-password", { form: { identifier: "x" }, headers: { Origin: "https://evil.example" } }),
    );
    expect(res.status).toBe(403);
  });

  it("asks for a username or email", async () => {
    const res = await ask("  ");
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("Enter your username or email");
  });
});

describe("forgot password, without SMTP", () => {
  it("tells the member to ask the site's operator", async () => {
    const res = await call(forgotPage.loader, makeRequest("/forgot-password"));
    expect(await res.json()).toEqual({ byMail: false, sent: false });
  });

  it("npm run reset-password prints a one-time link that works", async () => {
    const member = await createMember({ password: "oldpass1" });
    const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/reset-password.ts", member.username, "--origin", ORIGIN], {
      cwd: root,
      env: process.env,
    });
    const link = /http:\/\/\S+/.exec(stdout)![0];
    expect(link).toMatch(new RegExp(`^${ORIGIN}/reset-password/[A-Za-z0-9_-]{43}$`));
    expect(await (await openLink(link)).json()).toEqual({ username: member.username });
    expect((await setPassword(link, "brandnew1")).status).toBe(302);
    expect(await signedIn(member.cookie)).toBe(false);
  });

  it("the command says so for no such account, and without an origin", async () => {
    const noAccount = await run(process.execPath, ["--import", "tsx", "scripts/reset-password.ts", "no_such_member", "--origin", ORIGIN], {
      cwd: root,
      env: process.env,
    }).catch((error: { code: number; stderr: string }) => error);
    expect(noAccount).toMatchObject({ code: 1, stderr: expect.stringContaining("No account has that username or email") });
    const noOrigin = await run(process.execPath, ["--import", "tsx", "scripts/reset-password.ts", "anyone"], {
      cwd: root,
      env: { ...process.env, PUBLIC_URL: "" },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(noOrigin).toMatchObject({ code: 2, stderr: expect.stringContaining("set PUBLIC_URL or pass --origin") });
  });
});

import { limitsOff, limitsOn } from "#tests/fixtures/limits-clock";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { passwordResets, rateLimits, sessions } from "#db/schema";
import { startMailSink } from "#tests/fixtures/mail-sink";
import { errorOf } from "#tests/fixtures/errors";
import { createMember } from "#tests/fixtures/members";
import { db } from "~/utils/db.server";
import { setMailSettings } from "~/utils/mail.server";
import { verifyPassword } from "~/utils/password.server";
import { setRateLimitsEnabled } from "~/utils/rate-limit.server";
import { createSession } from "./session.server";
import {
  RESET_LIFETIME_MS,
  findAccount,
  issueResetToken,
  operatorResetLink,
  requestPasswordReset,
  resetLinkOwner,
  setResetMailDelay,
  resetPassword,
} from "./password-reset.server";

const ORIGIN = "https://pulse.example.org";
const tokenOf = (link: string) => link.split("/").pop()!;
const resetsOf = async (userId: number) => await db.select().from(passwordResets).where(eq(passwordResets.userId, userId));
const accountLimitHits = async (userId: number) =>
  (
    await db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `passwordResetsPerAccount:${userId}`))
  ).reduce((n, row) => n + row.count, 0);
const sessionsOf = async (userId: number) => await db.select().from(sessions).where(eq(sessions.userId, userId));

describe("password reset links", () => {
  it("finds the account by username in any case or by email", async () => {
    const member = await createMember({ username: "Doe_Finder" });
    expect((await findAccount("doe_finder"))?.id).toBe(member.id);
    expect((await findAccount(` ${member.email.toUpperCase()} `))?.id).toBe(member.id);
    expect(await findAccount("nobody_here")).toBeUndefined();
    expect(await findAccount("")).toBeUndefined();
  });

  it("stores only the SHA-256 of a 256-bit token, and a new link replaces the unused older one", async () => {
    const member = await createMember();
    const first = await issueResetToken(member.id);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await resetsOf(member.id);
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.tokenHash).not.toContain(first);
    const second = await issueResetToken(member.id);
    expect(await resetsOf(member.id)).toHaveLength(1);
    expect(await resetLinkOwner(first)).toBeNull();
    expect(await resetLinkOwner(second)).toEqual({ username: member.username });
  });

  it("works for an hour", async () => {
    const member = await createMember();
    const now = Date.now();
    const token = await issueResetToken(member.id, now);
    expect(await resetLinkOwner(token, now + RESET_LIFETIME_MS - 1)).not.toBeNull();
    expect(await resetLinkOwner(token, now + RESET_LIFETIME_MS)).toBeNull();
    expect((await errorOf(() => resetPassword(token, "brandnew1", now + RESET_LIFETIME_MS))).status).toBe(404);
  });

  it("sets the password once, ends every session, and the link is used up", async () => {
    const member = await createMember({ password: "oldpass1" });
    await createSession(member.id, "Chrome on Android");
    const token = await issueResetToken(member.id);
    const updated = await resetPassword(token, "brandnew1");
    expect(await verifyPassword("brandnew1", updated.passwordHash)).toBe(true);
    expect(await sessionsOf(member.id)).toHaveLength(0);
    expect(await resetsOf(member.id)).toHaveLength(0);
    expect((await errorOf(() => resetPassword(token, "another1"))).status).toBe(404);
    expect(await resetLinkOwner(token)).toBeNull();
  });

  it("refuses unknown and malformed tokens without changing anything", async () => {
    expect(await resetLinkOwner("x".repeat(43))).toBeNull();
    expect(await resetLinkOwner("../../etc")).toBeNull();
    expect((await errorOf(() => resetPassword("nope", "brandnew1"))).status).toBe(404);
  });

  it("gives the operator a link on the given origin, or 404 for no such account", async () => {
    const member = await createMember();
    const { link, username } = await operatorResetLink(member.email, `${ORIGIN}/ignored/path`);
    expect(username).toBe(member.username);
    expect(link).toMatch(new RegExp(`^${ORIGIN}/reset-password/[A-Za-z0-9_-]{43}$`));
    expect(await resetLinkOwner(tokenOf(link))).toEqual({ username: member.username });
    expect((await errorOf(() => operatorResetLink("no_such_member", ORIGIN))).status).toBe(404);
  });
});

describe("requestPasswordReset", () => {
  let sink: Awaited<ReturnType<typeof startMailSink>>;
  beforeAll(async () => {
    sink = await startMailSink();
    setMailSettings({ smtpUrl: sink.url, from: "Pulse <pulse@example.org>", publicUrl: ORIGIN });
    setResetMailDelay({ min: 0, max: 0 });
  });
  afterAll(async () => {
    setMailSettings(null);
    await sink.close();
  });
  afterEach(limitsOff);

  it("sends nothing and issues nothing where mail is not configured", async () => {
    const member = await createMember();
    setMailSettings(null);
    expect((await requestPasswordReset(member.username, { ip: "192.0.2.1" })).delivery).toBeNull();
    setMailSettings({ smtpUrl: sink.url, from: "Pulse <pulse@example.org>", publicUrl: ORIGIN });
    expect(await resetsOf(member.id)).toHaveLength(0);
  });

  it("mails the member a link on PUBLIC_URL, in plain text and HTML", async () => {
    const member = await createMember();
    const { delivery } = await requestPasswordReset(member.email, { ip: "192.0.2.2" });
    await delivery;
    const mail = await sink.next();
    expect(mail.to).toEqual([member.email]);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    expect(mail.raw).toContain(`${ORIGIN}/reset-password/`);
    expect(await resetsOf(member.id)).toHaveLength(1);
  });

  it("answers the same for an unknown account, and sends nothing", async () => {
    const { delivery } = await requestPasswordReset("no_such_member", { ip: "192.0.2.3" });
    expect(delivery).toBeInstanceOf(Promise);
    await delivery;
    expect(sink.received).toHaveLength(0);
  });

  it("does the same writes for a known and an unknown account before it answers, and mails after (security-3 N14)", async () => {
    setRateLimitsEnabled(true);
    const member = await createMember();
    const limitRows = async () => (await db.select().from(rateLimits)).filter((row) => row.key.startsWith("passwordResetsPerAccount:"));
    const before = (await limitRows()).length;
    // The mail waits for a timer. Hold it while the test looks: when the call returns, the account's
    // limit and link are written and nothing is mailed yet.
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    try {
      const known = await requestPasswordReset(member.username, { ip: "192.0.2.4" });
      const unknown = await requestPasswordReset("no_such_member", { ip: "192.0.2.5" });
      expect(await resetsOf(member.id)).toHaveLength(1);
      expect(await accountLimitHits(member.id)).toBe(1);
      // The unknown identifier was counted too, under a key that does not store what was typed.
      const added = (await limitRows()).slice(before).map((row) => row.key);
      expect(added).toHaveLength(2);
      expect(added.join(" ")).not.toContain("no_such_member");
      expect(sink.received).toHaveLength(0);
      vi.runOnlyPendingTimers();
      vi.useRealTimers();
      await Promise.all([known.delivery, unknown.delivery]);
    } finally {
      vi.useRealTimers();
    }
    expect((await sink.next()).to).toEqual([member.email]);
    expect(sink.received).toHaveLength(0);
  });

  it("limits per trusted address (429) and per account (silently: nothing more is sent)", async () => {
    limitsOn();
    const member = await createMember();
    for (let i = 0; i < 3; i++) await (await requestPasswordReset(member.username, { ip: `192.0.2.${10 + i}` })).delivery;
    for (let i = 0; i < 3; i++) await sink.next();
    await (
      await requestPasswordReset(member.username, { ip: "192.0.2.20" })
    ).delivery;
    for (let i = 0; i < 10; i++) await requestPasswordReset("no_such_member", { ip: "198.51.100.7" });
    const refused = await errorOf(() => requestPasswordReset("no_such_member", { ip: "198.51.100.7" }));
    expect(refused.status).toBe(429);
    expect(refused.message).toMatch(/Too many reset requests from your address/);
    // An address the server cannot tell apart (an unknown proxy) is not one shared bucket.
    for (let i = 0; i < 12; i++) await requestPasswordReset("no_such_member", { ip: "unknown", trusted: false });
    expect(sink.received).toHaveLength(0);
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signIn, signUp } from "~/models/members/auth.server";
import { AppError } from "~/utils/errors";
import { checkLimit, consumeLimit, LIMITS, recordHit, setRateLimitsEnabled } from "~/utils/rate-limit.server";
import { createMember } from "#tests/fixtures/members";
import { limitsOff, limitsOn } from "#tests/fixtures/limits-clock";

beforeEach(limitsOn);
afterEach(limitsOff);

const status = async (p: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof p === "function" ? p() : p);
    return 200;
  } catch (e) {
    return (e as AppError).status;
  }
};

describe("rate limits in SQLite", () => {
  it("counts per key and window, and answers 429 with Retry-After once the allowance is used", async () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    for (let i = 0; i < LIMITS.postsPerUser.limit; i++) await consumeLimit("postsPerUser", "u1", now);
    try {
      await consumeLimit("postsPerUser", "u1", now + 1000);
      expect.unreachable();
    } catch (e) {
      expect((e as AppError).status).toBe(429);
      expect((e as AppError).retryAfter).toBeGreaterThan(0);
    }
    // Another member, and the next window, are not affected.
    await expect(consumeLimit("postsPerUser", "u2", now)).resolves.toBeUndefined();
    await expect(consumeLimit("postsPerUser", "u1", now + LIMITS.postsPerUser.windowMs)).resolves.toBeUndefined();
  });

  it("locks a username after 10 failed sign-ins, even with the right password", async () => {
    const member = await createMember();
    for (let i = 0; i < 10; i++) {
      expect(await status(signIn({ username: member.username, password: "wrong-pass" }, { ip: `10.0.0.${i}` }))).toBe(401);
    }
    expect(await status(signIn({ username: member.username, password: member.password }, { ip: "10.0.1.1" }))).toBe(429);
  });

  it("limits failures per address across usernames, and successes do not count", async () => {
    const member = await createMember();
    for (let i = 0; i < 12; i++) await signIn({ username: member.username, password: member.password }, { ip: "203.0.113.9" });
    for (let i = 0; i < 10; i++) {
      expect(await status(signIn({ username: `nobody${i}`, password: "wrong-pass" }, { ip: "203.0.113.9" }))).toBe(401);
    }
    expect(await status(signIn({ username: member.username, password: member.password }, { ip: "203.0.113.9" }))).toBe(429);
  });

  it("allows 20 registrations per hour per address", async () => {
    const ip = "198.51.100.7";
    for (let i = 0; i < 20; i++) await recordHit("registrationsPerIp", ip);
    const input = { username: "late_comer", displayName: "Late Comer", email: "late@example.com", password: "secret123" };
    expect(await status(signUp(input, { ip }))).toBe(429);
    expect(await status(signUp(input, { ip: "198.51.100.8" }))).toBe(200);
  });

  it("does nothing when switched off (RATE_LIMITS=off)", async () => {
    setRateLimitsEnabled(false);
    for (let i = 0; i < 50; i++) await consumeLimit("commentsPerUser", "quiet");
    setRateLimitsEnabled(true);
    await expect(checkLimit("commentsPerUser", "quiet")).resolves.toBeUndefined();
  });
});

import { and, eq, lt, sql } from "drizzle-orm";
import { rateLimits } from "#db/schema";
import { db, decrementCounter, first, writeTransaction } from "./db.server";
import { env } from "./env.server";
import { tooMany } from "./errors";

/**
 * Fixed-window counters in SQLite (docs/decisions/0004-rate-limits-in-sqlite.md), so every process
 * that shares the database shares the limits. Defaults follow CONTRACT.md §5.
 */
const DAY = 24 * 3_600_000;
export const LIMITS = {
  loginFailuresPerUsername: {
    limit: 10,
    windowMs: 15 * 60_000,
    message: (wait: string) => `Too many failed sign-ins for this username. Try again ${wait}.`,
  },
  loginFailuresPerIp: {
    limit: 10,
    windowMs: 15 * 60_000,
    message: (wait: string) => `Too many failed sign-ins from your address. Try again ${wait}.`,
  },
  registrationsPerIp: { limit: 20, windowMs: 60 * 60_000 },
  postsPerUser: { limit: 30, windowMs: 60 * 60_000 },
  commentsPerUser: { limit: 120, windowMs: 60 * 60_000 },
  uploadsPerUser: { limit: 100, windowMs: 60 * 60_000 },
  /** Shares from a phone by a visitor, by address, before any file is kept (docs/decisions/0092). */
  sharesPerIp: {
    limit: 20,
    windowMs: 60 * 60_000,
    message: (wait: string) => `Too many shares from your address. Sign in, or try again ${wait}.`,
  },
  /** Link previews (POST /api/fetch-url-metadata): a member by id, a visitor by address (/64 for IPv6). */
  clubsPerUser: {
    limit: 10,
    windowMs: DAY,
    message: (wait: string) => `You have created as many clubs as one day allows. Try again ${wait}.`,
  },
  invitesPerUser: {
    limit: 50,
    windowMs: DAY,
    message: (wait: string) => `You have created as many invites as one day allows. Try again ${wait}.`,
  },
  /** Club hunts made by one member (issue 44). */
  eventsPerUser: {
    limit: 30,
    windowMs: DAY,
    message: (wait: string) => `You have planned as many hunts as one day allows. Try again ${wait}.`,
  },
  /** Per member and club: every request to join a private club counts, so it bounds re-applying after a rejection. */
  joinRequestsPerClub: {
    limit: 3,
    windowMs: DAY,
    message: (wait: string) => `You have asked to join this club too often today. Try again ${wait}.`,
  },
  /** Outbound link-preview fetches (cached previews are free). */
  linkPreviewsPerUser: { limit: 60, windowMs: 60 * 60_000 },
  /** The same for visitors, by address (their cards ask for previews too). */
  linkPreviewsPerIp: { limit: 60, windowMs: 60 * 60_000 },
  /** "Forgot password?" requests from one trusted address (docs/decisions/0028-password-reset.md). */
  passwordResetsPerIp: {
    limit: 10,
    windowMs: 60 * 60_000,
    message: (wait: string) => `Too many reset requests from your address. Try again ${wait}.`,
  },
  /** Reports filed by one member (CONTRACT.md §12): a throw-away account cannot flood the queue. */
  reportsPerUser: {
    limit: 10,
    windowMs: 60 * 60_000,
    message: (wait: string) => `You have sent as many reports as an hour allows. Try again ${wait}.`,
  },
  /** Reset mails to one account: requests past it send nothing, and the answer does not say so. */
  passwordResetsPerAccount: { limit: 3, windowMs: 60 * 60_000 },
} as const satisfies Record<string, Limit>;
export type LimitName = keyof typeof LIMITS;
type Limit = { limit: number; windowMs: number; message?: (wait: string) => string };

let enabled = env.RATE_LIMITS;
/** For tests that exercise the limiter while the rest of the suite runs with RATE_LIMITS=off. */
export function setRateLimitsEnabled(value: boolean) {
  enabled = value;
}
/** Whether limits apply now (RATE_LIMITS, or a test's switch): the first-day caps follow it too. */
export const rateLimitsEnabled = (): boolean => enabled;

function windowOf(name: LimitName, now: number) {
  const { windowMs } = LIMITS[name];
  const windowStart = Math.floor(now / windowMs) * windowMs;
  return { windowStart, retryAfter: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)) };
}

/** Throws 429 if `key` has already used its allowance in the current window. Counts nothing. */
export async function checkLimit(name: LimitName, key: string, now = Date.now()): Promise<void> {
  if (!enabled) return;
  const { windowStart, retryAfter } = windowOf(name, now);
  const row = first(
    await db
      .select({ count: rateLimits.count })
      .from(rateLimits)
      .where(and(eq(rateLimits.key, `${name}:${key}`), eq(rateLimits.windowStart, windowStart))),
  );
  if (row && row.count >= LIMITS[name].limit) throw tooMany(retryAfter, limitMessage(name, retryAfter));
}

/** The refusal's text: when to try again, counted from now, so it is right in any time zone. */
function limitMessage(name: LimitName, retryAfter: number): string | undefined {
  const limit: Limit = LIMITS[name];
  return limit.message?.(tryAgainIn(retryAfter));
}

/**
 * "in 40 seconds", "in 1 minute", "in 12 minutes", "in 5 hours", "in 23 hours 10 minutes": never
 * sooner than the truth, and past two hours not rounded up to the next hour (ux-3 U15: 23 h 10 min
 * read "in 24 hours").
 */
export function tryAgainIn(seconds: number): string {
  const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (seconds < 60) return `in ${count(Math.max(1, Math.ceil(seconds)), "second")}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `in ${count(minutes, "minute")}`;
  const rest = minutes % 60;
  return `in ${count(Math.floor(minutes / 60), "hour")}${rest ? ` ${count(rest, "minute")}` : ""}`;
}

/** Counts one use for `key`. */
const sqlIncrement = sql`${rateLimits.count} + 1`;

export async function recordHit(name: LimitName, key: string, now = Date.now()): Promise<void> {
  if (!enabled) return;
  const { windowStart } = windowOf(name, now);
  await db
    .insert(rateLimits)
    .values({ key: `${name}:${key}`, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { count: sqlIncrement },
    });
  // Old windows are useless: drop them now and then.
  if (Math.random() < 0.01) await db.delete(rateLimits).where(lt(rateLimits.windowStart, now - 24 * 3_600_000));
}

/**
 * Check, then count: for actions limited by attempts (registrations, posts, comments, uploads). The
 * read and the write are one IMMEDIATE transaction (a savepoint inside a caller's): another process
 * cannot slip a hit in between.
 */
export async function consumeLimit(name: LimitName, key: string, now = Date.now()): Promise<void> {
  if (!enabled) return;
  await writeTransaction(async () => {
    await checkLimit(name, key, now);
    await recordHit(name, key, now);
  });
}

/**
 * Takes back one use counted at `at` (an upload whose post was refused after all), never below
 * zero. A use from a window that has passed is left alone: that window no longer limits anyone.
 */
export async function refundHit(name: LimitName, key: string, at: number, now = Date.now()): Promise<void> {
  if (!enabled) return;
  const { windowStart } = windowOf(name, at);
  if (windowStart !== windowOf(name, now).windowStart) return;
  await db
    .update(rateLimits)
    .set({ count: decrementCounter(rateLimits.count) })
    .where(and(eq(rateLimits.key, `${name}:${key}`), eq(rateLimits.windowStart, windowStart)));
}

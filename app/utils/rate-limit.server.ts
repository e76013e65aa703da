import { and, eq, lt, sql } from "drizzle-orm";
import { rateLimits } from "#db/schema";
import { db, writeTransaction } from "./db.server";
import { env } from "./env.server";
import { tooMany } from "./errors";

/**
 * Fixed-window counters in SQLite (docs/decisions/0004-rate-limits-in-sqlite.md), so every process
 * that shares the database shares the limits. Defaults follow CONTRACT.md §5.
 */
export const LIMITS = {
  loginFailuresPerUsername: { limit: 10, windowMs: 15 * 60_000 },
  loginFailuresPerIp: { limit: 10, windowMs: 15 * 60_000 },
  registrationsPerIp: { limit: 20, windowMs: 60 * 60_000 },
  postsPerUser: { limit: 30, windowMs: 60 * 60_000 },
  commentsPerUser: { limit: 120, windowMs: 60 * 60_000 },
  uploadsPerUser: { limit: 100, windowMs: 60 * 60_000 },
  linkPreviewsPerUser: { limit: 60, windowMs: 60 * 60_000 },
} as const;
export type LimitName = keyof typeof LIMITS;

let enabled = env.RATE_LIMITS;
/** For tests that exercise the limiter while the rest of the suite runs with RATE_LIMITS=off. */
export function setRateLimitsEnabled(value: boolean) {
  enabled = value;
}

function windowOf(name: LimitName, now: number) {
  const { windowMs } = LIMITS[name];
  const windowStart = Math.floor(now / windowMs) * windowMs;
  return { windowStart, retryAfter: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)) };
}

/** Throws 429 if `key` has already used its allowance in the current window. Counts nothing. */
export function checkLimit(name: LimitName, key: string, now = Date.now()): void {
  if (!enabled) return;
  const { windowStart, retryAfter } = windowOf(name, now);
  const row = db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, `${name}:${key}`), eq(rateLimits.windowStart, windowStart)))
    .get();
  if (row && row.count >= LIMITS[name].limit) throw tooMany(retryAfter);
}

/** Counts one use for `key`. */
const sqlIncrement = sql`${rateLimits.count} + 1`;

export function recordHit(name: LimitName, key: string, now = Date.now()): void {
  if (!enabled) return;
  const { windowStart } = windowOf(name, now);
  db.insert(rateLimits)
    .values({ key: `${name}:${key}`, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { count: sqlIncrement },
    })
    .run();
  // Old windows are useless: drop them now and then.
  if (Math.random() < 0.01)
    db.delete(rateLimits)
      .where(lt(rateLimits.windowStart, now - 24 * 3_600_000))
      .run();
}

/**
 * Check, then count: for actions limited by attempts (registrations, posts, comments, uploads). The
 * read and the write are one IMMEDIATE transaction (a savepoint inside a caller's): another process
 * cannot slip a hit in between.
 */
export function consumeLimit(name: LimitName, key: string, now = Date.now()): void {
  if (!enabled) return;
  writeTransaction(() => {
    checkLimit(name, key, now);
    recordHit(name, key, now);
  });
}

/**
 * The client's address, as the operator's reverse proxy reports it. remix-serve does not expose the
 * socket address to the app, so without a proxy every client shares one bucket ("direct"); the
 * per-username limits still bound password guessing (docs/decisions/0004-rate-limits-in-sqlite.md).
 */
export function clientIp(request: Request): string {
  const forwarded = request.headers.get("X-Forwarded-For");
  if (forwarded) return forwarded.split(",")[0]!.trim();
  return request.headers.get("X-Real-IP") ?? "direct";
}

import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, lte, ne, or, sql } from "drizzle-orm";
import { endedSessions, sessions, users } from "#db/schema";
import { db, preparedOnce } from "~/utils/db.server";
import type { Queryable } from "~/models/access.server";
import { isSuspendedAt } from "~/schemas/moderation-staff";
import { suspensionNoticeFor } from "./user.server";
import { notFound } from "~/utils/errors";
import { requireSignedIn } from "~/models/access.server";
import type { Actor } from "./user.server";
import type { ActiveSession } from "~/schemas/shapes";

/**
 * Server-side sessions (docs/decisions/0017-server-side-sessions.md). One row per sign-in; the
 * member's cookie carries a random token and the table keeps only its SHA-256, so a copy of the
 * database (a backup, an export) holds no usable session. A session ends when its row is deleted
 * (logout, Settings › Security, a password change) or when it has not been used for 30 days.
 */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
/** Last-seen and expiry move on with use, but are written at most this often per session. */
export const SESSION_TOUCH_EVERY_MS = 5 * 60 * 1000;
/** Expired rows are swept by a sign-in at most this often per process. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export const SESSION_NOT_FOUND = "Session not found";

type UserRow = typeof users.$inferSelect;
type SessionRow = typeof sessions.$inferSelect;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

let lastPrune = 0;

/** A new session for the member: 256 random bits, returned once as the cookie's token. */
export async function createSession(userId: number, device: string, now: number = Date.now()): Promise<{ token: string; id: number }> {
  if (now - lastPrune >= PRUNE_EVERY_MS) {
    lastPrune = now;
    await pruneExpiredSessions(now);
  }
  const token = randomBytes(32).toString("base64url");
  const [row] = await db
    .insert(sessions)
    .values({
      tokenHash: hashToken(token),
      userId,
      device,
      createdAt: new Date(now),
      lastSeenAt: new Date(now),
      expiresAt: new Date(now + SESSION_LIFETIME_MS),
    })
    .returning({ id: sessions.id });
  return { token, id: row.id };
}

/**
 * A live session by its token's hash (`hash`) at a time (`now`, ms): read on every request, so
 * prepared once. A member suspended at `now` has no live session (suspending ends their sessions;
 * this holds even for one made after, CONTRACT.md §8).
 */
const liveByToken = and(
  eq(sessions.tokenHash, sql.placeholder("hash")),
  gt(sessions.expiresAt, sql.placeholder("now")),
  or(isNull(users.suspendedAt), lte(users.suspendedUntil, sql.placeholder("now"))),
);
const sessionByToken = preparedOnce(() =>
  db.select({ session: sessions, user: users }).from(sessions).innerJoin(users, eq(users.id, sessions.userId)).where(liveByToken).prepare(),
);
const liveSessionByToken = preparedOnce(() =>
  db
    .select({ id: sessions.id, userId: sessions.userId, dataSaver: users.dataSaver, blurGraphic: users.blurGraphic })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(liveByToken)
    .prepare(),
);

/**
 * The live session a cookie's token names, with its member; undefined when there is none (never
 * issued, ended, expired). Using a session slides its expiry, written at most every few minutes so
 * that reading a page is not a write.
 */
export async function findSession(token: string, now: number = Date.now()): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const [found] = await sessionByToken().execute({ hash: hashToken(token), now });
  if (found && now - found.session.lastSeenAt.getTime() >= SESSION_TOUCH_EVERY_MS) await touchSession(found.session.id, now);
  return found;
}

/**
 * The live session a token names, read only (no sliding write): who a page's validator is for
 * (server/conditional.server.ts), with the member's data saver and graphic photo settings, which change the page too.
 * Undefined when there is none.
 */
export async function liveSessionOf(
  token: string,
  now: number = Date.now(),
): Promise<{ id: number; userId: number; dataSaver: boolean; blurGraphic: boolean } | undefined> {
  const [live] = await liveSessionByToken().execute({ hash: hashToken(token), now });
  return live;
}

/** Move last-seen to now and the expiry to 30 days on (no-op when another request just did). */
export async function touchSession(id: number, now: number = Date.now()): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: new Date(now), expiresAt: new Date(now + SESSION_LIFETIME_MS) })
    .where(and(eq(sessions.id, id), lte(sessions.lastSeenAt, new Date(now - SESSION_TOUCH_EVERY_MS))));
}

/** Logout: the session the cookie names ends (nothing happens for an unknown token). */
export async function endSessionByToken(token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}

/** Settings › Security: end one of the member's own sessions; anyone else's is 404 and untouched. */
export async function endSession(actor: Actor, sessionId: number): Promise<void> {
  const me = requireSignedIn(actor);
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, me.id)))
    .returning({ id: sessions.id });
  if (ended.length === 0) throw notFound(SESSION_NOT_FOUND);
}

/**
 * End the member's sessions, all of them or all but `except` (the device asking: "Sign out of all
 * other devices"); the number ended.
 */
export async function endSessions(actor: Actor, { except }: { except: number | null }): Promise<number> {
  const me = requireSignedIn(actor);
  const others = except === null ? undefined : ne(sessions.id, except);
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, me.id), others))
    .returning({ id: sessions.id });
  return ended.length;
}

/** The member's live sessions, most recently used first, with the one asking marked. */
export async function listSessions(actor: Actor, currentSessionId: number | null, now: number = Date.now()): Promise<ActiveSession[]> {
  const me = requireSignedIn(actor);
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, me.id), gt(sessions.expiresAt, new Date(now))))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id));
  return rows.map((s) => ({
    id: s.id,
    device: s.device,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    current: s.id === currentSessionId,
  }));
}

/**
 * A suspension ends every session of the member (CONTRACT.md §8), inside the suspension's
 * transaction, and keeps each ended token's hash with the reason (ux-3 U7): the page the member
 * already had open is told why they were signed out, not only "Please sign in".
 */
export async function endSessionsForSuspension(tx: Queryable, userId: number, now: number): Promise<void> {
  const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ tokenHash: sessions.tokenHash });
  if (ended.length === 0) return;
  await tx
    .insert(endedSessions)
    .values(ended.map(({ tokenHash }) => ({ tokenHash, userId, reason: "suspended" as const, endedAt: new Date(now) })))
    .onConflictDoNothing();
}

/**
 * Why the session a token named has ended, for the request that comes with it: the suspension's
 * notice (its end in the reader's zone, the reason, where to ask) while the suspension is in force;
 * null for a session that ended otherwise, or whose suspension has since been lifted or run out.
 */
export async function endedSessionNotice(token: string, now: number = Date.now()): Promise<string | null> {
  const [row] = await db
    .select({ suspendedAt: users.suspendedAt, suspendedUntil: users.suspendedUntil, suspensionReason: users.suspensionReason })
    .from(endedSessions)
    .innerJoin(users, eq(users.id, endedSessions.userId))
    .where(and(eq(endedSessions.tokenHash, hashToken(token)), gt(endedSessions.endedAt, new Date(now - SESSION_LIFETIME_MS))));
  return row && isSuspendedAt(row, now) ? suspensionNoticeFor(row) : null;
}

/** Delete sessions past their expiry (they already read as signed out); the number deleted. */
export async function pruneExpiredSessions(now: number = Date.now()): Promise<number> {
  const pruned = await db
    .delete(sessions)
    .where(lte(sessions.expiresAt, new Date(now)))
    .returning({ id: sessions.id });
  // Why a session ended is worth telling only as long as its cookie could have lived.
  await db.delete(endedSessions).where(lte(endedSessions.endedAt, new Date(now - SESSION_LIFETIME_MS)));
  return pruned.length;
}

import { and, eq, gt, isNotNull, isNull, lte, or, type SQL } from "drizzle-orm";
import { releasedUsernames, users } from "#db/schema";
import type { LoginInput, RegisterInput } from "~/schemas/auth";
import { db, first, isUniqueViolation, writeTransaction } from "~/utils/db.server";
import { equalsIgnoringCase } from "~/utils/db/sql-dialect.server";
import type { Queryable } from "~/models/access.server";
import { conflict, forbidden, notFound, unauthorized } from "~/utils/errors";
import { isSuspendedAt, suspensionNotice } from "~/schemas/moderation-staff";
import { hashPassword, timingDummyHash, verifyPassword } from "~/utils/password.server";
import { PROFILE_NOT_FOUND } from "~/schemas/messages";
import type { PublicUser, SelfUser } from "~/schemas/shapes";
import { readerTimeZone } from "~/utils/reader-time.server";
import { env } from "~/utils/env.server";

type UserRow = typeof users.$inferSelect;
export type Actor = { id: number } | null;

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    username: row.username,
    displayName: row.displayName,
    avatar: row.avatar,
    bio: row.bio,
    location: row.location,
    createdAt: row.createdAt.toISOString(),
    postsCount: row.postsCount,
    followersCount: row.followersCount,
    followingCount: row.followingCount,
    role: row.role,
  };
}

export function toSelfUser(row: UserRow): SelfUser {
  return { ...toPublicUser(row), email: row.email };
}

/** SQL: the member in the row is not suspended at `now` (ms): never suspended, or the suspension has ended. */
export function notSuspendedAt(now: number): SQL {
  return or(isNull(users.suspendedAt), and(isNotNull(users.suspendedUntil), lte(users.suspendedUntil, new Date(now))))!;
}

export async function getUserRowById(id: number): Promise<UserRow | undefined> {
  return first(await db.select().from(users).where(eq(users.id, id)));
}

export async function getUserRowByUsername(username: string): Promise<UserRow | undefined> {
  return first(await db.select().from(users).where(equalsIgnoringCase(users.username, username)));
}

/** The row behind /profile/{username}; usernames match regardless of case. 404 'Profile Not Found'. */
export async function requireUserRow(username: string): Promise<UserRow> {
  const row = await getUserRowByUsername(username);
  if (!row) throw notFound(PROFILE_NOT_FOUND);
  return row;
}

async function usernameTaken(username: string) {
  return Boolean(await getUserRowByUsername(username));
}

/**
 * How long a deleted account's username stays out of reach of new accounts (security-2 N18): long
 * enough that nobody can pass as the member who left, or inherit links and cached pages to them.
 */
export const USERNAME_HOLD_MS = 30 * 24 * 60 * 60 * 1000;
export const USERNAME_RECENTLY_USED = "That username was recently used; choose another.";

const sameUsername = (username: string) => equalsIgnoringCase(releasedUsernames.username, username);

async function usernameHeld(username: string, now = Date.now()) {
  const held = await db
    .select({ username: releasedUsernames.username })
    .from(releasedUsernames)
    .where(and(sameUsername(username), gt(releasedUsernames.releasedAt, new Date(now - USERNAME_HOLD_MS))))
    .limit(1);
  return held.length > 0;
}

/**
 * Hold a deleted account's username from `now` (in the deletion's transaction); holds that have run
 * out are dropped on the way.
 */
export async function holdUsername(tx: Queryable, username: string, now = Date.now()): Promise<void> {
  await tx.delete(releasedUsernames).where(or(sameUsername(username), lte(releasedUsernames.releasedAt, new Date(now - USERNAME_HOLD_MS))));
  await tx.insert(releasedUsernames).values({ username, releasedAt: new Date(now) });
}

async function emailTaken(email: string) {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase()));
  return rows.length > 0;
}

/**
 * Create an account. `inTransaction` lets register-with-invite join the club in the same
 * transaction (the clubs issue): if it throws, no account is created.
 */
export async function registerUser(
  input: RegisterInput,
  inTransaction?: (user: UserRow, tx: Queryable) => Promise<void>,
): Promise<UserRow> {
  const email = input.email.toLowerCase();
  const fieldErrors: Record<string, string[]> = {};
  if (await usernameTaken(input.username)) fieldErrors.username = ["Username is already taken"];
  else if (await usernameHeld(input.username)) fieldErrors.username = [USERNAME_RECENTLY_USED];
  if (await emailTaken(email)) fieldErrors.email = ["Email is already registered"];
  if (Object.keys(fieldErrors).length) throw conflict("Username or email already in use", fieldErrors);

  const passwordHash = await hashPassword(input.password);
  try {
    return await writeTransaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({
          username: input.username,
          displayName: input.displayName,
          email,
          passwordHash,
          bio: input.bio ?? null,
          location: input.location ?? null,
        })
        .returning();
      await inTransaction?.(row, tx);
      return row;
    });
  } catch (error) {
    // Two registrations raced past the checks above: the unique indexes decide.
    if (isUniqueViolation(error)) {
      throw conflict("Username or email already in use");
    }
    throw error;
  }
}

export const INVALID_LOGIN = "Invalid username or password";

/**
 * The same answer, after the same work, for an unknown name and a wrong password. A suspended
 * member with the right password is told why and until when (403, CONTRACT.md §8); a suspension
 * that has ended lets them in.
 */
export async function verifyLogin(input: LoginInput, now: number = Date.now()): Promise<UserRow> {
  const row = await getUserRowByUsername(input.username);
  const ok = await verifyPassword(input.password, row?.passwordHash ?? (await timingDummyHash()));
  if (!row || !ok) throw unauthorized(INVALID_LOGIN);
  if (isSuspendedAt(row, now)) throw forbidden(suspensionNoticeFor(row));
  return row;
}

/** A suspension's notice as this request's reader is told it: their zone, and the operator's address. */
export const suspensionNoticeFor = (member: Parameters<typeof suspensionNotice>[0]): string =>
  suspensionNotice(member, { zone: readerTimeZone(), contact: env.CONTACT_EMAIL });

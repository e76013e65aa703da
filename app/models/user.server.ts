import { and, eq, gt, lte, or, sql } from "drizzle-orm";
import { releasedUsernames, users } from "#db/schema";
import type { LoginInput, RegisterInput } from "~/schemas/auth";
import { db, writeTransaction } from "~/utils/db.server";
import type { Queryable } from "./access.server";
import { conflict, notFound, unauthorized } from "~/utils/errors";
import { hashPassword, timingDummyHash, verifyPassword } from "~/utils/password.server";
import { PROFILE_NOT_FOUND } from "~/schemas/messages";
import type { PublicUser, SelfUser } from "~/schemas/shapes";

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
  };
}

export function toSelfUser(row: UserRow): SelfUser {
  return { ...toPublicUser(row), email: row.email };
}

export function getUserRowById(id: number): UserRow | undefined {
  return db.select().from(users).where(eq(users.id, id)).get();
}

export function getUserRowByUsername(username: string): UserRow | undefined {
  return db
    .select()
    .from(users)
    .where(sql`${users.username} = ${username} COLLATE NOCASE`)
    .get();
}

/** The row behind /profile/{username}; usernames match regardless of case. 404 'Profile Not Found'. */
export function requireUserRow(username: string): UserRow {
  const row = getUserRowByUsername(username);
  if (!row) throw notFound(PROFILE_NOT_FOUND);
  return row;
}

function usernameTaken(username: string) {
  return Boolean(getUserRowByUsername(username));
}

/**
 * How long a deleted account's username stays out of reach of new accounts (security-2 N18): long
 * enough that nobody can pass as the member who left, or inherit links and cached pages to them.
 */
export const USERNAME_HOLD_MS = 30 * 24 * 60 * 60 * 1000;
export const USERNAME_RECENTLY_USED = "That username was recently used; choose another.";

const sameUsername = (username: string) => sql`${releasedUsernames.username} = ${username} COLLATE NOCASE`;

function usernameHeld(username: string, now = Date.now()) {
  const held = db
    .select({ username: releasedUsernames.username })
    .from(releasedUsernames)
    .where(and(sameUsername(username), gt(releasedUsernames.releasedAt, new Date(now - USERNAME_HOLD_MS))))
    .get();
  return Boolean(held);
}

/**
 * Hold a deleted account's username from `now` (in the deletion's transaction); holds that have run
 * out are dropped on the way.
 */
export function holdUsername(tx: Queryable, username: string, now = Date.now()): void {
  tx.delete(releasedUsernames)
    .where(or(sameUsername(username), lte(releasedUsernames.releasedAt, new Date(now - USERNAME_HOLD_MS))))
    .run();
  tx.insert(releasedUsernames)
    .values({ username, releasedAt: new Date(now) })
    .run();
}

function emailTaken(email: string) {
  return Boolean(db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase())).get());
}

/**
 * Create an account. `inTransaction` lets register-with-invite join the club in the same
 * transaction (the clubs issue): if it throws, no account is created.
 */
export async function registerUser(input: RegisterInput, inTransaction?: (user: UserRow, tx: Queryable) => void): Promise<UserRow> {
  const email = input.email.toLowerCase();
  const fieldErrors: Record<string, string[]> = {};
  if (usernameTaken(input.username)) fieldErrors.username = ["Username is already taken"];
  else if (usernameHeld(input.username)) fieldErrors.username = [USERNAME_RECENTLY_USED];
  if (emailTaken(email)) fieldErrors.email = ["Email is already registered"];
  if (Object.keys(fieldErrors).length) throw conflict("Username or email already in use", fieldErrors);

  const passwordHash = await hashPassword(input.password);
  try {
    return writeTransaction((tx) => {
      const row = tx
        .insert(users)
        .values({
          username: input.username,
          displayName: input.displayName,
          email,
          passwordHash,
          bio: input.bio ?? null,
          location: input.location ?? null,
        })
        .returning()
        .get();
      inTransaction?.(row, tx);
      return row;
    });
  } catch (error) {
    // Two registrations raced past the checks above: the unique indexes decide.
    if (error instanceof Error && /UNIQUE constraint failed/.test(error.message)) {
      throw conflict("Username or email already in use");
    }
    throw error;
  }
}

export const INVALID_LOGIN = "Invalid username or password";

/** The same answer, after the same work, for an unknown name and a wrong password. */
export async function verifyLogin(input: LoginInput): Promise<UserRow> {
  const row = getUserRowByUsername(input.username);
  const ok = await verifyPassword(input.password, row?.passwordHash ?? (await timingDummyHash()));
  if (!row || !ok) throw unauthorized(INVALID_LOGIN);
  return row;
}

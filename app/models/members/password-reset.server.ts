import { createHash, createHmac, randomBytes, randomInt } from "node:crypto";
import { and, eq, gt, lte, or } from "drizzle-orm";
import { passwordResets, users } from "#db/schema";
import { APP_NAME } from "~/utils/brand";
import { db, first, queryRows, writeTransaction, type Tx } from "~/utils/db.server";
import { equalsIgnoringCase } from "~/utils/db/sql-dialect.server";
import { isAppError, notFound } from "~/utils/errors";
import { logger } from "~/utils/logger.server";
import { escapeHtml, mailSettings, sendMail, type Mail } from "~/utils/mail.server";
import { hashPassword } from "~/utils/password.server";
import { consumeLimit } from "~/utils/rate-limit.server";
import { RESET_LINK_INVALID } from "~/schemas/auth";
import type { ClientOrigin } from "./auth.server";
import { endSessions } from "./session.server";

/**
 * "Forgot password?" (docs/decisions/0028-password-reset.md). A member asks with their username or
 * email; where SMTP is configured they get a one-time link by mail, otherwise the site's operator
 * prints one (`npm run reset-password`). A link carries 256 random bits, of which only the SHA-256
 * is stored; it works for an hour, once, and a newer link replaces an unused older one. Using it
 * sets the password and ends every session of the member.
 */
export const RESET_LIFETIME_MS = 60 * 60 * 1000;
export const NO_SUCH_ACCOUNT = "No account has that username or email.";

type UserRow = typeof users.$inferSelect;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
/** The shape of a token in a link: anything else is unknown without asking the database. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Can links go out by mail here? Otherwise the page tells the member to ask the operator. */
export const resetByMail = (): boolean => mailSettings() !== null;

/** The account a username (any case) or email names, if any. */
export async function findAccount(identifier: string): Promise<UserRow | undefined> {
  const value = identifier.trim();
  if (!value) return undefined;
  return first(
    await db
      .select()
      .from(users)
      .where(value.includes("@") ? eq(users.email, value.toLowerCase()) : equalsIgnoringCase(users.username, value)),
  );
}

/** A new link's token for the member; the member's older link (and any expired ones) stop working. */
export async function issueResetToken(userId: number, now: number = Date.now()): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await writeTransaction((tx) => insertResetRow(tx, userId, token, now));
  return token;
}

export function resetLink(origin: string, token: string): string {
  return `${new URL(origin).origin}/reset-password/${token}`;
}

/**
 * A member's request from /forgot-password. The answer never says whether an account matched, and
 * before it goes both cases do the same work, statement for statement (security-2 N14,
 * security-3 N14): the per-address limit (429, which names nobody), the lookup, then one write
 * transaction holding the per-account limit and the link's insert. An unknown identifier is limited
 * under a key of its own (a keyed hash, so a stranger's typed address is not stored), and its insert
 * is the same INSERT … SELECT, which finds no member to insert for. A silent 429 of that limit rolls
 * back either way. Only the mail is left for after the answer, scheduled the same way for both
 * (afterMailDelay): `delivery` settles when it is sent, or when the timer fires with none to send (a
 * failure is logged, never thrown); null where mail is not configured (nothing is done at all).
 *
 * Deferring the per-account half (as security-2's fix did) did not close the gap, it moved it: the
 * lookup, limit and token write of a known account ran on the turns after its answer, so whichever
 * request came next waited for them, and unknown accounts answered 2.7 ms slower (security-3 N14).
 */
export async function requestPasswordReset(
  identifier: string,
  from: ClientOrigin,
  now: number = Date.now(),
): Promise<{ delivery: Promise<void> | null }> {
  const mail = mailSettings();
  if (!mail) return { delivery: null };
  if (from.trusted !== false) await consumeLimit("passwordResetsPerIp", from.ip, now);
  const row = await findAccount(identifier);
  const token = await issueResetTokenIfAllowed(row?.id ?? NO_MEMBER, row ? String(row.id) : unknownAccountKey(identifier), now);
  const delivery = afterMailDelay()
    .then(() => (row && token ? mailResetLink(row, resetLink(mail.publicUrl, token)) : undefined))
    .catch((error: unknown) => {
      logger.error({ err: error }, "password-reset request failed");
    });
  return { delivery };
}

/**
 * When the mail goes: a random 1–3 s after the request, for a known and an unknown account alike
 * (the timer fires for both; only a known one has something to send). Sent on the next turn, as
 * before, the mail's work (composing it, the SMTP conversation) landed on the answer of whichever
 * request came next; seconds later and at a random moment it lands on no request an asker can pick.
 * A restart in between loses the mail (the link's row stays; the page tells the member to ask
 * again): only the token's hash is stored, so no job could send it later.
 */
let mailDelayMs = { min: 1000, max: 3000 };
/** For tests that wait for the mail (the timing test keeps the real delay). */
export function setResetMailDelay(value: { min: number; max: number }) {
  mailDelayMs = value;
}
const afterMailDelay = () => new Promise<void>((resolve) => setTimeout(resolve, randomInt(mailDelayMs.min, mailDelayMs.max + 1)));

/** No member has this id (ids start at 1): the insert for an unknown account selects no row. */
const NO_MEMBER = 0;
/** Per process: the per-account limit's key for an identifier that names no account. */
const unknownKeySecret = randomBytes(32);
const unknownAccountKey = (identifier: string) =>
  `?${createHmac("sha256", unknownKeySecret).update(identifier.trim().toLowerCase()).digest("base64url").slice(0, 22)}`;

/**
 * The per-account limit (3 an hour) and a new link for `userId`, in one write transaction whose
 * statements are the same for a member and for NO_MEMBER: the member's older link and expired ones
 * are deleted, and the link is inserted by an INSERT … SELECT from users, which inserts nothing for
 * NO_MEMBER. The token, or null when the limit is spent (the answer does not say so).
 */
async function issueResetTokenIfAllowed(userId: number, limitKey: string, now: number): Promise<string | null> {
  const token = randomBytes(32).toString("base64url");
  try {
    await writeTransaction(async (tx) => {
      await consumeLimit("passwordResetsPerAccount", limitKey, now);
      await insertResetRow(tx, userId, token, now);
    });
  } catch (error) {
    if (isAppError(error) && error.status === 429) return null;
    throw error;
  }
  return token;
}

/** A new link's row for the member; their older link (and any expired ones) stop working. Nothing for NO_MEMBER. */
async function insertResetRow(tx: Tx, userId: number, token: string, now: number): Promise<void> {
  await tx.delete(passwordResets).where(or(eq(passwordResets.userId, userId), lte(passwordResets.expiresAt, new Date(now))));
  // Hand-written: the builder's INSERT … SELECT wants every column, id included. Times are integer
  // milliseconds on both engines (db/pg-tables.ts); the casts say so to PostgreSQL.
  await queryRows(
    `INSERT INTO password_resets (token_hash, user_id, created_at, expires_at)
     SELECT @tokenHash, id, cast(@createdAt AS bigint), cast(@expiresAt AS bigint) FROM users WHERE id = @userId
     RETURNING id`,
    { tokenHash: hashToken(token), userId, createdAt: now, expiresAt: now + RESET_LIFETIME_MS },
  );
}

/** The mail with the link; its failure is logged (the link stays valid, the member may ask again). */
async function mailResetLink(row: UserRow, link: string): Promise<void> {
  await sendMail(resetMail(row, link)).catch((error: unknown) => {
    logger.error({ err: error, member: row.id }, "password-reset mail failed");
  });
}

/** The operator command: a link for the account, printed for the operator to pass on. */
export async function operatorResetLink(identifier: string, origin: string, now: number = Date.now()) {
  const row = await findAccount(identifier);
  if (!row) throw notFound(NO_SUCH_ACCOUNT);
  const token = await issueResetToken(row.id, now);
  return { username: row.username, link: resetLink(origin, token), expiresAt: new Date(now + RESET_LIFETIME_MS) };
}

async function liveReset(token: string, now: number) {
  if (!TOKEN.test(token)) return undefined;
  return first(
    await db
      .select({ userId: passwordResets.userId, username: users.username })
      .from(passwordResets)
      .innerJoin(users, eq(users.id, passwordResets.userId))
      .where(and(eq(passwordResets.tokenHash, hashToken(token)), gt(passwordResets.expiresAt, new Date(now)))),
  );
}

/** Whose link this is, for the new-password form; null for an unknown, used or expired one. Changes nothing. */
export async function resetLinkOwner(token: string, now: number = Date.now()): Promise<{ username: string } | null> {
  const found = await liveReset(token, now);
  return found ? { username: found.username } : null;
}

/**
 * Use a link: the new password is stored, the link and every session of the member end, in one
 * transaction (a second use of the same link finds nothing). 404 RESET_LINK_INVALID when the link is
 * unknown, used or expired. The caller signs the device in with a fresh session.
 */
export async function resetPassword(token: string, newPassword: string, now: number = Date.now()): Promise<UserRow> {
  if (!(await liveReset(token, now))) throw notFound(RESET_LINK_INVALID);
  const passwordHash = await hashPassword(newPassword);
  return writeTransaction(async (tx) => {
    const reset = await liveReset(token, now);
    if (!reset) throw notFound(RESET_LINK_INVALID);
    await tx.delete(passwordResets).where(eq(passwordResets.userId, reset.userId));
    const [updated] = await tx.update(users).set({ passwordHash }).where(eq(users.id, reset.userId)).returning();
    if (!updated) throw notFound(RESET_LINK_INVALID);
    await endSessions({ id: updated.id }, { except: null });
    return updated;
  });
}

function resetMail(row: UserRow, link: string): Mail {
  const lines = [
    `Hi ${row.displayName},`,
    `Someone (hopefully you) asked to reset the password of your ${APP_NAME} account, ${row.username}.`,
    "Open this link within an hour to choose a new password. It works once:",
    link,
    "If you did not ask, ignore this mail: your password stays as it is.",
  ];
  const html = lines.map((line) =>
    line === link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` : `<p>${escapeHtml(line)}</p>`,
  );
  return { to: row.email, subject: `Reset your ${APP_NAME} password`, text: `${lines.join("\n\n")}\n`, html: html.join("\n") };
}

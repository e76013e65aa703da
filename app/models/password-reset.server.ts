import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lte, or } from "drizzle-orm";
import { passwordResets, users } from "#db/schema";
import { APP_NAME } from "~/utils/brand";
import { db, first, writeTransaction } from "~/utils/db.server";
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
  await writeTransaction(async (tx) => {
    await tx.delete(passwordResets).where(or(eq(passwordResets.userId, userId), lte(passwordResets.expiresAt, new Date(now))));
    await tx
      .insert(passwordResets)
      .values({ tokenHash: hashToken(token), userId, createdAt: new Date(now), expiresAt: new Date(now + RESET_LIFETIME_MS) });
  });
  return token;
}

export function resetLink(origin: string, token: string): string {
  return `${new URL(origin).origin}/reset-password/${token}`;
}

/**
 * A member's request from /forgot-password. The answer never says whether an account matched, and it
 * takes the same work either way (security-2 N14): here only the per-address limit (429, which names
 * nobody) is counted; everything that depends on the account (looking it up, its own silent limit,
 * the token write and the mail) runs after the answer has gone, on a later turn of the event loop.
 * `delivery` settles when that work is done (a failure is logged, never thrown); null where mail is
 * not configured (nothing is done at all).
 */
export async function requestPasswordReset(
  identifier: string,
  from: ClientOrigin,
  now: number = Date.now(),
): Promise<{ delivery: Promise<void> | null }> {
  const mail = mailSettings();
  if (!mail) return { delivery: null };
  if (from.trusted !== false) await consumeLimit("passwordResetsPerIp", from.ip, now);
  const delivery = afterThisTurn()
    .then(() => mailResetLink(identifier, mail.publicUrl, now))
    .catch((error: unknown) => {
      logger.error({ err: error }, "password-reset request failed");
    });
  return { delivery };
}

/** Resolves on a later turn of the event loop: after the current request's answer has been written. */
const afterThisTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The per-account half of a request: nothing for no such account, or one over its limit. */
async function mailResetLink(identifier: string, publicUrl: string, now: number): Promise<void> {
  const row = await findAccount(identifier);
  if (!row) return;
  try {
    await consumeLimit("passwordResetsPerAccount", String(row.id), now);
  } catch (error) {
    if (isAppError(error) && error.status === 429) return;
    throw error;
  }
  const link = resetLink(publicUrl, await issueResetToken(row.id, now));
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

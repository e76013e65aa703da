import { and, eq, isNull } from "drizzle-orm";
import { media, passwordResets, users } from "#db/schema";
import { EMAIL_CHANGE_NEEDS_PASSWORD, type PasswordChangeInput, type ProfilePatchInput } from "~/schemas/profile";
import { APP_NAME } from "~/utils/brand";
import { db, isUniqueViolation, queryRow, writeTransaction } from "~/utils/db.server";
import { indexedBy } from "~/utils/db/sql-dialect.server";
import { conflict, invalid, forbidden, unauthorized } from "~/utils/errors";
import { logger } from "~/utils/logger.server";
import { escapeHtml, mailSettings, sendMail, type Mail } from "~/utils/mail.server";
import { hashPassword, verifyPassword } from "~/utils/password.server";
import { checkLimit, recordHit } from "~/utils/rate-limit.server";
import { clubReadableSql, requireSignedIn, visiblePostSql } from "~/models/access.server";
import { isFollowing } from "./follow.server";
import { endSessions } from "./session.server";
import { getUserRowById, requireUserRow, toPublicUser, toSelfUser, type Actor } from "./user.server";
import type { Profile, SelfUser } from "~/schemas/shapes";

type UserRow = typeof users.$inferSelect;

export { requireUserRow };
export const EMAIL_TAKEN = "Email is already registered";
export const WRONG_CURRENT_PASSWORD = "Current password is incorrect";

export async function getProfile(actor: Actor, username: string): Promise<Profile> {
  const row = await requireUserRow(username);
  const self = actor?.id === row.id;
  return {
    ...(self ? toSelfUser(row) : toPublicUser(row)),
    postsCount: await visiblePostsCount(actor, row.id),
    isFollowing: actor && !self ? await isFollowing(actor.id, row.id) : false,
  };
}

/**
 * How many of the member's posts the viewer may read: the same rule as the profile's post list
 * (feed.server.ts), so a private club's posts are counted only for its members (security review L11),
 * and a hidden (removed) post only for its author (CONTRACT.md §8).
 * `users.posts_count` stays the member's total; this is read through the author index.
 */
export async function visiblePostsCount(actor: Actor, authorId: number): Promise<number> {
  const row = await queryRow<{ n: number }>(
    `SELECT count(*) AS n FROM ${indexedBy("posts p", "posts_author_recent")}
     WHERE p.author_id = @authorId AND (p.club_id IS NULL OR ${clubReadableSql("p.club_id", "@viewer")})
       AND ${visiblePostSql("p", "@viewer")}`,
    { authorId, viewer: actor?.id ?? 0 },
  );
  return row?.n ?? 0;
}

/** Only the member edits their own profile: 401 signed out, 404 no such member, 403 anyone else. */
export async function requireSelf(actor: Actor, username: string): Promise<UserRow> {
  const me = requireSignedIn(actor);
  const row = await requireUserRow(username);
  if (row.id !== me.id) throw forbidden("You can only edit your own profile");
  return row;
}

const blankToNull = (value: string | null | undefined) => (value === undefined ? undefined : value?.trim() || null);

export const AVATAR_NOT_YOURS = "Choose an image you uploaded";

/**
 * The avatar must be an image the member uploaded themselves and has not attached to a post (a post's
 * deletion removes its files), so a profile can never point at someone else's file, at a tracking
 * pixel elsewhere or at a `javascript:` URL (docs/decisions/0010-profiles-avatars-and-follows.md).
 */
async function assertOwnImage(ownerId: number, url: string) {
  const [file] = await db
    .select({ id: media.id })
    .from(media)
    .where(and(eq(media.url, url), eq(media.ownerId, ownerId), eq(media.kind, "image"), isNull(media.postId)));
  if (!file) throw invalid({ avatar: [AVATAR_NOT_YOURS] }, AVATAR_NOT_YOURS);
}

type ProfileChanges = Partial<Pick<UserRow, "displayName" | "email" | "bio" | "location" | "avatar">>;

/**
 * Update the member's own profile, all checks first and then one statement, so a refused field
 * changes nothing. Absent fields stay as they are; an empty or null bio or location is cleared; a
 * null avatar removes it. A new email needs the member's current password first (security-2 N4: a
 * borrowed session must not be enough to move the account's mail, and with it "Forgot password?",
 * elsewhere): missing is 400 EMAIL_CHANGE_NEEDS_PASSWORD, wrong is 400 WRONG_CURRENT_PASSWORD
 * (counted like a failed sign-in), both on fieldErrors.currentPassword; only then is an address
 * another member has 409 on email, so the path cannot be used to probe addresses. The same address
 * in another case is no change and needs no password. A changed email ends the member's pending
 * reset links (N15) in the same transaction, and the old address is told by mail.
 */
export async function updateProfile(actor: Actor, username: string, input: ProfilePatchInput): Promise<SelfUser> {
  const row = await requireSelf(actor, username);
  const changes: ProfileChanges = {};
  if (input.displayName !== undefined) changes.displayName = input.displayName.trim();
  const bio = blankToNull(input.bio);
  if (bio !== undefined) changes.bio = bio;
  const location = blankToNull(input.location);
  if (location !== undefined) changes.location = location;
  if (input.avatar !== undefined) {
    const avatar = input.avatar?.trim() || null;
    if (avatar !== null) await assertOwnImage(row.id, avatar);
    changes.avatar = avatar;
  }
  if (input.email !== undefined) {
    const email = input.email.trim().toLowerCase();
    if (email !== row.email) {
      if (!input.currentPassword) throw invalid({ currentPassword: [EMAIL_CHANGE_NEEDS_PASSWORD] }, EMAIL_CHANGE_NEEDS_PASSWORD);
      await requireOwnPassword(actor, input.currentPassword, "currentPassword", WRONG_CURRENT_PASSWORD);
      const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
      if (owner && owner.id !== row.id) throw conflict(EMAIL_TAKEN, { email: [EMAIL_TAKEN] });
      changes.email = email;
    }
  }
  if (Object.keys(changes).length === 0) return toSelfUser(row);
  const updated = await saveProfile(row, changes);
  if (changes.email !== undefined) tellOldAddress(row, updated.email);
  return toSelfUser(updated);
}

/** One statement (with the member's reset links when the email changes); a raced-for email is 409. */
async function saveProfile(row: UserRow, changes: ProfileChanges): Promise<UserRow> {
  try {
    return await writeTransaction(async (tx) => {
      const [updated] = await tx.update(users).set(changes).where(eq(users.id, row.id)).returning();
      if (!updated) throw unauthorized();
      // A link mailed to the old address must not outlive the change (security-2 N15).
      if (changes.email !== undefined) await tx.delete(passwordResets).where(eq(passwordResets.userId, row.id));
      return updated;
    });
  } catch (error) {
    // Two members raced for the same address: the unique index decides (email is the only unique field here).
    if (isUniqueViolation(error)) {
      throw conflict(EMAIL_TAKEN, { email: [EMAIL_TAKEN] });
    }
    throw error;
  }
}

/**
 * Tell the old address that the account's email changed, in the background (the answer does not wait,
 * and a failure is logged). Where mail is not configured nothing is sent, as for password reset.
 */
function tellOldAddress(before: UserRow, newEmail: string): void {
  const settings = mailSettings();
  if (!settings) return;
  const security = `${new URL(settings.publicUrl).origin}/settings?tab=security`;
  void sendMail(emailChangedMail(before, newEmail, security)).catch((error: unknown) => {
    logger.error({ err: error, member: before.id }, "email-change notice failed");
  });
}

function emailChangedMail(row: UserRow, newEmail: string, security: string): Mail {
  const lines = [
    `Hi ${row.displayName},`,
    `The email address of your ${APP_NAME} account, ${row.username}, was changed to ${newEmail}. Mail for the account, password reset links included, now goes there.`,
    "If you made this change, there is nothing to do.",
    "If you did not, someone knows your password: sign in, change your password and your email back, and sign out the other devices here:",
    security,
  ];
  const html = lines.map((line) =>
    line === security ? `<p><a href="${escapeHtml(security)}">${escapeHtml(security)}</a></p>` : `<p>${escapeHtml(line)}</p>`,
  );
  return { to: row.email, subject: `Your ${APP_NAME} email address was changed`, text: `${lines.join("\n\n")}\n`, html: html.join("\n") };
}

/** Set (or, with null, remove) the member's avatar: the same rules as `updateProfile`'s avatar. */
export async function updateAvatar(actor: Actor, username: string, avatarUrl: string | null): Promise<SelfUser> {
  const row = await requireSelf(actor, username);
  const avatar = avatarUrl?.trim() || null;
  if (avatar !== null) await assertOwnImage(row.id, avatar);
  return toSelfUser(await saveProfile(row, { avatar }));
}

/**
 * The signed-in member's row, once `password` proves it is them (changing the password, deleting the
 * account). A wrong password is a field error on `field` and counts towards the sign-in failure limit
 * of the member's username, so a borrowed session cannot be used to guess it; over the limit: 429.
 */
export async function requireOwnPassword(actor: Actor, password: string, field: string, message: string): Promise<UserRow> {
  const row = await getUserRowById(requireSignedIn(actor).id);
  if (!row) throw unauthorized();
  const limitKey = row.username.toLowerCase();
  await checkLimit("loginFailuresPerUsername", limitKey);
  if (!(await verifyPassword(password, row.passwordHash))) {
    await recordHit("loginFailuresPerUsername", limitKey);
    throw invalid({ [field]: [message] }, message);
  }
  return row;
}

/**
 * Change the member's password. A wrong current password is a field error (and counts towards the
 * sign-in failure limit, so a borrowed session cannot be used to guess it). Every session of the
 * member, and any pending reset link, ends in the same transaction as the new hash is stored
 * (docs/decisions/0017, security-2 N15): a leaked cookie or link dies with the old password. The caller signs the device that made the change in again with
 * a fresh session, so it stays signed in under a new token.
 */
export async function changePassword(actor: Actor, input: PasswordChangeInput): Promise<{ user: SelfUser; sessionsEnded: number }> {
  const row = await requireOwnPassword(actor, input.currentPassword, "currentPassword", WRONG_CURRENT_PASSWORD);
  if (input.newPassword !== input.confirmPassword) {
    throw invalid({ confirmPassword: ["Passwords don't match"] }, "Passwords don't match");
  }
  const passwordHash = await hashPassword(input.newPassword);
  return writeTransaction(async (tx) => {
    const [updated] = await tx.update(users).set({ passwordHash }).where(eq(users.id, row.id)).returning();
    if (!updated) throw unauthorized();
    // A reset link asked for before the change must not undo it (security-2 N15).
    await tx.delete(passwordResets).where(eq(passwordResets.userId, row.id));
    return { user: toSelfUser(updated), sessionsEnded: await endSessions(actor, { except: null }) };
  });
}

import { randomBytes } from "node:crypto";
import { eq, isNull } from "drizzle-orm";
import { notificationSettings, users } from "#db/schema";
import { isSuspendedAt } from "~/schemas/moderation-staff";
import { db, first } from "~/utils/db.server";
import { requireSignedIn } from "~/models/access.server";
import { listClubs } from "~/models/clubs/club.server";
import type { Actor } from "~/models/members/user.server";

/**
 * A member's personal feed token (issue 26, CONTRACT.md §7 "Feeds"): the `?token=` that opens the
 * Atom feed of a private club they belong to, for a feed reader that cannot sign in. One token per
 * member, kept in notification_settings.feed_token (no row there means the defaults, so the row is
 * upserted), made on first use and replaceable, which ends the old one at once.
 *
 * The token is a bearer secret: 32 random bytes, base64url. It only ever opens feeds of clubs the
 * member still belongs to (checked on every request, atom-feed.server.ts), never their account.
 */

const newToken = () => randomBytes(32).toString("base64url");

/** The shape of a token: anything else is not looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The member's feed token, or null while they have none (nothing is made). */
export async function storedFeedToken(userId: number): Promise<string | null> {
  const row = first(
    await db.select({ token: notificationSettings.feedToken }).from(notificationSettings).where(eq(notificationSettings.userId, userId)),
  );
  return row?.token ?? null;
}

/** The member's feed token, made (and kept) the first time it is asked for. */
export async function feedToken(userId: number): Promise<string> {
  const kept = await storedFeedToken(userId);
  if (kept) return kept;
  // Two first requests at once: the first to write wins and both answer with what is stored.
  const token = newToken();
  await db
    .insert(notificationSettings)
    .values({ userId, feedToken: token })
    .onConflictDoUpdate({
      target: notificationSettings.userId,
      set: { feedToken: token },
      setWhere: isNull(notificationSettings.feedToken),
    });
  return (await storedFeedToken(userId)) ?? token;
}

/** A new token for the member; the old one stops opening anything. */
export async function replaceFeedToken(userId: number): Promise<string> {
  const token = newToken();
  await db
    .insert(notificationSettings)
    .values({ userId, feedToken: token })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: { feedToken: token } });
  return token;
}

/**
 * The member a feed token belongs to, or null: a token of the wrong shape is never looked up, and a
 * suspended member's token opens nothing while the suspension lasts (they cannot sign in either).
 */
export async function memberByFeedToken(
  token: string | null | undefined,
  now: number = Date.now(),
): Promise<{ id: number; username: string } | null> {
  if (!token || !TOKEN_SHAPE.test(token)) return null;
  const row = first(
    await db
      .select({ id: users.id, username: users.username, suspendedAt: users.suspendedAt, suspendedUntil: users.suspendedUntil })
      .from(notificationSettings)
      .innerJoin(users, eq(users.id, notificationSettings.userId))
      .where(eq(notificationSettings.feedToken, token)),
  );
  if (!row || isSuspendedAt(row, now)) return null;
  return { id: row.id, username: row.username };
}

/** What Settings › Notifications shows of the feed token: the token (null: none made yet) and the private clubs it opens. */
export type FeedTokenSettings = { token: string | null; clubs: { id: number; name: string }[] };

/**
 * The settings piece's data (app/components/settings/feed-token.tsx): the member's token and the
 * private clubs they belong to (up to 50, newest first), whose feeds it opens. A loader reads it, so
 * it never makes a token (no state change on GET): the piece's "Create" button does.
 */
export async function feedTokenSettings(actor: Actor): Promise<FeedTokenSettings> {
  const me = requireSignedIn(actor);
  const { clubs } = await listClubs(me, { onlyMine: true, limit: 50 });
  return {
    token: await storedFeedToken(me.id),
    clubs: clubs.filter((club) => club.isPrivate).map((club) => ({ id: club.id, name: club.name })),
  };
}

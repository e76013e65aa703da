import { and, asc, eq, inArray } from "drizzle-orm";
import {
  clubMembers,
  clubs,
  EMAIL_MODES,
  NOTIFICATION_KINDS,
  notificationSettings,
  type EmailMode,
  type NotificationKind,
  type SiteRole,
} from "#db/schema";
import { db, first, writeTransaction, type Tx } from "~/utils/db.server";
import type { Actor } from "~/models/members/user.server";
import { requireSignedIn } from "~/models/access.server";
import { isSiteStaff, staffedClubIds } from "~/models/moderation/moderation-access.server";

/**
 * A member's notification choices (CONTRACT.md §7 Settings › Notifications). No row means the
 * defaults: every kind in the app, email daily, push off, no club's posts. `inApp.club_post` is on
 * exactly when the member chose at least one club (its choice is per club, on their membership).
 */
export type NotificationSettings = {
  inApp: Record<NotificationKind, boolean>;
  email: EmailMode;
  push: boolean;
  clubPosts: number[];
};

type SettingsRow = typeof notificationSettings.$inferSelect;

export const DEFAULT_SETTINGS = { inAppOff: [] as NotificationKind[], email: "daily" as EmailMode, push: false };

/** The member's row, or the defaults (with no token and no digest yet). */
export async function settingsRow(userId: number, q: Tx = db): Promise<Omit<SettingsRow, "createdAt">> {
  const row = first(await q.select().from(notificationSettings).where(eq(notificationSettings.userId, userId)));
  return row ?? { userId, ...DEFAULT_SETTINGS, feedToken: null, digestAt: null };
}

export async function notificationSettingsOf(userId: number): Promise<NotificationSettings> {
  const [row, chosen] = await Promise.all([
    settingsRow(userId),
    db
      .select({ clubId: clubMembers.clubId })
      .from(clubMembers)
      .where(and(eq(clubMembers.userId, userId), eq(clubMembers.notifyPosts, true)))
      .orderBy(clubMembers.clubId),
  ]);
  const clubPosts = chosen.map((c) => c.clubId);
  const inApp = Object.fromEntries(
    NOTIFICATION_KINDS.map((kind) => [kind, kind === "club_post" ? clubPosts.length > 0 : !row.inAppOff.includes(kind)]),
  ) as Record<NotificationKind, boolean>;
  return { inApp, email: row.email, push: row.push, clubPosts };
}

export type SettingsInput = {
  inApp: Partial<Record<NotificationKind, boolean>>;
  email: EmailMode;
  push: boolean;
  clubPosts: number[];
};

/**
 * Saves the member's choices (401 signed out). Clubs they are not a member of are ignored (a club post can only reach
 * its members); `inApp.club_post` false turns every club off.
 */
export async function updateNotificationSettings(actor: Actor, change: Partial<SettingsInput>): Promise<NotificationSettings> {
  const me = requireSignedIn(actor);
  // What the change leaves out stays as it was (a PUT may send one part).
  const current = await notificationSettingsOf(me.id);
  const input: SettingsInput = {
    inApp: { ...current.inApp, ...change.inApp },
    email: change.email ?? current.email,
    push: change.push ?? current.push,
    clubPosts: change.clubPosts ?? current.clubPosts,
  };
  const inAppOff = NOTIFICATION_KINDS.filter((kind) => kind !== "club_post" && input.inApp[kind] === false);
  const clubs = change.inApp?.club_post === false ? [] : [...new Set(input.clubPosts)].filter((id) => Number.isSafeInteger(id));
  await writeTransaction(async (tx) => {
    const before = await settingsRow(me.id, tx);
    // Coming from instant mails (or none), the first digest starts now: what was mailed is not mailed again.
    const digestFrom =
      input.email !== before.email && (before.email === "instant" || before.email === "off") ? { digestAt: new Date() } : {};
    await upsertSettings(tx, me.id, { inAppOff, email: input.email, push: input.push, ...digestFrom });
    await tx
      .update(clubMembers)
      .set({ notifyPosts: false })
      .where(and(eq(clubMembers.userId, me.id), eq(clubMembers.notifyPosts, true)));
    if (clubs.length > 0) {
      await tx
        .update(clubMembers)
        .set({ notifyPosts: true })
        .where(and(eq(clubMembers.userId, me.id), inArray(clubMembers.clubId, clubs)));
    }
  });
  return notificationSettingsOf(me.id);
}

/**
 * The kinds Settings › Notifications offers the member as checkboxes: every kind but `club_post`
 * (chosen per club), and `report` (ux-3 U23) only to staff, the only members it can reach. A form
 * without a kind leaves its choice as it was.
 */
export async function settingsKindsFor(user: { id: number; role: SiteRole }): Promise<NotificationKind[]> {
  const staff = isSiteStaff(user.role) || (await staffedClubIds(user.id)).length > 0;
  return NOTIFICATION_KINDS.filter((kind) => kind !== "club_post" && (kind !== "report" || staff));
}

/** One-click unsubscribe and the like: only the email choice changes. */
export async function setEmailMode(userId: number, email: EmailMode): Promise<void> {
  if (!EMAIL_MODES.includes(email)) throw new Error(`Unknown email mode ${email}`);
  await upsertSettings(db, userId, { email });
}

/** Writes some of a member's settings, making their row (with the defaults) when there is none. */
export async function upsertSettings(q: Tx, userId: number, values: Partial<Omit<SettingsRow, "userId" | "createdAt">>): Promise<void> {
  await q
    .insert(notificationSettings)
    .values({ userId, ...DEFAULT_SETTINGS, ...values })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: values });
}

/** The clubs a member may hear new posts of (theirs), by name, with their current choice. */
export async function clubPostChoices(userId: number): Promise<{ id: number; name: string; on: boolean }[]> {
  return db
    .select({ id: clubs.id, name: clubs.name, on: clubMembers.notifyPosts })
    .from(clubMembers)
    .innerJoin(clubs, eq(clubs.id, clubMembers.clubId))
    .where(eq(clubMembers.userId, userId))
    .orderBy(asc(clubs.name), asc(clubs.id))
    .limit(500);
}

import { and, eq, inArray } from "drizzle-orm";
import { clubMembers, users, type Remover, type SiteRole } from "#db/schema";
import { db, first } from "~/utils/db.server";
import { forbidden } from "~/utils/errors";
import { requireSignedIn, type Queryable } from "~/models/access.server";
import type { Actor } from "~/models/members/user.server";

/**
 * Who may moderate what (CONTRACT.md §8), written once for every moderation call and page:
 * - site moderators and admins act on everything, site-wide; only admins act on moderators and admins;
 * - a club's owner and admins ("club staff") act on the club's own content and members.
 * Roles are read from the database on every call, so a role given or taken takes effect at once.
 */

/** The acting member as the moderation log names them. */
export type Moderator = { id: number; username: string; role: SiteRole };

/** Where a moderation decision applies: a club's content, or content outside any club (null). */
export type ModerationPlace = { clubId: number | null };

export const NOT_STAFF = "Only moderators can do that";

export const isSiteStaff = (role: SiteRole): boolean => role === "moderator" || role === "admin";

const moderatorRow = async (id: number, q: Queryable): Promise<Moderator | undefined> =>
  first(await q.select({ id: users.id, username: users.username, role: users.role }).from(users).where(eq(users.id, id)));

/** The signed-in member with their site role (401 when signed out or gone). */
export async function requireModeratorIdentity(actor: Actor, q: Queryable = db): Promise<Moderator> {
  const me = requireSignedIn(actor);
  const row = await moderatorRow(me.id, q);
  if (!row) throw forbidden(NOT_STAFF);
  return row;
}

/** 401 signed out, 403 unless a site moderator or admin. */
export async function requireSiteStaff(actor: Actor, q: Queryable = db): Promise<Moderator> {
  const me = await requireModeratorIdentity(actor, q);
  if (!isSiteStaff(me.role)) throw forbidden(NOT_STAFF);
  return me;
}

/** The clubs where the member is owner or admin. */
export async function staffedClubIds(userId: number, q: Queryable = db): Promise<number[]> {
  const rows = await q
    .select({ clubId: clubMembers.clubId })
    .from(clubMembers)
    .where(and(eq(clubMembers.userId, userId), inArray(clubMembers.role, ["owner", "admin"])));
  return rows.map((r) => r.clubId);
}

/** Is the member the club's owner or one of its admins? */
export async function isClubStaff(userId: number, clubId: number, q: Queryable = db): Promise<boolean> {
  const row = first(
    await q
      .select({ role: clubMembers.role })
      .from(clubMembers)
      .where(and(eq(clubMembers.clubId, clubId), eq(clubMembers.userId, userId))),
  );
  return row?.role === "owner" || row?.role === "admin";
}

/**
 * Whether, and as whom, the actor may moderate content in this place: site staff anywhere ("site"),
 * club staff in their club ("club"); null for anyone else, signed out included. Never throws for a
 * refusal: pages ask it to decide what to show; `requireModeratorOf` is the same rule, refusing.
 */
export async function mayModerate(actor: Actor, place: ModerationPlace, q: Queryable = db): Promise<{ me: Moderator; as: Remover } | null> {
  const me = actor ? await moderatorRow(actor.id, q) : undefined;
  if (!me) return null;
  if (isSiteStaff(me.role)) return { me, as: "site" };
  if (place.clubId !== null && (await isClubStaff(me.id, place.clubId, q))) return { me, as: "club" };
  return null;
}

/**
 * 401 signed out; 403 unless the actor may moderate content in this place (`mayModerate`): site
 * staff anywhere, club staff in their club. Content outside clubs is for site staff only.
 */
export async function requireModeratorOf(actor: Actor, place: ModerationPlace, q: Queryable = db): Promise<Moderator> {
  requireSignedIn(actor);
  const may = await mayModerate(actor, place, q);
  if (!may) throw forbidden(NOT_STAFF);
  return may.me;
}

/**
 * What the moderation queue and log show the actor: everything for site staff, the clubs they
 * staff otherwise. 401 signed out; 403 for a member who staffs nothing.
 */
export type ModerationScope = { moderator: Moderator; site: true } | { moderator: Moderator; site: false; clubIds: number[] };

export async function requireModerationScope(actor: Actor, q: Queryable = db): Promise<ModerationScope> {
  const me = await requireModeratorIdentity(actor, q);
  if (isSiteStaff(me.role)) return { moderator: me, site: true };
  const clubIds = await staffedClubIds(me.id, q);
  if (clubIds.length === 0) throw forbidden(NOT_STAFF);
  return { moderator: me, site: false, clubIds };
}

/** Whether the scope covers a decision in this place. */
export const scopeCovers = (scope: ModerationScope, place: ModerationPlace): boolean =>
  scope.site || (place.clubId !== null && scope.clubIds.includes(place.clubId));

/**
 * `mayModerate` as SQL (ux-3 U23): the member `user` (an SQL expression) may moderate content in the
 * club `club` (an SQL expression, NULL for content outside clubs): site staff anywhere, the club's
 * owner and admins in their club. A staff notice (notification kind `report`) is read, counted and
 * delivered only while this holds, so a member who stops being staff stops hearing of the queue.
 */
export const mayModerateSql = (user: string, club: string): string =>
  // Scalar lookups by key (users' primary key, club_members_club_user), one per row asked about:
  // an EXISTS under an OR let PostgreSQL hash every owner and admin of every club instead.
  `((SELECT staff.role FROM users staff WHERE staff.id = ${user}) IN ('moderator', 'admin')
    OR (SELECT staff_of.role FROM club_members staff_of WHERE staff_of.club_id = ${club} AND staff_of.user_id = ${user}) IN ('owner', 'admin'))`;

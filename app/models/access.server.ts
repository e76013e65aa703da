import { and, eq } from "drizzle-orm";
import { clubMembers, clubs, type ClubRole } from "#db/schema";
import { CLUB_NOT_FOUND } from "~/schemas/club";
import { db, prepared, type DB } from "~/utils/db.server";
import { forbidden, notFound, unauthorized } from "~/utils/errors";
import type { Actor } from "./user.server";

/**
 * Who may do what: every permission rule of the domain, written once. A rule that a query also
 * needs (private-club visibility) is written here as SQL and the TypeScript check runs that SQL, so
 * the two cannot drift apart.
 *
 * Sync or async, the rule for every domain function (app/models): a function that only touches the
 * database is synchronous (better-sqlite3 is synchronous, and a synchronous function can run
 * inside a transaction); a function is `async` only when it awaits other I/O: password hashing,
 * storage, a network fetch. (One exception until its caller changes: listFeed still returns a
 * Promise because routes/profile.$username/route.tsx chains `.catch` on it.)
 */

type Tx = Parameters<Parameters<DB["transaction"]>[0]>[0];
/** A connection or an open transaction: the helpers below run inside either. */
export type Queryable = DB | Tx;

export type SignedIn = { id: number };
type ClubRow = typeof clubs.$inferSelect;

/** 401 unless someone is signed in (with SPEC's notice when the use case has one); the actor, narrowed. */
export function requireSignedIn(actor: Actor, message?: string): SignedIn {
  if (!actor) throw unauthorized(message);
  return actor;
}

// ---------------------------------------------------------------------------------------------
// Clubs

/** The member's place in a club, or null when they are not a member. */
export function getMembership(clubId: number, userId: number, q: Queryable = db): { role: ClubRole } | null {
  const row = q
    .select({ role: clubMembers.role })
    .from(clubMembers)
    .where(and(eq(clubMembers.clubId, clubId), eq(clubMembers.userId, userId)))
    .get();
  return row ?? null;
}

/**
 * "May the viewer read this club's posts?" as SQL: the club exists and is public, or the viewer
 * is a member. `clubId` and `viewer` are SQL expressions (a column or a named parameter; a viewer
 * of 0 is nobody). The feed planner embeds it; canReadClub runs it.
 */
export function clubReadableSql(clubId: string, viewer: string): string {
  return `EXISTS (SELECT 1 FROM clubs c WHERE c.id = ${clubId} AND (c.is_private = 0
      OR EXISTS (SELECT 1 FROM club_members m WHERE m.club_id = c.id AND m.user_id = ${viewer})))`;
}

/**
 * May `actor` read this club's posts? A public club: anyone. A private club: its members only.
 * A club that does not exist: false (callers answer 404 either way, so a private club's existence
 * is not confirmed through its posts).
 */
export function canReadClub(actor: Actor, clubId: number): boolean {
  const row = prepared(`SELECT ${clubReadableSql("@clubId", "@viewer")} AS ok`).get({ clubId, viewer: actor?.id ?? 0 }) as { ok: number };
  return row.ok === 1;
}

export function getClubRow(clubId: number, q: Queryable = db): ClubRow | undefined {
  return q.select().from(clubs).where(eq(clubs.id, clubId)).get();
}

/** The club, or 404 'Club Not Found'. */
export function requireClubRow(clubId: number, q: Queryable = db): ClubRow {
  const row = getClubRow(clubId, q);
  if (!row) throw notFound(CLUB_NOT_FOUND);
  return row;
}

/** 401 anonymous, 404 missing club, 403 non-members. */
export function requireClubMember(actor: Actor, clubId: number, q: Queryable = db): { me: SignedIn; club: ClubRow; role: ClubRole } {
  const me = requireSignedIn(actor);
  const club = requireClubRow(clubId, q);
  const membership = getMembership(clubId, me.id, q);
  if (!membership) throw forbidden("Only members of this club can do that");
  return { me, club, role: membership.role };
}

/** 401 anonymous, 404 missing club, 403 anyone but the owner. */
export function requireClubOwner(actor: Actor, clubId: number, q: Queryable = db): { me: SignedIn; club: ClubRow } {
  const me = requireSignedIn(actor);
  const club = requireClubRow(clubId, q);
  if (getMembership(clubId, me.id, q)?.role !== "owner") throw forbidden("Only the club owner can do that");
  return { me, club };
}

/**
 * May `actor` post in this club (or anywhere, for no club)? 401 signed out, 404 no such club, 403
 * not a member. createPost checks it, and the create form checks it before it stores a file.
 */
export function requireMayPostIn(actor: Actor, clubId: number | undefined, q: Queryable = db): SignedIn {
  const me = requireSignedIn(actor);
  if (clubId === undefined) return me;
  if (!getClubRow(clubId, q)) throw notFound(CLUB_NOT_FOUND);
  if (!getMembership(clubId, me.id, q)) throw forbidden("Only members can post in this club");
  return me;
}

/** An invite may be revoked by the member who made it or by the club's owner. */
export function canRevokeInvite(invite: { createdById: number }, me: SignedIn, myRole: ClubRole | null | undefined): boolean {
  return myRole === "owner" || invite.createdById === me.id;
}

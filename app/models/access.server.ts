import { and, eq } from "drizzle-orm";
import { clubMembers, clubs, type ClubRole } from "#db/schema";
import { CLUB_NOT_FOUND } from "~/schemas/club";
import { db, first, queryRow, type DB } from "~/utils/db.server";
import { forbidden, notFound, unauthorized } from "~/utils/errors";
import type { Actor } from "~/models/members/user.server";

/**
 * Who may do what: every permission rule of the domain, written once. A rule that a query also
 * needs (private-club visibility) is written here as SQL and the TypeScript check runs that SQL, so
 * the two cannot drift apart.
 *
 * Every domain function that reads or writes the database is `async` (issue 25: the same models run
 * on SQLite and PostgreSQL); pure rules (`requireSignedIn`, `canRevokeInvite`) stay synchronous.
 */

/** A connection or an open transaction: the helpers below run inside either. */
export type Queryable = DB;

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
export async function getMembership(clubId: number, userId: number, q: Queryable = db): Promise<{ role: ClubRole } | null> {
  const row = first(
    await q
      .select({ role: clubMembers.role })
      .from(clubMembers)
      .where(and(eq(clubMembers.clubId, clubId), eq(clubMembers.userId, userId))),
  );
  return row ?? null;
}

/**
 * "May the viewer read this club's posts?" as SQL: the club exists and is public, or the viewer
 * is a member. `clubId` and `viewer` are SQL expressions (a column or a named parameter; a viewer
 * of 0 is nobody). The feed planner embeds it; canReadClub runs it.
 */
export function clubReadableSql(clubId: string, viewer: string): string {
  return `EXISTS (SELECT 1 FROM clubs c WHERE c.id = ${clubId} AND (NOT c.is_private
      OR EXISTS (SELECT 1 FROM club_members m WHERE m.club_id = c.id AND m.user_id = ${viewer})))`;
}

/**
 * May `actor` read this club's posts? A public club: anyone. A private club: its members only.
 * A club that does not exist: false (callers answer 404 either way, so a private club's existence
 * is not confirmed through its posts).
 */
export async function canReadClub(actor: Actor, clubId: number): Promise<boolean> {
  const row = await queryRow<{ ok: number | boolean }>(`SELECT ${clubReadableSql("@clubId", "@viewer")} AS ok`, {
    clubId,
    viewer: actor?.id ?? 0,
  });
  // SQLite answers 1, PostgreSQL true.
  return Boolean(row?.ok);
}

/**
 * "A hidden post is its author's alone" (CONTRACT.md §8) as SQL, beside the club's rule: the post
 * under `alias` is not hidden (removed, or hidden after reports), or `viewer` wrote it. `viewer` is an
 * SQL expression (a column or a named parameter; 0 is nobody). Every list, count and notification
 * that shows posts embeds it, and `postVisibility` runs it for the checks made in TypeScript, so the
 * rule is written only here. The staff who may restore a hidden post read it on its own page too
 * (post.server.ts): that is `mayModerate`'s rule, not this one.
 */
export function visiblePostSql(alias: string, viewer: string): string {
  return `(${alias}.hidden_at IS NULL OR ${alias}.author_id = ${viewer})`;
}

/** `hidden`: removed or hidden after reports, whoever asks; `visible`: shown to the viewer all the same. */
export type PostVisibility = { authorId: number; clubId: number | null; hidden: boolean; visible: boolean };

/**
 * The post's author and club, and whether `visiblePostSql` shows it to `actor`; undefined when there
 * is no such post. The club's rule (`canReadClub`) is the caller's to ask.
 */
export async function postVisibility(actor: Actor, postId: number): Promise<PostVisibility | undefined> {
  const row = await queryRow<{ author_id: number; club_id: number | null; hidden: number | boolean; visible: number | boolean }>(
    `SELECT p.author_id AS author_id, p.club_id AS club_id, p.hidden_at IS NOT NULL AS hidden,
       ${visiblePostSql("p", "@viewer")} AS visible FROM posts p WHERE p.id = @id`,
    { id: postId, viewer: actor?.id ?? 0 },
  );
  if (!row) return undefined;
  // SQLite answers 1 and 0, PostgreSQL true and false.
  return {
    authorId: Number(row.author_id),
    clubId: row.club_id === null ? null : Number(row.club_id),
    hidden: Boolean(row.hidden),
    visible: Boolean(row.visible),
  };
}

export async function getClubRow(clubId: number, q: Queryable = db): Promise<ClubRow | undefined> {
  return first(await q.select().from(clubs).where(eq(clubs.id, clubId)));
}

/** The club, or 404 'Club Not Found'. */
export async function requireClubRow(clubId: number, q: Queryable = db): Promise<ClubRow> {
  const row = await getClubRow(clubId, q);
  if (!row) throw notFound(CLUB_NOT_FOUND);
  return row;
}

/** 401 anonymous, 404 missing club, 403 non-members. */
export async function requireClubMember(
  actor: Actor,
  clubId: number,
  q: Queryable = db,
): Promise<{ me: SignedIn; club: ClubRow; role: ClubRole }> {
  const me = requireSignedIn(actor);
  const club = await requireClubRow(clubId, q);
  const membership = await getMembership(clubId, me.id, q);
  if (!membership) throw forbidden("Only members of this club can do that");
  return { me, club, role: membership.role };
}

/** 401 anonymous, 404 missing club, 403 anyone but the owner. */
export async function requireClubOwner(actor: Actor, clubId: number, q: Queryable = db): Promise<{ me: SignedIn; club: ClubRow }> {
  const me = requireSignedIn(actor);
  const club = await requireClubRow(clubId, q);
  if ((await getMembership(clubId, me.id, q))?.role !== "owner") throw forbidden("Only the club owner can do that");
  return { me, club };
}

/**
 * May `actor` post in this club (or anywhere, for no club)? 401 signed out, 404 no such club, 403
 * not a member. createPost checks it, and the create form checks it before it stores a file.
 */
export async function requireMayPostIn(actor: Actor, clubId: number | undefined, q: Queryable = db): Promise<SignedIn> {
  const me = requireSignedIn(actor);
  if (clubId === undefined) return me;
  if (!(await getClubRow(clubId, q))) throw notFound(CLUB_NOT_FOUND);
  if (!(await getMembership(clubId, me.id, q))) throw forbidden("Only members can post in this club");
  return me;
}

/** An invite may be revoked by the member who made it or by the club's owner. */
export function canRevokeInvite(invite: { createdById: number }, me: SignedIn, myRole: ClubRole | null | undefined): boolean {
  return myRole === "owner" || invite.createdById === me.id;
}

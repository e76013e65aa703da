import { randomBytes } from "node:crypto";
import { notify } from "~/models/notifications/notification.server";
import { and, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { clubs, invites, users } from "#db/schema";
import type { InviteInput } from "~/schemas/club";
import { db, isUniqueViolation, writeTransaction } from "~/utils/db.server";
import { consumeLimit } from "~/utils/rate-limit.server";
import { badRequest, forbidden, notFound } from "~/utils/errors";
import { canRevokeInvite, getClubRow, getMembership, requireClubMember, requireSignedIn, type Queryable } from "~/models/access.server";
import { admitMember, assertMayJoin } from "./club-membership.server";
import { CLUB_NOT_FOUND } from "~/schemas/club";
import type { Actor } from "~/models/members/user.server";
import type { ClubInvite } from "~/schemas/shapes";

/**
 * Invite links (SPEC.md §2 Invite page, §4 Invite generation; CONTRACT.md §2). A code is 12 random
 * bytes in base64url (96 bits, URL-safe). An invite admits directly, even to a private club; each
 * use is taken by one conditional UPDATE inside the joining transaction, so a code with one use
 * left admits exactly one of any number of racing members (docs/decisions/0011-club-joins-and-invites.md).
 */

export const INVALID_INVITE = "This invite link is invalid or has expired.";
export const REJECTED_NEEDS_OWNER =
  "The club's owner declined your request to join, so only an invite from the owner can let you in. Ask the owner for one.";

/** SPEC.md §3 Invite. `club.avatar` is the club's image. */
export type Invite = {
  inviteCode: string;
  usesRemaining: number | null;
  expiresAt: string | null;
  clubId: number;
  club: { name: string; description: string; avatar: string | null; isPrivate: boolean; memberCount: number; memberLimit: number | null };
};

const CODE_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

export function newInviteCode(): string {
  return randomBytes(12).toString("base64url");
}

/**
 * Not revoked, not expired, not used up, and its maker still belongs to the club (security-2 N6): a
 * member who leaves or is removed takes their invites with them, so nobody outside the club keeps
 * admitting people to it; they work again if the maker rejoins. The owner is a member while they own
 * it. Written with the table's own name, so it reads the same inside the UPDATE that takes a use.
 */
function usable(now: Date) {
  return and(
    isNull(invites.revokedAt),
    or(isNull(invites.expiresAt), gt(invites.expiresAt, now)),
    or(isNull(invites.usesRemaining), gt(invites.usesRemaining, 0)),
    sql`EXISTS (SELECT 1 FROM club_members maker WHERE maker.club_id = "invites"."club_id" AND maker.user_id = "invites"."created_by_id")`,
  );
}

function inviteView(
  row: { code: string; usesRemaining: number | null; expiresAt: Date | null; clubId: number },
  club: typeof clubs.$inferSelect,
): Invite {
  return {
    inviteCode: row.code,
    usesRemaining: row.usesRemaining,
    expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
    clubId: row.clubId,
    club: {
      name: club.name,
      description: club.description,
      avatar: club.imageUrl,
      isPrivate: club.isPrivate,
      memberCount: club.memberCount,
      memberLimit: club.memberLimit,
    },
  };
}

/**
 * POST /api/clubs/{id}/invites (members only): default unlimited uses and no expiry. At most
 * `LIMITS.invitesPerUser` a day per member (429).
 */
export async function createInvite(actor: Actor, clubId: number, input: InviteInput, now = new Date()): Promise<Invite> {
  const { me, club } = await requireClubMember(actor, clubId);
  await consumeLimit("invitesPerUser", String(me.id), now.getTime());
  const expiresAt = input.expiresIn ? new Date(now.getTime() + input.expiresIn * 3_600_000) : null;
  for (let attempt = 0; ; attempt++) {
    try {
      const [row] = await db
        .insert(invites)
        .values({
          code: newInviteCode(),
          clubId,
          createdById: me.id,
          usesRemaining: input.usesRemaining ?? null,
          expiresAt,
          createdAt: now,
        })
        .returning();
      return inviteView(row, club);
    } catch (error) {
      // A 96-bit collision is astronomically unlikely; retry rather than fail if it ever happens.
      if (attempt < 2 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

/** GET /api/invites/{code} and the invite page: invalid, revoked, expired, used up or its maker gone is 404. */
export async function getInvite(code: string, now = new Date()): Promise<Invite> {
  if (!CODE_PATTERN.test(code)) throw notFound(INVALID_INVITE);
  const [row] = await db
    .select({ invite: invites, club: clubs })
    .from(invites)
    .innerJoin(clubs, eq(clubs.id, invites.clubId))
    .where(and(eq(invites.code, code), usable(now)));
  if (!row) throw notFound(INVALID_INVITE);
  return inviteView(row.invite, row.club);
}

/** The club's active invites, newest first (members only). */
export async function listInvites(actor: Actor, clubId: number, now = new Date()): Promise<ClubInvite[]> {
  const { me, role } = await requireClubMember(actor, clubId);
  const rows = await db
    .select({
      id: invites.id,
      code: invites.code,
      usesRemaining: invites.usesRemaining,
      expiresAt: invites.expiresAt,
      createdAt: invites.createdAt,
      creatorId: users.id,
      creatorUsername: users.username,
      creatorDisplayName: users.displayName,
    })
    .from(invites)
    .innerJoin(users, eq(users.id, invites.createdById))
    .where(and(eq(invites.clubId, clubId), usable(now)))
    .orderBy(desc(invites.createdAt), desc(invites.id));
  return rows.map((r) => ({
    id: r.id,
    inviteCode: r.code,
    usesRemaining: r.usesRemaining,
    expiresAt: r.expiresAt ? r.expiresAt.toISOString() : null,
    createdAt: r.createdAt.toISOString(),
    createdBy: { id: r.creatorId, username: r.creatorUsername, displayName: r.creatorDisplayName },
    canRevoke: canRevokeInvite({ createdById: r.creatorId }, me, role),
  }));
}

/** Revoke an invite: the member who made it, or the club owner. */
export async function revokeInvite(actor: Actor, clubId: number, inviteId: number, now = new Date()): Promise<void> {
  const me = requireSignedIn(actor);
  const [invite] = await db
    .select()
    .from(invites)
    .where(and(eq(invites.id, inviteId), eq(invites.clubId, clubId)));
  if (!invite) throw notFound("Invite not found");
  if (!canRevokeInvite(invite, me, (await getMembership(clubId, me.id))?.role))
    throw forbidden("Only the member who made this invite or the club owner can revoke it");
  if (invite.revokedAt) return;
  await db.update(invites).set({ revokedAt: now }).where(eq(invites.id, inviteId));
}

/**
 * Take one use of a usable invite, in the caller's transaction; returns its club. The check and the
 * decrement are one statement, so concurrent redemptions cannot both take the last use.
 */
async function takeInviteUse(tx: Queryable, code: string, now: Date): Promise<number> {
  if (!CODE_PATTERN.test(code)) throw badRequest(INVALID_INVITE);
  const [row] = await tx
    .update(invites)
    .set({ usesRemaining: sql`CASE WHEN ${invites.usesRemaining} IS NULL THEN NULL ELSE ${invites.usesRemaining} - 1 END` })
    .where(and(eq(invites.code, code), usable(now)))
    .returning({ clubId: invites.clubId });
  if (!row) throw badRequest(INVALID_INVITE);
  return row.clubId;
}

/** The club an invite code belongs to and who made it, if the code is usable (without taking a use). */
async function usableInvite(tx: Queryable, code: string, now: Date): Promise<{ clubId: number; createdById: number }> {
  if (!CODE_PATTERN.test(code)) throw badRequest(INVALID_INVITE);
  const [row] = await tx
    .select({ clubId: invites.clubId, createdById: invites.createdById })
    .from(invites)
    .where(and(eq(invites.code, code), usable(now)));
  if (!row) throw badRequest(INVALID_INVITE);
  return row;
}

/**
 * Join through an invite (the invite page's POST, and POST /api/clubs/{id}/join with an
 * inviteCode). Already a member: 409 'Already a member of this club'; someone whose request is
 * pending is admitted and the request marked approved (issue 14: the invite is the owner's or a
 * member's yes); a bad code, or a code
 * for another club: 400; a full club: 409 'Club is full'. Someone the owner rejected is admitted
 * only by an invite the owner made; another member's invite is 403 (docs/decisions/0020-abuse-limits-and-invites-after-rejection.md).
 * Someone the club's staff removed is admitted within REMOVAL_KEEPS_OUT_DAYS only by an invite the
 * owner or an admin made; another member's invite is 409 with the date (CONTRACT.md §12). Nothing
 * is consumed unless the member is admitted.
 */
export function acceptInvite(
  actor: Actor,
  code: string,
  expectedClubId?: number,
  now = new Date(),
): Promise<{ status: "joined"; clubId: number }> {
  const me = requireSignedIn(actor);
  return writeTransaction(async (tx) => {
    if (expectedClubId !== undefined && !(await getClubRow(expectedClubId, tx))) throw notFound(CLUB_NOT_FOUND);
    const { clubId, createdById } = await usableInvite(tx, code, now);
    if (expectedClubId !== undefined && expectedClubId !== clubId) throw badRequest(INVALID_INVITE);
    const makerRole = (await getMembership(clubId, createdById, tx))?.role;
    const invitedByStaff = makerRole === "owner" || makerRole === "admin";
    const { request } = await assertMayJoin(tx, clubId, me.id, { pendingMayJoin: true, invitedByStaff, now });
    if (request?.status === "rejected" && makerRole !== "owner") throw forbidden(REJECTED_NEEDS_OWNER);
    await takeInviteUse(tx, code, now);
    await admitMember(tx, clubId, me.id);
    await notify([createdById], { kind: "invite_joined", actorId: me.id, clubId }, tx);
    return { status: "joined" as const, clubId };
  });
}

/**
 * register-with-invite: run inside the new account's transaction (signUp's callback), so a bad,
 * used-up or expired code — or a full club — rolls the account back.
 */
export async function joinNewMemberWithInvite(tx: Queryable, code: string, userId: number, now = new Date()): Promise<number> {
  const { createdById } = await usableInvite(tx, code, now);
  const clubId = await takeInviteUse(tx, code, now);
  await admitMember(tx, clubId, userId);
  await notify([createdById], { kind: "invite_joined", actorId: userId, clubId }, tx);
  return clubId;
}

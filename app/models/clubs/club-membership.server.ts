import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { BLOCK_MESSAGES, refuseIfBlockedBy } from "~/models/members/block.server";
import { notify } from "~/models/notifications/notification.server";
import { clubBans, clubMembers, clubs, joinRequests, users, type ClubRole } from "#db/schema";
import type { RequestDecision } from "~/schemas/club";
import { db, decrementCounter, first, writeTransaction } from "~/utils/db.server";
import { equalsIgnoringCase } from "~/utils/db/sql-dialect.server";
import { clubRoleSchema } from "~/schemas/moderation-staff";
import { readerTimeZone } from "~/utils/reader-time.server";
import { dayAtClock } from "~/utils/time-zone";
import { badRequest, conflict, forbidden, invalid, notFound } from "~/utils/errors";
import { zodFieldErrors } from "~/utils/validation";
import { logDecision } from "~/models/moderation/moderation-log.server";
import { consumeLimit } from "~/utils/rate-limit.server";
import { getMembership, requireClubOwner, requireClubRow, requireSignedIn, type Queryable, type SignedIn } from "~/models/access.server";
import type { Actor } from "~/models/members/user.server";

/**
 * Club membership: joining, join requests and their decision, admitting, leaving, and the member
 * and request lists (SPEC.md §2–6, CONTRACT.md §2). The clubs themselves live in club.server.ts;
 * invites, which also admit members, in invite.server.ts. Every function checks its own
 * permissions and throws the error family.
 *
 * Concurrency: a place in a club is taken by one conditional UPDATE of clubs.member_count
 * (`... WHERE member_limit IS NULL OR member_count < member_limit`) inside the transaction that
 * inserts the member, so two joins racing for the last place cannot both pass — whichever
 * connection writes second sees the new count. Join transactions start IMMEDIATE so the checks
 * before the write already hold the write lock (docs/decisions/0011-club-joins-and-invites.md).
 */

export const ALREADY_MEMBER = "Already a member of this club";
export const REQUEST_PENDING = "Join request already pending";
export const CLUB_FULL = "Club is full";
export const OWNER_CANNOT_LEAVE = "The club owner cannot leave the club";
export const NOT_CLUB_STAFF = "Only the club's owner and admins can do that";
export const OWNER_STAYS = "The club owner cannot be removed or given another role";
export const ADMIN_KEEPS_ADMINS = "An admin cannot remove another admin";
export const NOT_IN_CLUB = "That member is not in this club";
/** How long a member removed by club staff stays out, unless the staff invite them (CONTRACT.md §12). */
export const REMOVAL_KEEPS_OUT_DAYS = 30;
/** The 409 a removed member gets on joining or asking to, with when the bar ends in their zone (as a suspension's end is told). */
export const removedUntil = (until: Date, zone = readerTimeZone()) =>
  `You were removed from this club: you cannot join it or ask to until ${dayAtClock(until, zone)}, unless its owner or an admin invites you`;

/**
 * 401 anonymous, 404 missing club, 403 unless the owner or an admin of the club (CONTRACT.md §8
 * "Club staff": they approve and reject requests and remove members). Returns the actor's role.
 */
export async function requireClubStaff(actor: Actor, clubId: number, q: Queryable = db): Promise<{ me: SignedIn; role: ClubRole }> {
  const me = requireSignedIn(actor);
  await requireClubRow(clubId, q);
  const role = (await getMembership(clubId, me.id, q))?.role;
  if (role !== "owner" && role !== "admin") throw forbidden(NOT_CLUB_STAFF);
  return { me, role };
}

/** SPEC.md §3 Club member. `id` is the member's user id. */
export type ClubMember = {
  id: number;
  username: string;
  displayName: string;
  avatar: string | null;
  role: ClubRole;
  joinedAt: string;
};

/** SPEC.md §3 Join request. */
export type JoinRequest = {
  id: number;
  message: string | null;
  createdAt: string;
  user: { id: number; username: string; displayName: string; avatar: string | null };
};

// ---------------------------------------------------------------------------------------------
// Members and requests
// ---------------------------------------------------------------------------------------------

/** GET /api/clubs/{id}/members: visible to everyone (SPEC.md §2), owner first, then by joining date. */
export async function listMembers(clubId: number): Promise<ClubMember[]> {
  await requireClubRow(clubId);
  const members = await memberListQuery(clubId);
  return members.map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString() }));
}

/** A club member as the Members tab and the staff calls read them. */
const memberColumns = {
  id: users.id,
  username: users.username,
  displayName: users.displayName,
  avatar: users.avatar,
  role: clubMembers.role,
  joinedAt: clubMembers.joinedAt,
};

/** The members statement (exported for the bench's EXPLAIN QUERY PLAN): bounded by the club's member limit (at most 1,000). */
export function memberListQuery(clubId: number) {
  return db
    .select(memberColumns)
    .from(clubMembers)
    .innerJoin(users, eq(users.id, clubMembers.userId))
    .where(eq(clubMembers.clubId, clubId))
    .orderBy(sql`CASE ${clubMembers.role} WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END`, clubMembers.joinedAt, clubMembers.id);
}

/** GET /api/clubs/{id}/requests: the owner and admins see pending requests, oldest first; anyone else 403. */
export async function listJoinRequests(actor: Actor, clubId: number): Promise<JoinRequest[]> {
  await requireClubStaff(actor, clubId);
  const rows = await db
    .select({
      id: joinRequests.id,
      message: joinRequests.message,
      createdAt: joinRequests.createdAt,
      userId: users.id,
      username: users.username,
      displayName: users.displayName,
      avatar: users.avatar,
    })
    .from(joinRequests)
    .innerJoin(users, eq(users.id, joinRequests.userId))
    .where(and(eq(joinRequests.clubId, clubId), eq(joinRequests.status, "pending")))
    .orderBy(joinRequests.createdAt, joinRequests.id);
  return rows.map((r) => ({
    id: r.id,
    message: r.message,
    createdAt: r.createdAt.toISOString(),
    user: { id: r.userId, username: r.username, displayName: r.displayName, avatar: r.avatar },
  }));
}

/** How many requests wait for the owner (the Requests tab's count). */
export async function countPendingRequests(clubId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(joinRequests)
    .where(and(eq(joinRequests.clubId, clubId), eq(joinRequests.status, "pending")));
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------
// Joining, requests and leaving
// ---------------------------------------------------------------------------------------------

/**
 * Refuse a join by someone who already belongs or already waits (`pendingMayJoin`: an invite admits
 * someone who waits, issue 14), or whom the club's staff removed less than REMOVAL_KEEPS_OUT_DAYS ago
 * (409 with the date; `invitedByStaff`: an invite by the owner or an admin admits them). Returns the club and any earlier request row (rejected, pending, or
 * approved before a leave), which a new request reuses.
 */
export async function assertMayJoin(
  tx: Queryable,
  clubId: number,
  userId: number,
  { pendingMayJoin = false, invitedByStaff = false, now = new Date() } = {},
) {
  const club = await requireClubRow(clubId, tx);
  if (await getMembership(clubId, userId, tx)) throw conflict(ALREADY_MEMBER, undefined, "already_member");
  if (!invitedByStaff) {
    const ban = first(
      await tx
        .select({ until: clubBans.until })
        .from(clubBans)
        .where(and(eq(clubBans.clubId, clubId), eq(clubBans.userId, userId), gt(clubBans.until, now))),
    );
    if (ban) throw conflict(removedUntil(ban.until), undefined, "removed_from_club");
  }
  const request = first(
    await tx
      .select()
      .from(joinRequests)
      .where(and(eq(joinRequests.clubId, clubId), eq(joinRequests.userId, userId))),
  );
  if (request?.status === "pending" && !pendingMayJoin) throw conflict(REQUEST_PENDING, undefined, "request_pending");
  return { club, request };
}

/**
 * Take one place in the club and add the member, in the caller's transaction. The place is taken by
 * a conditional UPDATE, so the limit holds however many connections race for the last place.
 * Any request the member had is marked approved.
 */
export async function admitMember(tx: Queryable, clubId: number, userId: number, role: ClubRole = "member"): Promise<void> {
  const taken = await tx
    .update(clubs)
    .set({ memberCount: sql`${clubs.memberCount} + 1` })
    .where(and(eq(clubs.id, clubId), sql`(${clubs.memberLimit} IS NULL OR ${clubs.memberCount} < ${clubs.memberLimit})`))
    .returning({ id: clubs.id });
  if (taken.length === 0) throw conflict(CLUB_FULL);
  await tx.insert(clubMembers).values({ clubId, userId, role });
  // Admitted (the staff's invite is the only way past a ban): a removal no longer keeps them out.
  await tx.delete(clubBans).where(and(eq(clubBans.clubId, clubId), eq(clubBans.userId, userId)));
  await tx
    .update(joinRequests)
    .set({ status: "approved", decidedAt: new Date() })
    .where(and(eq(joinRequests.clubId, clubId), eq(joinRequests.userId, userId), inArray(joinRequests.status, ["pending", "rejected"])));
}

function isFull(club: typeof clubs.$inferSelect) {
  return club.memberLimit !== null && club.memberCount >= club.memberLimit;
}

export type JoinResult = { status: "joined" } | { status: "pending" };

/**
 * POST /api/clubs/{id}/join without an invite (invites go through acceptInvite in
 * invite.server.ts). A public club admits directly; a private one records a request for the owner
 * (a rejected requester may re-apply: the same row goes back to pending). A full club refuses both.
 * Requests to one club are limited per member (`LIMITS.joinRequestsPerClub` a day, 429), which bounds
 * re-applying after a rejection (docs/decisions/0020-abuse-limits-and-invites-after-rejection.md).
 */
export function joinClub(actor: Actor, clubId: number, input: { message?: string } = {}): Promise<JoinResult> {
  const me = requireSignedIn(actor);
  return writeTransaction(async (tx): Promise<JoinResult> => {
    const { club, request } = await assertMayJoin(tx, clubId, me.id);
    if (!club.isPrivate) {
      await admitMember(tx, clubId, me.id);
      return { status: "joined" };
    }
    if (isFull(club)) throw conflict(CLUB_FULL);
    // The owner decides requests: one who blocked this member does not hear from them (security-3 P10).
    const owner = first(
      await tx
        .select({ userId: clubMembers.userId })
        .from(clubMembers)
        .where(and(eq(clubMembers.clubId, clubId), eq(clubMembers.role, "owner"))),
    );
    if (owner) await refuseIfBlockedBy(owner.userId, me.id, BLOCK_MESSAGES.joinRequest, tx);
    await consumeLimit("joinRequestsPerClub", `${me.id}:${clubId}`);
    const message = input.message?.trim() || null;
    if (request) {
      await tx
        .update(joinRequests)
        .set({ status: "pending", message, createdAt: new Date(), decidedAt: null })
        .where(eq(joinRequests.id, request.id));
    } else {
      await tx.insert(joinRequests).values({ clubId, userId: me.id, message, status: "pending" });
    }
    await notify(await clubStaffIds(tx, clubId), { kind: "join_request", actorId: me.id, clubId }, tx);
    return { status: "pending" };
  });
}

/** Who decides the club's join requests: its owner and admins. */
async function clubStaffIds(tx: Queryable, clubId: number): Promise<number[]> {
  const rows = await tx
    .select({ userId: clubMembers.userId })
    .from(clubMembers)
    .where(and(eq(clubMembers.clubId, clubId), inArray(clubMembers.role, ["owner", "admin"])));
  return rows.map((r) => r.userId);
}

/** POST /api/clubs/{id}/requests/{requestId} (owner and admins): approve admits (unless full), reject refuses. */
export function decideJoinRequest(
  actor: Actor,
  clubId: number,
  requestId: number,
  action: RequestDecision,
): Promise<{ status: "approved" | "rejected" }> {
  const me = requireSignedIn(actor);
  return writeTransaction(async (tx): Promise<{ status: "approved" | "rejected" }> => {
    await requireClubStaff(me, clubId, tx);
    const [request] = await tx
      .select()
      .from(joinRequests)
      .where(and(eq(joinRequests.id, requestId), eq(joinRequests.clubId, clubId)));
    if (!request) throw notFound("Join request not found");
    if (request.status !== "pending") throw conflict("This request has already been decided");
    if (action === "reject") {
      await tx.update(joinRequests).set({ status: "rejected", decidedAt: new Date() }).where(eq(joinRequests.id, requestId));
      await notify([request.userId], { kind: "request_rejected", actorId: me.id, clubId }, tx);
      return { status: "rejected" };
    }
    if (await getMembership(clubId, request.userId, tx)) {
      // Joined meanwhile through an invite: the request is simply settled (they heard of the invite's join).
      await tx.update(joinRequests).set({ status: "approved", decidedAt: new Date() }).where(eq(joinRequests.id, requestId));
      return { status: "approved" };
    }
    await admitMember(tx, clubId, request.userId);
    await notify([request.userId], { kind: "request_approved", actorId: me.id, clubId }, tx);
    return { status: "approved" };
  });
}

/** POST /api/clubs/{id}/leave: any member but the owner (400). */
export async function leaveClub(actor: Actor, clubId: number): Promise<void> {
  const me = requireSignedIn(actor);
  await writeTransaction(async (tx) => {
    await requireClubRow(clubId, tx);
    const membership = await getMembership(clubId, me.id, tx);
    if (!membership) throw badRequest("You are not a member of this club");
    if (membership.role === "owner") throw badRequest(OWNER_CANNOT_LEAVE);
    await tx.delete(clubMembers).where(and(eq(clubMembers.clubId, clubId), eq(clubMembers.userId, me.id)));
    await tx
      .update(clubs)
      .set({ memberCount: decrementCounter(clubs.memberCount) })
      .where(eq(clubs.id, clubId));
  });
}

// ---------------------------------------------------------------------------------------------
// Club staff (CONTRACT.md §8): the owner makes and unmakes admins; staff remove members
// ---------------------------------------------------------------------------------------------

/** The member of the club with this username (any case): 404 when there is no such member in it. */
async function requireClubMemberNamed(tx: Queryable, clubId: number, username: string) {
  const row = first(
    await tx
      .select(memberColumns)
      .from(clubMembers)
      .innerJoin(users, eq(users.id, clubMembers.userId))
      .where(and(eq(clubMembers.clubId, clubId), equalsIgnoringCase(users.username, username))),
  );
  if (!row) throw notFound(NOT_IN_CLUB);
  return row;
}

/**
 * PUT /api/clubs/{id}/members/{username} {role: "admin"|"member"} → the member (owner only; the
 * owner's own role never changes: 400). The change and its log entry are one transaction.
 */
export function setClubMemberRole(actor: Actor, clubId: number, username: string, input: unknown): Promise<ClubMember> {
  return writeTransaction(async (tx) => {
    const { me } = await requireClubOwner(actor, clubId, tx);
    const target = await requireClubMemberNamed(tx, clubId, username);
    const parsed = clubRoleSchema.safeParse(input);
    if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
    if (target.role === "owner") throw badRequest(OWNER_STAYS);
    const { role } = parsed.data;
    if (target.role !== role) {
      await tx
        .update(clubMembers)
        .set({ role })
        .where(and(eq(clubMembers.clubId, clubId), eq(clubMembers.userId, target.id)));
      await logDecision(tx, {
        actor: await actorNamed(tx, me.id),
        action: "set_role",
        targetType: "user",
        targetId: target.id,
        targetLabel: target.username,
        clubId,
        reason: `${target.role} → ${role}`,
      });
    }
    return { ...target, role, joinedAt: target.joinedAt.toISOString() };
  });
}

/**
 * DELETE /api/clubs/{id}/members/{username}: the owner removes anyone but themself; an admin removes
 * members (not the owner, not another admin). 401 / 403 / 404 otherwise; removing oneself is
 * leaving (400). The row, the club's member count, the ban that keeps them out for
 * REMOVAL_KEEPS_OUT_DAYS (CONTRACT.md §12) and the log entry change in one transaction.
 */
export async function removeClubMember(actor: Actor, clubId: number, username: string, now = new Date()): Promise<void> {
  await writeTransaction(async (tx) => {
    const { me, role: myRole } = await requireClubStaff(actor, clubId, tx);
    const target = await requireClubMemberNamed(tx, clubId, username);
    if (target.role === "owner") throw forbidden(OWNER_STAYS);
    if (target.id === me.id) throw badRequest("To leave the club, use Leave club");
    if (target.role === "admin" && myRole !== "owner") throw forbidden(ADMIN_KEEPS_ADMINS);
    await tx.delete(clubMembers).where(and(eq(clubMembers.clubId, clubId), eq(clubMembers.userId, target.id)));
    await tx
      .update(clubs)
      .set({ memberCount: decrementCounter(clubs.memberCount) })
      .where(eq(clubs.id, clubId));
    const until = new Date(now.getTime() + REMOVAL_KEEPS_OUT_DAYS * 86_400_000);
    await tx
      .insert(clubBans)
      .values({ clubId, userId: target.id, until, createdAt: now })
      .onConflictDoUpdate({ target: [clubBans.clubId, clubBans.userId], set: { until, createdAt: now } });
    await logDecision(tx, {
      actor: await actorNamed(tx, me.id),
      action: "remove_member",
      targetType: "user",
      targetId: target.id,
      targetLabel: target.username,
      clubId,
    });
  });
}

async function actorNamed(tx: Queryable, id: number): Promise<{ id: number; username: string }> {
  const row = first(await tx.select({ id: users.id, username: users.username }).from(users).where(eq(users.id, id)));
  if (!row) throw forbidden(NOT_CLUB_STAFF);
  return row;
}

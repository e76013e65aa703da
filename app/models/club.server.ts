import { and, desc, eq, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { clubMembers, clubs, joinRequests, media, posts, users, type ClubRole } from "#db/schema";
import type { CreateClubInput, EditClubInput, RequestDecision } from "~/schemas/club";
import { CLUB_LIST_LIMIT_DEFAULT, CLUB_NOT_FOUND } from "~/schemas/club";
import { db } from "~/utils/db.server";
import { badRequest, conflict, invalid, notFound } from "~/utils/errors";
import {
  canReadClub,
  getClubRow,
  getMembership,
  requireClubMember,
  requireClubOwner,
  requireClubRow,
  requireSignedIn,
  type Queryable,
} from "./access.server";
import { deleteMediaFiles } from "./media.server";
import type { Actor } from "./user.server";
import type { Club } from "~/schemas/shapes";

/**
 * Clubs: creating, finding, joining, approving, running and leaving them (SPEC.md §2–6,
 * CONTRACT.md §2). Every function checks its own permissions and throws the error family.
 *
 * Concurrency: a place in a club is taken by one conditional UPDATE of clubs.member_count
 * (`... WHERE member_limit IS NULL OR member_count < member_limit`) inside the transaction that
 * inserts the member, so two joins racing for the last place cannot both pass — whichever
 * connection writes second sees the new count. Join transactions start IMMEDIATE so the checks
 * before the write already hold the write lock (docs/decisions/0011-club-joins-and-invites.md).
 */

export { CLUB_NOT_FOUND };
export const ALREADY_MEMBER = "Already a member of this club";
export const REQUEST_PENDING = "Join request already pending";
export const CLUB_FULL = "Club is full";
export const OWNER_CANNOT_LEAVE = "The club owner cannot leave the club";

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

type ClubRow = typeof clubs.$inferSelect;

// Membership checks and the private-club rule live in access.server.ts (also used by the posts
// domain); re-exported here for the callers that know them from this module.
export { canReadClub, getClubRow, getMembership, requireClubMember as requireMember, type Queryable };

// ---------------------------------------------------------------------------------------------
// Reading clubs
// ---------------------------------------------------------------------------------------------

const creator = alias(users, "creator");
const myMembership = alias(clubMembers, "my_membership");
const myRequest = alias(joinRequests, "my_request");

function clubSelection() {
  return {
    club: clubs,
    creatorId: creator.id,
    creatorUsername: creator.username,
    creatorDisplayName: creator.displayName,
    creatorAvatar: creator.avatar,
    role: myMembership.role,
    requestStatus: myRequest.status,
  };
}

type ClubSelectionRow = {
  club: ClubRow;
  creatorId: number | null;
  creatorUsername: string | null;
  creatorDisplayName: string | null;
  creatorAvatar: string | null;
  role: ClubRole | null;
  requestStatus: "pending" | "approved" | "rejected" | null;
};

/** The club joined with its creator and the caller's membership and request. */
function clubQuery(actorId: number, q: Queryable = db) {
  return q
    .select(clubSelection())
    .from(clubs)
    .leftJoin(creator, eq(creator.id, clubs.creatorId))
    .leftJoin(myMembership, and(eq(myMembership.clubId, clubs.id), eq(myMembership.userId, actorId)))
    .leftJoin(myRequest, and(eq(myRequest.clubId, clubs.id), eq(myRequest.userId, actorId)));
}

function toClub(row: ClubSelectionRow): Club {
  const c = row.club;
  const isMember = row.role !== null;
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    imageUrl: c.imageUrl,
    location: c.location,
    isPrivate: c.isPrivate,
    memberLimit: c.memberLimit,
    tags: c.tags ?? [],
    rules: c.rules,
    creator:
      row.creatorId !== null
        ? { id: row.creatorId, username: row.creatorUsername!, displayName: row.creatorDisplayName!, avatar: row.creatorAvatar }
        : null,
    createdAt: c.createdAt.toISOString(),
    memberCount: c.memberCount,
    isMember,
    userRole: row.role,
    // A member has nothing pending; an approved request (or none) reads as "none".
    requestStatus: !isMember && (row.requestStatus === "pending" || row.requestStatus === "rejected") ? row.requestStatus : "none",
  };
}

/** GET /api/clubs/{id}: any club, public or private, is visible by name and description. */
export function getClub(actor: Actor, clubId: number, q: Queryable = db): Club {
  const row = clubQuery(actor?.id ?? 0, q).where(eq(clubs.id, clubId)).get();
  if (!row) throw notFound(CLUB_NOT_FOUND);
  return toClub(row);
}

export type ClubListOptions = {
  search?: string;
  onlyPublic?: boolean;
  onlyMine?: boolean;
  limit?: number;
  cursor?: string;
};

function encodeCursor(club: { createdAt: Date; id: number }) {
  return Buffer.from(`${club.createdAt.getTime()}:${club.id}`).toString("base64url");
}

function decodeCursor(cursor: string | undefined): { createdAt: number; id: number } | null {
  if (!cursor) return null;
  const match = /^(\d{1,15}):(\d{1,15})$/.exec(Buffer.from(cursor, "base64url").toString());
  return match ? { createdAt: Number(match[1]), id: Number(match[2]) } : null;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The club list, newest first, keyset-paginated on (created_at, id). Private clubs are listed too
 * (members must be able to find them to ask to join); their posts are not.
 */
export function listClubs(actor: Actor, options: ClubListOptions = {}): { clubs: Club[]; nextCursor: string | null } {
  if (options.onlyMine) requireSignedIn(actor);
  const limit = Math.max(1, Math.min(options.limit ?? CLUB_LIST_LIMIT_DEFAULT, 50));
  const conditions: SQL[] = [];
  if (options.onlyPublic) conditions.push(eq(clubs.isPrivate, false));
  if (options.onlyMine) conditions.push(sql`${myMembership.id} IS NOT NULL`);
  if (options.search) {
    const pattern = `%${escapeLike(options.search)}%`;
    conditions.push(
      or(
        sql`${clubs.name} LIKE ${pattern} ESCAPE '\\'`,
        sql`${clubs.description} LIKE ${pattern} ESCAPE '\\'`,
        sql`${clubs.location} LIKE ${pattern} ESCAPE '\\'`,
        sql`${clubs.tags} LIKE ${pattern} ESCAPE '\\'`,
      )!,
    );
  }
  const after = decodeCursor(options.cursor);
  if (after) {
    conditions.push(
      or(
        lt(clubs.createdAt, new Date(after.createdAt)),
        and(eq(clubs.createdAt, new Date(after.createdAt)), lt(clubs.id, after.id)),
      )!,
    );
  }
  const rows = clubQuery(actor?.id ?? 0)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(clubs.createdAt), desc(clubs.id))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    clubs: page.map(toClub),
    nextCursor: rows.length > limit && last ? encodeCursor(last.club) : null,
  };
}

/** GET /api/clubs/{id}/members: visible to everyone (SPEC.md §2), owner first, then by joining date. */
export function listMembers(clubId: number): ClubMember[] {
  requireClubRow(clubId);
  return db
    .select({
      id: users.id,
      username: users.username,
      displayName: users.displayName,
      avatar: users.avatar,
      role: clubMembers.role,
      joinedAt: clubMembers.joinedAt,
    })
    .from(clubMembers)
    .innerJoin(users, eq(users.id, clubMembers.userId))
    .where(eq(clubMembers.clubId, clubId))
    .orderBy(sql`CASE ${clubMembers.role} WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END`, clubMembers.joinedAt, clubMembers.id)
    .all()
    .map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString() }));
}

/** GET /api/clubs/{id}/requests: the owner sees pending requests, oldest first; anyone else 403. */
export function listJoinRequests(actor: Actor, clubId: number): JoinRequest[] {
  requireClubOwner(actor, clubId);
  return db
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
    .orderBy(joinRequests.createdAt, joinRequests.id)
    .all()
    .map((r) => ({
      id: r.id,
      message: r.message,
      createdAt: r.createdAt.toISOString(),
      user: { id: r.userId, username: r.username, displayName: r.displayName, avatar: r.avatar },
    }));
}

/** How many requests wait for the owner (the Requests tab's count). */
export function countPendingRequests(clubId: number): number {
  const row = db
    .select({ n: sql<number>`count(*)` })
    .from(joinRequests)
    .where(and(eq(joinRequests.clubId, clubId), eq(joinRequests.status, "pending")))
    .get();
  return row?.n ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Creating, editing and deleting
// ---------------------------------------------------------------------------------------------

/** POST /api/clubs: the creator becomes the owner and first member. */
export function createClub(actor: Actor, input: CreateClubInput): Club {
  const me = requireSignedIn(actor);
  return db.transaction((tx) => {
    const club = tx
      .insert(clubs)
      .values({
        name: input.name,
        description: input.description ?? "",
        imageUrl: input.imageUrl ?? null,
        location: input.location ?? null,
        isPrivate: input.isPrivate,
        memberLimit: input.memberLimit ?? null,
        tags: input.tags ?? [],
        rules: input.rules ?? null,
        creatorId: me.id,
        memberCount: 1,
      })
      .returning({ id: clubs.id })
      .get();
    tx.insert(clubMembers).values({ clubId: club.id, userId: me.id, role: "owner" }).run();
    return getClub(me, club.id, tx);
  });
}

/** PUT /api/clubs/{id} (owner only). Fields left out keep their value. */
export function updateClub(actor: Actor, clubId: number, input: EditClubInput): Club {
  const me = requireSignedIn(actor);
  return db.transaction(
    (tx) => {
      const club = requireClubOwner(me, clubId, tx).club;
      if (input.maxMembers != null && input.maxMembers < club.memberCount) {
        throw invalid({ maxMembers: [`The club already has ${club.memberCount} members`] });
      }
      const changes: Partial<typeof clubs.$inferInsert> = { name: input.name, description: input.description };
      if (input.imageUrl !== undefined) changes.imageUrl = input.imageUrl;
      if (input.location !== undefined) changes.location = input.location;
      if (input.maxMembers !== undefined) changes.memberLimit = input.maxMembers;
      if (input.isPrivate !== undefined) changes.isPrivate = input.isPrivate;
      if (input.tags !== undefined) changes.tags = input.tags;
      if (input.rules !== undefined) changes.rules = input.rules;
      tx.update(clubs).set(changes).where(eq(clubs.id, clubId)).run();
      return getClub(me, clubId, tx);
    },
    { behavior: "immediate" },
  );
}

/**
 * DELETE /api/clubs/{id} (owner only). Members, requests, invites and the club's posts (with their
 * comments, likes and media rows) go by foreign-key cascade; the authors' post counters are
 * corrected in the same transaction. The stored files of the removed posts' media are deleted once
 * that has committed (as deletePost does).
 */
export async function deleteClub(actor: Actor, clubId: number): Promise<void> {
  const me = requireSignedIn(actor);
  const files = db.transaction(
    (tx) => {
      requireClubOwner(me, clubId, tx);
      const clubPosts = tx.select({ id: posts.id }).from(posts).where(eq(posts.clubId, clubId));
      const stored = tx
        .select({ storageKey: media.storageKey, variants: media.variants })
        .from(media)
        .where(inArray(media.postId, clubPosts))
        .all();
      const authors = tx
        .select({ authorId: posts.authorId, n: sql<number>`count(*)` })
        .from(posts)
        .where(eq(posts.clubId, clubId))
        .groupBy(posts.authorId)
        .all();
      for (const { authorId, n } of authors) {
        tx.update(users)
          .set({ postsCount: sql`max(${users.postsCount} - ${n}, 0)` })
          .where(eq(users.id, authorId))
          .run();
      }
      tx.delete(clubs).where(eq(clubs.id, clubId)).run();
      return stored;
    },
    { behavior: "immediate" },
  );
  await deleteMediaFiles(files);
}

// ---------------------------------------------------------------------------------------------
// Joining, requests and leaving
// ---------------------------------------------------------------------------------------------

/**
 * Refuse a join by someone who already belongs or already waits. Returns the club and any earlier
 * request row (rejected, or approved before a leave), which a new request reuses.
 */
export function assertMayJoin(tx: Queryable, clubId: number, userId: number) {
  const club = requireClubRow(clubId, tx);
  if (getMembership(clubId, userId, tx)) throw conflict(ALREADY_MEMBER, undefined, "already_member");
  const request = tx
    .select()
    .from(joinRequests)
    .where(and(eq(joinRequests.clubId, clubId), eq(joinRequests.userId, userId)))
    .get();
  if (request?.status === "pending") throw conflict(REQUEST_PENDING, undefined, "request_pending");
  return { club, request };
}

/**
 * Take one place in the club and add the member, in the caller's transaction. The place is taken by
 * a conditional UPDATE, so the limit holds however many connections race for the last place.
 * Any request the member had is marked approved.
 */
export function admitMember(tx: Queryable, clubId: number, userId: number, role: ClubRole = "member"): void {
  const taken = tx
    .update(clubs)
    .set({ memberCount: sql`${clubs.memberCount} + 1` })
    .where(and(eq(clubs.id, clubId), sql`(${clubs.memberLimit} IS NULL OR ${clubs.memberCount} < ${clubs.memberLimit})`))
    .returning({ id: clubs.id })
    .get();
  if (!taken) throw conflict(CLUB_FULL);
  tx.insert(clubMembers).values({ clubId, userId, role }).run();
  tx.update(joinRequests)
    .set({ status: "approved", decidedAt: new Date() })
    .where(and(eq(joinRequests.clubId, clubId), eq(joinRequests.userId, userId), inArray(joinRequests.status, ["pending", "rejected"])))
    .run();
}

function isFull(club: ClubRow) {
  return club.memberLimit !== null && club.memberCount >= club.memberLimit;
}

export type JoinResult = { status: "joined" } | { status: "pending" };

/**
 * POST /api/clubs/{id}/join without an invite (invites go through acceptInvite in
 * invite.server.ts). A public club admits directly; a private one records a request for the owner
 * (a rejected requester may re-apply: the same row goes back to pending). A full club refuses both.
 */
export function joinClub(actor: Actor, clubId: number, input: { message?: string } = {}): JoinResult {
  const me = requireSignedIn(actor);
  return db.transaction(
    (tx) => {
      const { club, request } = assertMayJoin(tx, clubId, me.id);
      if (!club.isPrivate) {
        admitMember(tx, clubId, me.id);
        return { status: "joined" as const };
      }
      if (isFull(club)) throw conflict(CLUB_FULL);
      const message = input.message?.trim() || null;
      if (request) {
        tx.update(joinRequests)
          .set({ status: "pending", message, createdAt: new Date(), decidedAt: null })
          .where(eq(joinRequests.id, request.id))
          .run();
      } else {
        tx.insert(joinRequests).values({ clubId, userId: me.id, message, status: "pending" }).run();
      }
      return { status: "pending" as const };
    },
    { behavior: "immediate" },
  );
}

/** POST /api/clubs/{id}/requests/{requestId} (owner only): approve admits (unless full), reject refuses. */
export function decideJoinRequest(
  actor: Actor,
  clubId: number,
  requestId: number,
  action: RequestDecision,
): { status: "approved" | "rejected" } {
  const me = requireSignedIn(actor);
  return db.transaction(
    (tx) => {
      requireClubOwner(me, clubId, tx);
      const request = tx
        .select()
        .from(joinRequests)
        .where(and(eq(joinRequests.id, requestId), eq(joinRequests.clubId, clubId)))
        .get();
      if (!request) throw notFound("Join request not found");
      if (request.status !== "pending") throw conflict("This request has already been decided");
      if (action === "reject") {
        tx.update(joinRequests).set({ status: "rejected", decidedAt: new Date() }).where(eq(joinRequests.id, requestId)).run();
        return { status: "rejected" as const };
      }
      if (getMembership(clubId, request.userId, tx)) {
        // Joined meanwhile through an invite: the request is simply settled.
        tx.update(joinRequests).set({ status: "approved", decidedAt: new Date() }).where(eq(joinRequests.id, requestId)).run();
        return { status: "approved" as const };
      }
      admitMember(tx, clubId, request.userId);
      return { status: "approved" as const };
    },
    { behavior: "immediate" },
  );
}

/** POST /api/clubs/{id}/leave: any member but the owner (400). */
export function leaveClub(actor: Actor, clubId: number): void {
  const me = requireSignedIn(actor);
  db.transaction(
    (tx) => {
      requireClubRow(clubId, tx);
      const membership = getMembership(clubId, me.id, tx);
      if (!membership) throw badRequest("You are not a member of this club");
      if (membership.role === "owner") throw badRequest(OWNER_CANNOT_LEAVE);
      tx.delete(clubMembers).where(and(eq(clubMembers.clubId, clubId), eq(clubMembers.userId, me.id))).run();
      tx.update(clubs)
        .set({ memberCount: sql`max(${clubs.memberCount} - 1, 0)` })
        .where(eq(clubs.id, clubId))
        .run();
    },
    { behavior: "immediate" },
  );
}

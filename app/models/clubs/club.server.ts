import { and, desc, eq, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { clubMembers, clubs, joinRequests, media, posts, users, type ClubRole } from "#db/schema";
import type { CreateClubInput, EditClubInput } from "~/schemas/club";
import { CLUB_LIST_LIMIT_DEFAULT, CLUB_NOT_FOUND } from "~/schemas/club";
import { db, decrementCounter, first, writeTransaction } from "~/utils/db.server";
import { containsIgnoringCase } from "~/utils/db/sql-dialect.server";
import { invalid, notFound } from "~/utils/errors";
import { consumeLimit } from "~/utils/rate-limit.server";
import { requireClubOwner, requireSignedIn, type Queryable } from "~/models/access.server";
import { deleteMediaFiles, type MediaFiles } from "~/models/media/media.server";
import type { Actor } from "~/models/members/user.server";
import type { Club } from "~/schemas/shapes";

/**
 * Clubs: creating, finding, editing and deleting them (SPEC.md §2–6, CONTRACT.md §2). Joining,
 * join requests, leaving and the member list live in club-membership.server.ts. Every function
 * checks its own permissions and throws the error family.
 */

type ClubRow = typeof clubs.$inferSelect;

// Membership checks and the private-club rule live in access.server.ts (also used by the posts
// domain); re-exported here for the callers that know them from this module.

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
export async function getClub(actor: Actor, clubId: number, q: Queryable = db): Promise<Club> {
  const row = first(await clubQuery(actor?.id ?? 0, q).where(eq(clubs.id, clubId)));
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

/** The statement of one page of the club list (exported for the bench's EXPLAIN QUERY PLAN). */
export function clubListQuery(actor: Actor, options: ClubListOptions, limit: number) {
  const conditions: SQL[] = [];
  if (options.onlyPublic) conditions.push(eq(clubs.isPrivate, false));
  if (options.onlyMine) conditions.push(sql`${myMembership.id} IS NOT NULL`);
  if (options.search) {
    const text = options.search;
    conditions.push(
      or(
        containsIgnoringCase(clubs.name, text),
        containsIgnoringCase(clubs.description, text),
        containsIgnoringCase(clubs.location, text),
        containsIgnoringCase(clubs.tags, text),
      )!,
    );
  }
  const after = decodeCursor(options.cursor);
  if (after) {
    conditions.push(
      or(lt(clubs.createdAt, new Date(after.createdAt)), and(eq(clubs.createdAt, new Date(after.createdAt)), lt(clubs.id, after.id)))!,
    );
  }
  return clubQuery(actor?.id ?? 0)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(clubs.createdAt), desc(clubs.id))
    .limit(limit + 1);
}

/**
 * The club list, newest first, keyset-paginated on (created_at, id). Private clubs are listed too
 * (members must be able to find them to ask to join); their posts are not.
 */
export async function listClubs(actor: Actor, options: ClubListOptions = {}): Promise<{ clubs: Club[]; nextCursor: string | null }> {
  if (options.onlyMine) requireSignedIn(actor);
  const limit = Math.max(1, Math.min(options.limit ?? CLUB_LIST_LIMIT_DEFAULT, 50));
  const rows = await clubListQuery(actor, options, limit);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    clubs: page.map(toClub),
    nextCursor: rows.length > limit && last ? encodeCursor(last.club) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Creating, editing and deleting
// ---------------------------------------------------------------------------------------------

/** POST /api/clubs: the creator becomes the owner and first member. At most `LIMITS.clubsPerUser` a day (429). */
export function createClub(actor: Actor, input: CreateClubInput): Promise<Club> {
  const me = requireSignedIn(actor);
  return writeTransaction(async (tx) => {
    await consumeLimit("clubsPerUser", String(me.id));
    const [club] = await tx
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
      .returning({ id: clubs.id });
    await tx.insert(clubMembers).values({ clubId: club.id, userId: me.id, role: "owner" });
    return getClub(me, club.id, tx);
  });
}

/** PUT /api/clubs/{id} (owner only). Fields left out keep their value. */
export function updateClub(actor: Actor, clubId: number, input: EditClubInput): Promise<Club> {
  const me = requireSignedIn(actor);
  return writeTransaction(async (tx) => {
    const { club } = await requireClubOwner(me, clubId, tx);
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
    await tx.update(clubs).set(changes).where(eq(clubs.id, clubId));
    return getClub(me, clubId, tx);
  });
}

/**
 * DELETE /api/clubs/{id} (owner only). Members, requests, invites and the club's posts (with their
 * comments, likes and media rows) go by foreign-key cascade; the authors' post counters are
 * corrected in the same transaction. The stored files of the removed posts' media are deleted once
 * that has committed (as deletePost does).
 */
export async function deleteClub(actor: Actor, clubId: number): Promise<void> {
  const me = requireSignedIn(actor);
  const files = await writeTransaction(async (tx) => {
    await requireClubOwner(me, clubId, tx);
    return removeClub(tx, clubId);
  });
  await deleteMediaFiles(files);
}

/**
 * Delete a club in the caller's transaction (deleteClub, and account deletion for a club no one is
 * left to take over), correcting its posts' authors' counters. Returns its posts' media files, for
 * deleteMediaFiles once the transaction has committed.
 */
export async function removeClub(tx: Queryable, clubId: number): Promise<MediaFiles[]> {
  const clubPosts = tx.select({ id: posts.id }).from(posts).where(eq(posts.clubId, clubId));
  const stored = await tx
    .select({ storageKey: media.storageKey, variants: media.variants })
    .from(media)
    .where(inArray(media.postId, clubPosts));
  const authors = await tx
    .select({ authorId: posts.authorId, n: sql<number>`count(*)` })
    .from(posts)
    .where(eq(posts.clubId, clubId))
    .groupBy(posts.authorId);
  for (const { authorId, n } of authors) {
    await tx
      .update(users)
      .set({ postsCount: decrementCounter(users.postsCount, Number(n)) })
      .where(eq(users.id, authorId));
  }
  await tx.delete(clubs).where(eq(clubs.id, clubId));
  return stored;
}

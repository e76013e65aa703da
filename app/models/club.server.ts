import { and, eq } from "drizzle-orm";
import { clubMembers, clubs, type ClubRole } from "#db/schema";
import { db } from "~/utils/db.server";
import type { Actor } from "./user.server";

/** The member's place in a club, or null when they are not a member. */
export function getMembership(clubId: number, userId: number): { role: ClubRole } | null {
  const row = db
    .select({ role: clubMembers.role })
    .from(clubMembers)
    .where(and(eq(clubMembers.clubId, clubId), eq(clubMembers.userId, userId)))
    .get();
  return row ?? null;
}

/**
 * May `actor` read this club's posts? A public club: anyone. A private club: its members only.
 * A club that does not exist: false (callers answer 404 either way, so a private club's existence
 * is not confirmed through its posts).
 */
export function canReadClub(actor: Actor, clubId: number): boolean {
  const club = db.select({ isPrivate: clubs.isPrivate }).from(clubs).where(eq(clubs.id, clubId)).get();
  if (!club) return false;
  if (!club.isPrivate) return true;
  return actor ? getMembership(clubId, actor.id) !== null : false;
}

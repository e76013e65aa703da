import type { Club } from "~/schemas/shapes";

// Apart from card.tsx so the club page's header does not carry the club list's card with them.

/** "12 members" or "12 / 30 members". */
export function memberCountText(club: Pick<Club, "memberCount" | "memberLimit">) {
  const noun = club.memberCount === 1 && club.memberLimit === null ? "member" : "members";
  return club.memberLimit !== null ? `${club.memberCount} / ${club.memberLimit} ${noun}` : `${club.memberCount} ${noun}`;
}

/** A club with a member limit that it has reached: nobody can join until someone leaves. */
export const isClubFull = (club: Pick<Club, "memberCount" | "memberLimit">) =>
  club.memberLimit !== null && club.memberCount >= club.memberLimit;

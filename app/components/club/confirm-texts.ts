import type { Club } from "~/schemas/shapes";

/**
 * The club page's confirmations (delete, leave): apart from forms.tsx, whose edit form (and Conform
 * with it) the page loads only when it is shown (docs/decisions/0044).
 */

export const DELETE_CLUB_TITLE = "Delete Club";
export const DELETE_CLUB_TEXT =
  "Are you sure you want to delete this club? Its members, requests, invites and posts will be removed. This action cannot be undone.";

/** The Leave Club confirmation (issue 14, beyond SPEC #2): from a private club there is no quick way back. */
export const leaveClubTitle = (club: Pick<Club, "name">) => `Leave ${club.name}?`;
export function leaveClubText(club: Pick<Club, "isPrivate">): string {
  return club.isPrivate
    ? "Are you sure you want to leave? This club is private: to come back you will need to request to join again and wait for the owner to approve you."
    : "Are you sure you want to leave? You will no longer see it among your clubs; you can join again later.";
}

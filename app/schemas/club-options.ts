/**
 * The club limits and messages pages show without validating anything: apart from `club.ts` so a
 * page that only shows them ships no zod (docs/decisions/0044). `club.ts` re-exports them.
 */

/** A club page's tabs, each a nested route of /clubs/{id} (posts is the club page itself). */
export const CLUB_TABS = ["posts", "events", "members", "rules", "requests", "invites"] as const;
export type ClubTab = (typeof CLUB_TABS)[number];

/** Shown by the club page and answered by /api/clubs/{id} for a club that does not exist. */
export const CLUB_NOT_FOUND = "Club Not Found";

export const CLUB_NAME_MAX = 100;
export const CLUB_DESCRIPTION_MAX = 2000;
export const CLUB_RULES_MAX = 5000;
export const CLUB_TAGS_MAX = 20;
export const CLUB_TAG_MAX_LENGTH = 40;
export const CREATE_LIMIT_MAX = 1000;
export const EDIT_LIMIT_MAX = 100;
export const INVITE_USES_MAX = 100_000;
/** Ten years: far enough for "long-lived", small enough that the timestamp stays sane. */
export const INVITE_HOURS_MAX = 87_600;

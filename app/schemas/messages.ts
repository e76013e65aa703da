import type { HiddenNotice } from "./shapes";
/**
 * SPEC.md §8's sign-in notices, in one place: the domain throws them, pages and cards show them.
 * Browser-safe.
 */
export const SIGN_IN = {
  like: "Please sign in to like posts",
  comment: "Please sign in to comment",
  share: "Please sign in to share posts",
  createPost: "Please log in to create posts",
  editPost: "Please log in to edit posts",
  deletePost: "Please log in to delete posts",
  settings: "Please log in to access your settings.",
} as const;

/** SPEC.md's titles for a page whose post or member is not there (or not visible to the viewer). */
export const POST_NOT_FOUND = "Post Not Found";
export const PROFILE_NOT_FOUND = "Profile Not Found";

/**
 * SPEC.md §8's toast for a send that failed with JavaScript on (a 5xx, a dropped or stalled
 * connection), by the form's intent; titled 'Error' unless SPEC gives the title.
 */
export const SEND_FAILED = {
  like: "Failed to update like",
  unlike: "Failed to update like",
  comment: "Failed to comment",
  "update-comment": "Failed to update comment",
  "delete-comment": "Failed to delete comment",
  update: "Failed to update post",
  delete: "Failed to delete post",
  createPost: "Failed to create post",
  createClub: "Failed to create club",
  join: "Failed to join club",
  leave: "Failed to leave club",
  "delete-club": "Failed to delete club",
  "update-club": "Failed to update club",
  invite: "Failed to generate invite",
  revoke: "Failed to revoke invite",
  approve: "Failed to approve request",
  reject: "Failed to reject request",
  follow: "Failed to follow",
  unfollow: "Failed to unfollow",
  "update-profile": "Failed to update profile",
  avatar: "Failed to update avatar",
  other: "Something went wrong. Please try again.",
} as const;

/** A password-reset link that has expired, was used, or never existed. */
export const RESET_LINK_INVALID = "This reset link has expired or has already been used.";

/** /join/{code} for an invite that does not exist, has expired or is used up. */
export const INVITE_INVALID = "This invite link is invalid or has expired.";

export const REMOVED_BY_MODERATOR = "Removed by a moderator";
/** A club's owner or admin removed it (CONTRACT.md §12), not the site's moderators (ux-3 U10). */
export const REMOVED_BY_CLUB_STAFF = "Removed by the club's staff";
export const HIDDEN_AFTER_REPORTS = "Hidden after reports while a moderator looks at it";

/** What the author (and the staff) read on hidden content (CONTRACT.md §8). */
export function hiddenNoticeText(hidden: HiddenNotice): string {
  if (hidden.reason === null) return HIDDEN_AFTER_REPORTS;
  return `${hidden.by === "club" ? REMOVED_BY_CLUB_STAFF : REMOVED_BY_MODERATOR}: ${hidden.reason}`;
}

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

import * as z from "zod/mini";
import { MENTION_SUGGESTIONS, type Mentionable } from "~/utils/mention-typing";

/**
 * The @mention suggestions' lookup (ux-3 U20): `GET /api/users?mention=<text>` reads this schema.
 * `text` is what a member typed after `@`: the start of a username, or of any word of a display name
 * (letters of any script, digits, underscores). Browser-safe.
 */

export { MENTION_SUGGESTIONS };
/** The longest text looked up (a username is at most 20; a display name's word may be longer). */
export const MENTION_QUERY_MAX = 30;

export const MENTION_QUERY_MESSAGES = {
  missing: "Type at least one letter after @ to look for members",
  tooLong: `Look for members with at most ${MENTION_QUERY_MAX} characters after @`,
  characters: "Look for members with letters, digits and underscores only",
} as const;

export const mentionQuerySchema = z
  .string({ error: MENTION_QUERY_MESSAGES.missing })
  .check(
    z.trim(),
    z.minLength(1, MENTION_QUERY_MESSAGES.missing),
    z.maxLength(MENTION_QUERY_MAX, MENTION_QUERY_MESSAGES.tooLong),
    z.regex(/^[\p{L}\p{N}_]+$/u, MENTION_QUERY_MESSAGES.characters),
  );

/** One member a mention may name: only what every member may see of another. */
export type MentionSuggestion = Mentionable;

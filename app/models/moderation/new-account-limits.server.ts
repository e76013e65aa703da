import { and, eq, gte } from "drizzle-orm";
import { comments, posts, users } from "#db/schema";
import { db, first } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { tooMany } from "~/utils/errors";
import { rateLimitsEnabled, tryAgainIn } from "~/utils/rate-limit.server";
import { readerTimeZone } from "~/utils/reader-time.server";
import { clockOnDay } from "~/utils/time-zone";
import { linksIn, mentionsIn } from "~/utils/text-links";
import { countMembersNamed } from "~/models/posts/mention.server";

/**
 * First-day caps (CONTRACT.md §8 "Automatic limits"): for NEW_ACCOUNT_HOURS after sign-up a member
 * may make at most 3 posts (club posts included) and 20 comments, with at most 2 links and 2
 * @mentions of members in each text. Over a cap: 429 with Retry-After and a message saying when the cap lifts.
 * They are limits like the others: RATE_LIMITS=off turns them off (NEW_ACCOUNT_HOURS=0 too).
 *
 * Posts and comments are counted from the member's own rows since sign-up, read inside the write's
 * own transaction (the caller's `writeTransaction`: BEGIN IMMEDIATE on SQLite, SERIALIZABLE on
 * PostgreSQL), so two writes at once cannot both take the last one. The reads go through
 * posts_author_recent (author_id, created_at, id) and comments_author (author_id), and stop at the
 * cap: a new account has few rows, and an older one is not counted at all.
 */
export const NEW_ACCOUNT_LIMITS = {
  posts: 3,
  comments: 20,
  linksPerText: 2,
  mentionsPerText: 2,
} as const;

const HOUR = 3_600_000;

/** `edit`: the text of an edited post or comment (its links and mentions are capped; it is not counted again). */
export type NewAccountWrite = { kind: "post" | "comment"; texts: (string | null | undefined)[]; edit?: boolean };

/** "first day" for 24 hours, "first 48 hours" otherwise. */
function firstPeriod(hours: number): string {
  return hours === 24 ? "first day" : `first ${hours} hour${hours === 1 ? "" : "s"}`;
}

/**
 * "in 5 hours, at 08:05 CST on 28 Nov": relative (right in any time zone) and the moment itself in
 * the reader's zone (UTC when the request names none: ux-3 U15).
 */
export function whenItLifts(liftsAt: number, now: number, zone = readerTimeZone()): string {
  return `${tryAgainIn((liftsAt - now) / 1000)}, at ${clockOnDay(liftsAt, zone)}`;
}

/**
 * Throws 429 when a member whose account is younger than NEW_ACCOUNT_HOURS would go past a
 * first-day cap with this post or comment. Call it inside the write's transaction, before the row
 * is inserted (or, for an edit, updated). `texts`: a post's title, content and URL field; a comment's content.
 */
export async function enforceNewAccountLimits(
  authorId: number,
  { kind, texts, edit = false }: NewAccountWrite,
  now = Date.now(),
  hours = env.NEW_ACCOUNT_HOURS,
): Promise<void> {
  if (!rateLimitsEnabled() || hours <= 0) return;
  const member = first(await db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, authorId)));
  if (!member) return;
  const since = member.createdAt;
  const liftsAt = since.getTime() + hours * HOUR;
  if (now >= liftsAt) return;
  const retryAfter = Math.max(1, Math.ceil((liftsAt - now) / 1000));
  const when = whenItLifts(liftsAt, now);
  const period = firstPeriod(hours);

  const cap = kind === "post" ? NEW_ACCOUNT_LIMITS.posts : NEW_ACCOUNT_LIMITS.comments;
  const made = edit
    ? []
    : await (kind === "post"
        ? db
            .select({ id: posts.id })
            .from(posts)
            .where(and(eq(posts.authorId, authorId), gte(posts.createdAt, since)))
            .limit(cap)
        : db
            .select({ id: comments.id })
            .from(comments)
            .where(and(eq(comments.authorId, authorId), gte(comments.createdAt, since)))
            .limit(cap));
  if (made.length >= cap) {
    throw tooMany(retryAfter, `New accounts can make ${cap} ${kind}s in their ${period}. You can ${kind} again ${when}.`);
  }

  const links = linksIn(...texts).size;
  if (links > NEW_ACCOUNT_LIMITS.linksPerText) {
    throw tooMany(
      retryAfter,
      `New accounts can put at most ${NEW_ACCOUNT_LIMITS.linksPerText} links in a ${kind} in their ${period} (this one has ${links}). ` +
        `Remove some, or send it ${when}.`,
    );
  }
  // Only names that are members count: the rest are plain text, linking and telling nobody (ux-3 U6).
  const mentioned = mentionsIn(...texts);
  const mentions = mentioned.size > NEW_ACCOUNT_LIMITS.mentionsPerText ? await countMembersNamed(mentioned) : mentioned.size;
  if (mentions > NEW_ACCOUNT_LIMITS.mentionsPerText) {
    throw tooMany(
      retryAfter,
      `New accounts can mention at most ${NEW_ACCOUNT_LIMITS.mentionsPerText} people in a ${kind} in their ${period} (this one mentions ${mentions}). ` +
        `Remove some, or send it ${when}.`,
    );
  }
}

import { and, asc, desc, ne, notInArray, type SQL } from "drizzle-orm";
import { safeParse } from "zod/v4/core";
import { users } from "#db/schema";
import { MENTION_QUERY_MESSAGES, MENTION_SUGGESTIONS, mentionQuerySchema, type MentionSuggestion } from "~/schemas/mention";
import { db } from "~/utils/db.server";
import { caseFolded, hasWordStartingWith, startsWithIgnoringCase } from "~/utils/db/sql-dialect.server";
import { invalid } from "~/utils/errors";
import { requireSignedIn } from "~/models/access.server";
import { notBlockedEitherWay } from "./block.server";
import { notSuspendedAt, type Actor } from "./user.server";

/**
 * Who an @mention may name, as a member types it (ux-3 U20, `GET /api/users?mention=`): members whose
 * username starts with the text, or one of whose display name's words does ("dan" finds Dani Ortiz,
 * @scrapeline). Signed-in members only (401); never the member asking, a suspended member, nor
 * anyone either of the two blocked (CONTRACT.md §8: no notification crosses a block, so a mention
 * there would name someone who is never told). Only what every member sees of another: username,
 * display name, avatar.
 *
 * At most MENTION_SUGGESTIONS: usernames first, read as a range of the case-blind username index in
 * its order; display names by a scan with LIKE (no index serves "a word starts with"; fine at a
 * community's size of members table, and capped by LIMIT), most followed first. When both kinds
 * match, each keeps at least half the places. Fewer than MENTION_SUGGESTIONS means these are all the
 * members the text finds, so the browser may narrow a longer text from them without asking again.
 */

export const MENTION_SIGN_IN = "Sign in to look for members to mention";

const publicFields = { id: users.id, username: users.username, displayName: users.displayName, avatar: users.avatar };
type Row = { id: number; username: string; displayName: string; avatar: string | null };

/** The text as looked up (trimmed), or 400 with the schema's message. */
export function parseMentionQuery(raw: unknown): string {
  const parsed = safeParse(mentionQuerySchema, raw ?? "");
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]?.message ?? MENTION_QUERY_MESSAGES.missing;
  throw invalid({ mention: [message] }, message);
}

/** Whom `viewerId` may be offered: not themself, not suspended at `now`, no block either way. */
const mentionable = (viewerId: number, now: number, ...more: (SQL | undefined)[]) =>
  and(ne(users.id, viewerId), notSuspendedAt(now), notBlockedEitherWay(users.id, viewerId), ...more);

/** The members whose username starts with `text` (ASCII word characters), in the username index's order; exported for the plan check. */
export function byUsernamePrefixQuery(viewerId: number, text: string, now: number) {
  return db
    .select(publicFields)
    .from(users)
    .where(mentionable(viewerId, now, startsWithIgnoringCase(users.username, text)))
    .orderBy(caseFolded(users.username))
    .limit(MENTION_SUGGESTIONS);
}

export async function suggestMentions(actor: Actor, raw: unknown, now: number = Date.now()): Promise<MentionSuggestion[]> {
  const me = requireSignedIn(actor, MENTION_SIGN_IN);
  const text = parseMentionQuery(raw);
  const limit = MENTION_SUGGESTIONS;

  // A username is ASCII letters, digits and underscores: other text can only be a display name's.
  const byUsername: Row[] = /^\w+$/.test(text) ? await byUsernamePrefixQuery(me.id, text, now) : [];
  const byName: Row[] = await db
    .select(publicFields)
    .from(users)
    .where(
      mentionable(
        me.id,
        now,
        hasWordStartingWith(users.displayName, text),
        byUsername.length
          ? notInArray(
              users.id,
              byUsername.map((row) => row.id),
            )
          : undefined,
      ),
    )
    .orderBy(desc(users.followersCount), asc(users.id))
    .limit(limit);

  // Each kind keeps at least half the places when the other has enough to fill them.
  const half = Math.ceil(limit / 2);
  const names = byName.slice(0, Math.max(half, limit - byUsername.length));
  const chosen = [...byUsername.slice(0, limit - names.length), ...names];
  return chosen.map(({ username, displayName, avatar }) => ({ username, displayName, avatar }));
}

import { sql, type Placeholder, type SQL } from "drizzle-orm";
import { users } from "#db/schema";
import { db, preparedOnce, type Tx } from "~/utils/db.server";
import { inListIgnoringCase } from "~/utils/db/sql-dialect.server";
import { mentionedUsernames } from "~/utils/mentions";
import { notify } from "~/models/notifications/notification.server";

/**
 * @mentions of members (CONTRACT.md §7, issue 26; the rule for what a mention is: utils/mentions.ts).
 * A post's or comment's text shows a mention of a member who exists as a link to their profile, and
 * any other `@name` as the text it is: the server says which names exist, as `mentions` on the Post
 * or Comment (their usernames as spelled at sign-up), and only when the text has any, so an answer
 * without mentions is unchanged. One query per page of posts or comments, none when no text on it
 * mentions anyone; each text's first 10 distinct names at most.
 */

/** The members named (`names`: a JSON array of lower-case names), without regard to case through each engine's users_username_nocase index; exported for the plan check. */
export function membersNamedQuery(q: Tx, names: SQL | Placeholder) {
  return q.select({ id: users.id, username: users.username }).from(users).where(inListIgnoringCase(users.username, names));
}

// Read for every page that shows a text with a mention, so built and prepared once; the names go in as JSON.
const membersNamedPrepared = preparedOnce(() => membersNamedQuery(db, sql.placeholder("names")).prepare());

/** The members named (lower case), keyed by the lower-case name; through `q` inside a write. */
async function membersNamed(names: string[], q?: Tx): Promise<Map<string, { id: number; username: string }>> {
  if (names.length === 0) return new Map();
  const json = JSON.stringify(names);
  const rows = q ? await membersNamedQuery(q, sql`${json}`) : await membersNamedPrepared().execute({ names: json });
  return new Map(rows.map((row) => [row.username.toLowerCase(), row]));
}

/**
 * How many of `names` (lower case) are members: a mention that counts (shown as a link, notified).
 * The first-day cap counts these, not every `@` (ux-3 U6; CONTRACT.md §7: an unknown name stays
 * plain text). Through the caller's transaction when given.
 */
export async function countMembersNamed(names: Iterable<string>, q?: Tx): Promise<number> {
  return (await membersNamed([...names], q)).size;
}

/** Posts or comments with `mentions`: the members their text mentions who exist (in the text's order), when there are any. */
export async function withMentions<T extends { content: string }>(items: T[]): Promise<(T & { mentions?: string[] })[]> {
  const named = items.map((item) => mentionedUsernames(item.content));
  const members = await membersNamed([...new Set(named.flat())]);
  if (members.size === 0) return items;
  return items.map((item, i) => {
    const mentions = named[i]!.flatMap((name) => members.get(name)?.username ?? []);
    return mentions.length ? { ...item, mentions } : item;
  });
}

/**
 * Tells the members a post's or comment's text mentions (its first 10 distinct names that exist),
 * inside the write's transaction `tx`; on an edit (`before`: the text as it was) only those it did
 * not mention already. notify() leaves out the author, blocks either way and members who may not
 * read the post (a private club's).
 */
export async function notifyMentions(
  tx: Tx,
  actorId: number,
  about: { postId: number; commentId?: number },
  text: string,
  before?: string | null,
): Promise<void> {
  const already = new Set(mentionedUsernames(before));
  const names = mentionedUsernames(text).filter((name) => !already.has(name));
  const members = await membersNamed(names, tx);
  const ids = names.flatMap((name) => members.get(name)?.id ?? []);
  if (ids.length) await notify(ids, { kind: "mention", actorId, ...about }, tx);
}

/**
 * The @mention being typed, for the suggestions under a comment box or a post's content (ux-3 U20):
 * where it is, whom it may mean, and the text once a member is picked. Pure and browser-safe; the
 * rule for what a finished mention is stays in utils/mentions.ts.
 */

/** At most this many members are suggested (the server's limit, app/schemas/mention.ts, and the list's). */
export const MENTION_SUGGESTIONS = 6;

/** What is typed after `@` (letters of any script, digits, underscores; app/schemas/mention.ts), up to the caret, where `@` may start a mention (MENTION_PATTERN's rule: not inside a word, an address or a path). */
const TYPING = /(?<![\w@./])@([\p{L}\p{N}_]{0,30})$/u;
/** The rest of the word the caret is in. */
const WORD_REST = /^[\p{L}\p{N}_]*/u;

/** The mention being typed at `caret`: the `@`'s index, the end of the word it is in, and the text between (without `@`). */
export type TypedMention = { start: number; end: number; query: string };

export function mentionAt(text: string, caret: number): TypedMention | null {
  const found = TYPING.exec(text.slice(0, caret));
  if (!found) return null;
  const rest = WORD_REST.exec(text.slice(caret))![0];
  return { start: found.index, end: caret + rest.length, query: found[1]! };
}

/**
 * The text with `@username ` in place of the mention being typed (the whole word, also what follows
 * the caret), and the caret just after it. A space is added only when none follows already.
 */
export function insertMention(text: string, typed: TypedMention, username: string): { text: string; caret: number } {
  const after = text.slice(typed.end);
  const inserted = /^\s/.test(after) ? `@${username}` : `@${username} `;
  const caret = typed.start + inserted.length + (inserted.endsWith(" ") ? 0 : 1);
  return { text: text.slice(0, typed.start) + inserted + after, caret };
}

/** A member as the suggestions show them. */
export type Mentionable = { username: string; displayName: string; avatar: string | null };

/**
 * Whether `member` is one the server would find for `query` (mention-suggestions.server.ts): the
 * username starts with it, or one of the display name's words does, in any case. An empty query
 * finds everyone (the people already in the thread, offered as `@` is typed).
 */
export function mentionMatches(member: Mentionable, query: string): boolean {
  const q = query.toLowerCase();
  return (
    member.username.toLowerCase().startsWith(q) ||
    member.displayName
      .toLowerCase()
      .split(" ")
      .some((word) => word.startsWith(q))
  );
}

/**
 * @mentions in what a member writes (CONTRACT.md §7, issue 26): the one rule for what a mention is,
 * used by the first-day caps (text-links.ts), the links a post or comment shows (MentionText) and
 * the notifications a post or comment sends (mention.server.ts). Browser-safe and small: the post
 * page's browser code holds the pattern.
 *
 * A mention is `@` and a username as usernames are (app/schemas/auth.ts: 3–20 letters, digits or
 * underscores), not inside a word, an email address (`carol@example.com`), a path or a URL
 * (`example.com/@bob`), nor followed by more of a name (`@` and 21 letters is no mention at all).
 * Punctuation ends it: `@bob.` and `@bob's` mention bob.
 *
 * A text's mentions are its first MAX_MENTIONS distinct names (CONTRACT.md §7: at most 10 notified
 * per text); a name after those stays plain text, so what a reader sees as a link is who was told,
 * and a page's lookup of names stays bounded whatever a text holds.
 */

/** `@username` (`\w` is a username's letters, digits and underscore); group 1 is the name. One capture group, so `text.split` gives text, name, text, name … */
export const MENTION_PATTERN = /(?<![\w@./])@(\w{3,20})(?![\w@])/g;

/** CONTRACT.md §7: at most 10 members mentioned per text. */
export const MAX_MENTIONS = 10;

/**
 * The distinct usernames `text` mentions, lower case (usernames are unique without regard to case),
 * in the order they first appear, at most `max` of them.
 */
export function mentionedUsernames(text: string | null | undefined, max: number = MAX_MENTIONS): string[] {
  const found = new Set<string>();
  if (!text) return [];
  for (const match of text.matchAll(MENTION_PATTERN)) {
    if (found.size >= max) break;
    found.add(match[1]!.toLowerCase());
  }
  return [...found];
}

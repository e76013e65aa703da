/**
 * A post card's text (SPEC.md §2, §9: content cut at 200 characters plus an ellipsis). Pages that
 * list posts send the card only this preview (docs/decisions/0037-cheaper-home-rendering.md); the
 * full body is fetched when the author opens the Edit Post dialog.
 */
export const PREVIEW_CHARS = 200;

/** `text` cut at `max` characters plus an ellipsis (never inside a character); cutting a cut text again changes nothing. */
export function truncate(text: string, max = PREVIEW_CHARS): string {
  // Walks only the first `max` characters (code points), not the whole body: a card's long post
  // would otherwise be split into an array on every render.
  let end = 0;
  for (let n = 0; n < max && end < text.length; n++) end += (text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
  if (end >= text.length) return text;
  return `${text.slice(0, end).trimEnd()}…`;
}

/** A post as a card needs it: `preview` is true when `content` holds only the card's preview. */
export type WithPreview<P extends { content: string }> = P & { preview?: true };

/** The post with its content cut to the card's preview (and marked so), or as it is when short enough. */
export function withPreview<P extends { content: string }>(post: P): WithPreview<P> {
  const content = truncate(post.content);
  return content === post.content ? post : { ...post, content, preview: true };
}

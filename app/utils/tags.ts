/**
 * The one rule for tags, posts and clubs alike: split on commas, trim, collapse inner spaces, drop
 * empties, and keep the first of any that differ only in case. Post tags are also lower-cased
 * (SPEC.md §5: they are hashtags, searched by key); club tags keep the owner's spelling ("Public
 * Land"), as SPEC.md §5 asks only that they be unique, trimmed and non-empty.
 */
export const normalizeTag = (tag: string) => tag.trim().toLowerCase().replace(/\s+/g, " ");
/** A tag's search key drops spaces too ("Bow Hunting" -> "bowhunting"). */
export const tagKey = (tag: string) => tag.toLowerCase().replace(/\s+/g, "");

/**
 * Accepts an array of tags (JSON, or the chip editor's repeated inputs) or one comma-separated
 * string (the no-JS form field); an array's items may themselves hold commas. Non-strings are
 * skipped (a schema that must report them checks before calling this).
 */
export function parseTags(value: unknown, { keepCase = false }: { keepCase?: boolean } = {}): string[] {
  const items = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== "string") continue;
    for (const part of item.split(",")) {
      const tag = keepCase ? part.trim().replace(/\s+/g, " ") : normalizeTag(part);
      const key = tag.toLowerCase();
      if (!tag || seen.has(key)) continue;
      seen.add(key);
      out.push(tag);
    }
  }
  return out;
}

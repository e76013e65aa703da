/**
 * The one rule for tags, posts and clubs alike: split on commas, trim, collapse inner spaces,
 * lower-case (SPEC.md §5: hashtags, searched by key), drop empties and duplicates. Club tags follow
 * it too (issue 14 #31: "Public Land" beside "public land" looked like two sites); a club stored
 * before keeps its spelling until its next edit, which sends its tags through this rule.
 */
export const normalizeTag = (tag: string) => tag.trim().toLowerCase().replace(/\s+/g, " ");
/** A tag's search key drops spaces too ("Bow Hunting" -> "bowhunting"). */
export const tagKey = (tag: string) => tag.toLowerCase().replace(/\s+/g, "");

/**
 * Accepts an array of tags (JSON, or the chip editor's repeated inputs) or one comma-separated
 * string (the no-JS form field); an array's items may themselves hold commas. Non-strings are
 * skipped (a schema that must report them checks before calling this).
 */
export function parseTags(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== "string") continue;
    for (const part of item.split(",")) {
      const tag = normalizeTag(part);
      if (!tag || seen.has(tag)) continue;
      seen.add(tag);
      out.push(tag);
    }
  }
  return out;
}

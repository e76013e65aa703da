/** Tags are stored trimmed and lower-cased; their search key also drops spaces ("Bow Hunting" -> "bowhunting"). */
export const normalizeTag = (tag: string) => tag.trim().toLowerCase().replace(/\s+/g, " ");
export const tagKey = (tag: string) => tag.toLowerCase().replace(/\s+/g, "");

/**
 * Split, trim, lower-case, drop empties, dedupe. Accepts an array of tags (JSON, or the JavaScript
 * editor's repeated inputs) or one comma-separated string (the no-JS form field); an array's items
 * may themselves hold commas.
 */
export function parseTags(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== "string") continue;
    for (const part of item.split(",")) {
      const tag = normalizeTag(part);
      if (tag && !out.includes(tag)) out.push(tag);
    }
  }
  return out;
}

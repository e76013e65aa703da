/** Tags are stored trimmed and lower-cased; their search key also drops spaces ("Bow Hunting" -> "bowhunting"). */
export const normalizeTag = (tag: string) => tag.trim().toLowerCase().replace(/\s+/g, " ");
export const tagKey = (tag: string) => tag.toLowerCase().replace(/\s+/g, "");

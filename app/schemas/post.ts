import * as z from "zod/mini";
import { fallback, label, preprocess, stripInvisibleIn, text, toStorableText } from "./text";
import { parseTags } from "~/utils/tags";
import { isHttpUrl } from "~/utils/urls";
import { fieldReportField } from "./field-report";

/**
 * Post, comment and feed-filter inputs (SPEC.md §5). Browser-safe: used by Conform in the editor,
 * by the page actions and by /api/posts*. SPEC.md's messages live here and only here.
 */

// Plain constants live in post-options.ts (no zod) so pages that only display them stay light.
import {
  COMMENT_MAX,
  CONTENT_MAX,
  CONTENT_MIN,
  FEED_MAX_LIMIT,
  FEED_PAGE_SIZE,
  FEED_TYPES,
  MAX_TAG_LENGTH,
  MAX_TAGS,
  POST_TYPES,
  SORT_OPTIONS,
  TITLE_MAX,
} from "./post-options";
export * from "./post-options";

/** Tags: array or comma-separated string → normalised array; more than 10 → 'Too many tags'. */
const tagList = () => z.array(text().check(z.maxLength(MAX_TAG_LENGTH, "Tag too long"))).check(z.maxLength(MAX_TAGS, "Too many tags"));

export const tagsField = preprocess((v) => (v === undefined || v === null ? v : parseTags(stripInvisibleIn(v))), tagList());

const emptyToUndefined = (v: unknown) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v);

const httpUrl = text({ error: "Invalid URL format" }).check(
  z.trim(),
  z.maxLength(2000, "Invalid URL format"),
  z.refine(isHttpUrl, "Invalid URL format"),
);

/** Optional media URL: empty becomes absent. */
export const mediaUrlField = preprocess(emptyToUndefined, z.optional(httpUrl));

const title = label({ error: "Title is required" }).check(
  z.trim(),
  z.minLength(1, "Title is required"),
  z.maxLength(TITLE_MAX, "Title too long"),
);

const content = text({ error: "Content must be at least 10 characters" }).check(
  z.trim(),
  z.minLength(CONTENT_MIN, "Content must be at least 10 characters"),
  z.maxLength(CONTENT_MAX, "Content too long"),
);

const postType = z.enum(POST_TYPES, { error: "Choose a post type" });

const metaText = (max: number) =>
  preprocess(
    (v) => (typeof v === "string" ? toStorableText(v.slice(0, max)) : v === undefined ? undefined : null),
    z.optional(z.nullable(z.string())),
  );

const linkImage = () =>
  z.optional(preprocess((v) => (typeof v === "string" && isHttpUrl(v) ? v.slice(0, 2000) : null), z.nullable(z.string())));

/** Link metadata as the preview endpoint returned it (SPEC.md §3 Link metadata). Strings are capped. */
export const urlMetadataField = preprocess(
  (v) => {
    if (typeof v === "string") {
      if (v.trim() === "") return undefined;
      try {
        return JSON.parse(v);
      } catch {
        return undefined;
      }
    }
    return v === null ? undefined : v;
  },
  fallback(
    z.optional(
      z.object({
        title: metaText(300),
        description: metaText(1000),
        image: linkImage(),
        siteName: metaText(200),
        domain: metaText(253),
        logo: linkImage(),
        error: preprocess((v) => (typeof v === "string" ? v.slice(0, 300) : undefined), z.optional(z.string())),
      }),
    ),
    undefined,
  ),
);

/** Uploaded files: the URLs /api/upload answered (strings, or the `{url, type, name}` objects). */
export const uploadedFilesField = preprocess(
  (v) => {
    if (v === undefined || v === null || v === "") return undefined;
    const items = Array.isArray(v) ? v : [v];
    return items
      .map((item) =>
        typeof item === "string" ? item : item && typeof item === "object" && "url" in item ? (item as { url: unknown }).url : item,
      )
      .filter((item) => item !== "");
  },
  z.optional(
    z
      .array(z.string({ error: "Invalid file" }).check(z.maxLength(2000, "Invalid file")), { error: "Invalid file" })
      .check(z.maxLength(20, "Too many files")),
  ),
);

/** A checkbox's or JSON's yes: true, "true", "on"; a form's `off` before the box (so an unticked box says so) counts once, the last value wins. */
const sayYes = (v: unknown): boolean | undefined => {
  const last = Array.isArray(v) ? v[v.length - 1] : v;
  if (last === undefined || last === null || last === "") return undefined;
  return last === true || last === "on" || last === "true";
};

/** "Graphic photo" (CONTRACT.md §14): its media wait behind "Show photo". Absent on create: not marked. */
export const sensitiveField = preprocess(sayYes, z.optional(z.boolean()));

/** On edit: absent keeps the mark as it is; the edit form sends `off` then the box, so it always says. */
const sensitiveUpdateField = sensitiveField;

const clubIdField = preprocess(
  emptyToUndefined,
  z.optional(z.coerce.number({ error: "Invalid club" }).check(z.int("Invalid club"), z.positive("Invalid club"))),
);

/** Create post: POST /api/posts, /create and /clubs/{id}/create. */
export const postInputSchema = z.object({
  title,
  content,
  type: preprocess(emptyToUndefined, z._default(postType, "article")),
  mediaUrl: mediaUrlField,
  // SPEC.md §3 Post.tags: an array of strings or null; null is no tags.
  tags: preprocess((v) => (v === null ? undefined : v), z.optional(tagsField)),
  clubId: clubIdField,
  uploadedFiles: uploadedFilesField,
  urlMetadata: urlMetadataField,
  sensitive: sensitiveField,
  // A field report (CONTRACT.md §14): absent or blank, none.
  field: fieldReportField,
});
export type PostInput = z.infer<typeof postInputSchema>;

/**
 * Edit post: PUT /api/posts/{id} and the edit form. A PUT replaces what the editor shows:
 * - `mediaUrl` absent, empty or null clears it (a form that hides the field keeps the current value
 *   in a hidden input); when it changes, the stored link preview is dropped;
 * - `tags` absent, empty or null means no tags (stored as null, SPEC.md §5 Edit post);
 * - `type` absent keeps the current type;
 * - `sensitive` absent keeps the current mark (the form always sends it);
 * - `field` absent keeps the field report, null (or the form's part left blank) removes it.
 */
export const postUpdateSchema = z.object({
  title,
  content,
  type: preprocess(emptyToUndefined, z.optional(postType)),
  mediaUrl: preprocess((v) => (emptyToUndefined(v) === undefined ? null : v), z.nullable(httpUrl)),
  tags: preprocess((v) => {
    if (v === undefined || v === null) return null;
    const tags = parseTags(stripInvisibleIn(v));
    return tags.length ? tags : null;
  }, z.nullable(tagList())),
  sensitive: sensitiveUpdateField,
  field: fieldReportField,
});
export type PostUpdateInput = z.infer<typeof postUpdateSchema>;

/** Comment: whitespace-only is 'Comment cannot be empty'. */
export const commentSchema = z.object({
  content: text({ error: "Comment cannot be empty" }).check(
    z.trim(),
    z.minLength(1, "Comment cannot be empty"),
    z.maxLength(COMMENT_MAX, "Comment too long"),
  ),
});
export type CommentInput = z.infer<typeof commentSchema>;

const one = (v: unknown) => (Array.isArray(v) ? v[0] : v);

/**
 * The feed filter from a query string (GET /api/posts, the home page's GET form). Never throws:
 * junk falls back to the defaults (type all, sort recent, no search, 20 per page).
 */
export const feedQuerySchema = z.object({
  type: fallback(preprocess(one, fallback(z.enum(FEED_TYPES), "all")), "all"),
  sortBy: fallback(preprocess(one, fallback(z.enum(SORT_OPTIONS), "recent")), "recent"),
  search: fallback(
    preprocess((v) => {
      const s = one(v);
      if (typeof s !== "string") return undefined;
      const t = s.trim();
      return t ? t.slice(0, 200) : undefined;
    }, z.optional(z.string())),
    undefined,
  ),
  limit: fallback(
    preprocess((v) => {
      const s = one(v);
      const n = typeof s === "number" ? s : typeof s === "string" && /^\s*\d+\s*$/.test(s) ? Number(s) : NaN;
      if (!Number.isFinite(n)) return FEED_PAGE_SIZE;
      return Math.min(FEED_MAX_LIMIT, Math.max(1, Math.trunc(n)));
    }, z.int()),
    FEED_PAGE_SIZE,
  ),
  cursor: fallback(
    preprocess((v) => {
      const s = one(v);
      return typeof s === "string" && s && s.length <= 200 ? s : undefined;
    }, z.optional(z.string())),
    undefined,
  ),
  following: fallback(
    preprocess((v) => {
      const s = one(v);
      return s === true || s === "true" || s === "1" || s === "on";
    }, z.boolean()),
    false,
  ),
});
export type FeedQuery = z.infer<typeof feedQuerySchema>;

/** What the home page's filter bar shows and links keep: the feed query without paging. */
export type FeedFilters = Pick<FeedQuery, "type" | "sortBy" | "search" | "following">;

/** One line of the home page's 'Hot Tracks' (trending posts). */
export type TrendingItem = { id: number; title: string; authorName: string; likes: number };

/** Parse URLSearchParams (or a plain record) into a FeedQuery; never throws. */
export function parseFeedQuery(input: URLSearchParams | Record<string, unknown>): FeedQuery {
  const record: Record<string, unknown> = input instanceof URLSearchParams ? Object.fromEntries(input.entries()) : input;
  return feedQuerySchema.parse(record);
}

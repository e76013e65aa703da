import type { LinkMetadata, MediaKind } from "#db/schema";
import { isHttpUrl } from "~/utils/urls";

/**
 * Media limits, types and preview helpers without zod, so the cards of the home feed can use them
 * without shipping a validation library to the browser. The input schemas are in media.ts.
 */

/** SPEC.md §9: 50 MB per file. Enforced while streaming on the server, checked early in the browser. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
export const MAX_UPLOAD_LABEL = "50MB";

/** What the file pickers offer. The server decides the kind from the bytes, never from this. */
export const UPLOAD_ACCEPT = "image/*,video/*,audio/*";

export type { LinkMetadata, MediaKind } from "#db/schema";

/** A stored image size: `srcset` candidates, smallest first; `size` in bytes (data saver shows it). */
export type MediaVariant = { width: number; height: number; url: string; size?: number };

/** SPEC.md §3 Post.uploadedFiles item (plus what the page needs to avoid layout shift). */
export type UploadedFile = {
  type: MediaKind;
  url: string;
  name: string;
  width?: number | null;
  height?: number | null;
  variants?: MediaVariant[] | null;
  /** Bytes of the stored file (the full-size picture for an image). */
  size?: number | null;
};

/** True when a metadata object has something a card can show (not an error, not empty). */
export function hasPreview(metadata: LinkMetadata | null | undefined): boolean {
  if (!metadata || metadata.error) return false;
  return Boolean(metadata.title || metadata.description || metadata.image);
}

/** Image sources from metadata are shown only when they are plain https(s) addresses. */
export function safeImageUrl(value: string | null | undefined): string | null {
  return value && isHttpUrl(value) ? new URL(value).toString() : null;
}

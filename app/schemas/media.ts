import * as z from "zod/mini";
import { isHttpUrl } from "~/utils/urls";

/**
 * Media and link-preview inputs, shared by the browser (upload widget, link preview) and the server
 * (upload route, multipart parsing, metadata route). Browser-safe: no server code. The zod-free
 * constants and helpers live in media-options.ts (re-exported here).
 */
export * from "./media-options";

/** Only http(s) addresses are previewed (CONTRACT.md §4). */
export const previewUrl = z
  .string({ error: "Invalid URL format" })
  .check(z.trim(), z.maxLength(2048, "URL too long"), z.refine(isHttpUrl, "Invalid URL format"));

/** POST /api/fetch-url-metadata `{ url }`. */
export const linkPreviewRequestSchema = z.object({ url: previewUrl });

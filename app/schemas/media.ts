import { z } from "zod";

/**
 * Media and link-preview inputs, shared by the browser (upload widget, link preview) and the server
 * (upload route, multipart parsing, metadata route). Browser-safe: no server code. The zod-free
 * constants and helpers live in media-options.ts (re-exported here).
 */
export * from "./media-options";

/** Only http(s) addresses are previewed (CONTRACT.md §4). */
export const previewUrl = z
  .string({ error: "Invalid URL format" })
  .trim()
  .max(2048, "URL too long")
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && Boolean(url.hostname);
    } catch {
      return false;
    }
  }, "Invalid URL format");

/** POST /api/fetch-url-metadata `{ url }`. */
export const linkPreviewRequestSchema = z.object({ url: previewUrl });

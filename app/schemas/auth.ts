import { z } from "zod";
import { label, text } from "./text";

/** SPEC.md §5 messages live here and only here. Shared by Conform, the page actions and /api/auth/*. */

export const username = z
  .string({ error: "Username is required" })
  .trim()
  .min(1, "Username is required")
  .min(3, "Username must be at least 3 characters")
  .max(20, "Username too long")
  .regex(/^[A-Za-z0-9_]+$/, "Username may contain only letters, numbers and underscores");

export const password = z
  .string({ error: "Password must be at least 6 characters" })
  .min(6, "Password must be at least 6 characters")
  .max(200, "Password too long");

export const email = z
  .string({ error: "Invalid email address" })
  .trim()
  .max(254, "Invalid email address")
  .pipe(z.email("Invalid email address"));

export const bio = text().trim().max(500, "Bio too long");
export const location = label().trim().max(100, "Location too long");

const optionalText = <T extends z.ZodString>(schema: T) => z.preprocess((v) => (v === null || v === "" ? undefined : v), schema.optional());

export const loginSchema = z.object({
  username: z.string({ error: "Username is required" }).trim().min(1, "Username is required").max(100, "Username too long"),
  password,
});
export type LoginInput = z.infer<typeof loginSchema>;

export const inviteCode = z.string().trim().max(100, "Invalid invite code");

export const registerSchema = z.object({
  username,
  displayName: label({ error: "Display name must be at least 2 characters" })
    .trim()
    .min(2, "Display name must be at least 2 characters")
    .max(50, "Display name too long"),
  email,
  password,
  location: optionalText(location),
  bio: optionalText(bio),
  inviteCode: optionalText(inviteCode),
});
export type RegisterInput = z.infer<typeof registerSchema>;

/** Where to send a member after signing in: only paths on this site. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (!to || typeof to !== "string") return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}

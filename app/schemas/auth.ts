import * as z from "zod/mini";
import { label, preprocess, text } from "./text";

/** SPEC.md §5 messages live here and only here. Shared by Conform, the page actions and /api/auth/*. */

export const username = z
  .string({ error: "Username is required" })
  .check(
    z.trim(),
    z.minLength(1, "Username is required"),
    z.minLength(3, "Username must be at least 3 characters"),
    z.maxLength(20, "Username too long"),
    z.regex(/^[A-Za-z0-9_]+$/, "Username may contain only letters, numbers and underscores"),
  );

export const password = z
  .string({ error: "Password must be at least 6 characters" })
  .check(z.minLength(6, "Password must be at least 6 characters"), z.maxLength(200, "Password too long"));

export const email = z.pipe(
  z.string({ error: "Invalid email address" }).check(z.trim(), z.maxLength(254, "Invalid email address")),
  z.email("Invalid email address"),
);

export const bio = text().check(z.trim(), z.maxLength(500, "Bio too long"));
export const location = label().check(z.trim(), z.maxLength(100, "Location too long"));

const optionalText = <T extends z.ZodMiniType>(schema: T) =>
  preprocess((v) => (v === null || v === "" ? undefined : v), z.optional(schema));

export const loginSchema = z.object({
  username: z
    .string({ error: "Username is required" })
    .check(z.trim(), z.minLength(1, "Username is required"), z.maxLength(100, "Username too long")),
  password,
});
export type LoginInput = z.infer<typeof loginSchema>;

/** "Forgot password?": the account's username or email (ADR 0028). */
export const forgotPasswordSchema = z.object({
  identifier: z
    .string({ error: "Enter your username or email" })
    .check(z.trim(), z.minLength(1, "Enter your username or email"), z.maxLength(254, "Enter your username or email")),
});

export { RESET_LINK_INVALID } from "./messages";

export const inviteCode = z.string().check(z.trim(), z.maxLength(100, "Invalid invite code"));

export const registerSchema = z.object({
  username,
  displayName: label({ error: "Display name must be at least 2 characters" }).check(
    z.trim(),
    z.minLength(2, "Display name must be at least 2 characters"),
    z.maxLength(50, "Display name too long"),
  ),
  email,
  password,
  location: optionalText(location),
  bio: optionalText(bio),
  inviteCode: optionalText(inviteCode),
});
export type RegisterInput = z.infer<typeof registerSchema>;

const HOME = "http://home.invalid";
/** A path: `/`, then printable ASCII only (no space, tab, newline, CR, VT, U+3000 or any control). */
const PLAIN_PATH = /^\/[\x21-\x7e]{0,2047}$/;

/** `//host`, `/\host`, or either once the whitespace or control characters browsers strip are gone. */
function namesAnotherHost(path: string): boolean {
  const second = path.charCodeAt(1);
  return path[1] === "/" || path[1] === "\\" || second <= 0x20 || second === 0x7f || /\s/u.test(path[1] ?? "");
}

/**
 * Where to send a member after signing in, uploading an avatar, joining…: the one rule for every
 * redirect target a client supplies (`redirectTo`, `returnTo`). Only a plain path on this site is
 * kept; anything else (a scheme, `//host`, a backslash, whitespace or control characters that
 * browsers strip and Node refuses in a `Location`, their percent-encoded forms) gives `fallback`.
 * Never throws.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !PLAIN_PATH.test(to) || to.includes("\\") || namesAnotherHost(to)) return fallback;
  try {
    if (namesAnotherHost(decodeURIComponent(to))) return fallback;
    return new URL(to, HOME).origin === HOME ? to : fallback;
  } catch {
    return fallback;
  }
}

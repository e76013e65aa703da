import * as z from "zod/mini";
import { label, text } from "./text";
import { email, password } from "./auth";

/**
 * Profile, settings and password-change inputs (SPEC.md §5 Profile edit, Password change). Browser-safe:
 * used by Conform on /profile/{username} and /settings, by their actions and by the JSON routes
 * (PATCH /api/users/{username}, PUT /api/auth/profile, PUT /api/auth/password).
 *
 * Conform turns an empty form field into `undefined`; the JSON surface may send `null` or "" to
 * clear bio or location. Both reach the domain as "clear it" (see `updateProfile`).
 */

export const DISPLAY_NAME_MAX = 50;

export const displayName = label({ error: "Display name is required" }).check(
  z.trim(),
  z.minLength(1, "Display name is required"),
  z.maxLength(DISPLAY_NAME_MAX, "Display name too long"),
);

/** Bio and location keep registration's limits (SPEC.md §5, §9). */
export const bio = text({ error: "Bio too long" }).check(z.trim(), z.maxLength(500, "Bio too long"));
export const location = label({ error: "Location too long" }).check(z.trim(), z.maxLength(100, "Location too long"));

const clearable = <T extends z.ZodMiniType>(schema: T) => z.nullish(schema);

/** The Edit Profile dialog: display name, bio, location. */
export const profileSchema = z.object({
  displayName,
  bio: clearable(bio),
  location: clearable(location),
});
export type ProfileInput = z.infer<typeof profileSchema>;

/**
 * The member's current password, asked for only when the email changes (security-2 N4): the schema
 * cannot tell whether the address changed, so it is optional here and `updateProfile` requires it.
 */
export const EMAIL_CHANGE_NEEDS_PASSWORD = "Enter your current password to change your email";
const currentPasswordForEmail = z.optional(
  z.string({ error: EMAIL_CHANGE_NEEDS_PASSWORD }).check(z.maxLength(200, "Current password is incorrect")),
);

/**
 * The settings Profile tab and PUT /api/auth/profile: the same fields plus a valid email, and the
 * current password when that email is a new one.
 */
export const settingsProfileSchema = z.extend(profileSchema, { email, currentPassword: currentPasswordForEmail });
export type SettingsProfileInput = z.infer<typeof settingsProfileSchema>;

/**
 * PATCH /api/users/{username}: SPEC.md §7 sends either the profile fields or `{avatar}`. Fields that are
 * absent stay as they are; `avatar: null` removes the avatar. A new email needs `currentPassword`.
 */
export const profilePatchSchema = z.object({
  displayName: z.optional(displayName),
  email: z.optional(email),
  currentPassword: currentPasswordForEmail,
  bio: clearable(bio),
  location: clearable(location),
  avatar: z.optional(z.nullable(text({ error: "Invalid avatar" }).check(z.trim(), z.maxLength(2000, "Invalid avatar")))),
});
export type ProfilePatchInput = z.infer<typeof profilePatchSchema>;

/**
 * A new password typed twice, plus `shape`'s fields: Change password (with the current one) and the
 * "Forgot password?" link's form. 'Passwords don't match' is reported on the confirm field.
 */
type NewPassword = { newPassword: string; confirmPassword: string };
function withNewPassword<S extends z.core.$ZodShape>(shape: S) {
  return z
    .object({
      ...shape,
      newPassword: password,
      confirmPassword: z.string({ error: "Please confirm your password" }).check(z.minLength(1, "Please confirm your password")),
    })
    .check(
      z.refine((v) => (v as NewPassword).newPassword === (v as NewPassword).confirmPassword, {
        message: "Passwords don't match",
        path: ["confirmPassword"],
        // Report a mismatch even while another field is still wrong, as long as both passwords were typed.
        when: (payload) => {
          const v = payload.value as { newPassword?: unknown; confirmPassword?: unknown } | undefined;
          return typeof v?.newPassword === "string" && typeof v?.confirmPassword === "string" && v.confirmPassword !== "";
        },
      }),
    );
}

export const passwordChangeSchema = withNewPassword({
  currentPassword: z
    .string({ error: "Current password is required" })
    .check(z.minLength(1, "Current password is required"), z.maxLength(200, "Current password is incorrect")),
});
/** The form behind a reset link (/reset-password/{token}): registration's password rules. */
export const passwordResetSchema = withNewPassword({});
export type PasswordResetInput = z.infer<typeof passwordResetSchema>;
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;

/** Settings › Privacy "Delete my account" and DELETE /api/auth/account: the member's password. */
export const accountDeletionSchema = z.object({
  password: z
    .string({ error: "Password is required" })
    .check(z.minLength(1, "Password is required"), z.maxLength(200, "Password is incorrect")),
});
export type AccountDeletionInput = z.infer<typeof accountDeletionSchema>;

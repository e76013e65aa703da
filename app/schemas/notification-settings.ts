import * as z from "zod/mini";
import { EMAIL_CHOICES, NOTIFICATION_KIND_NAMES, type EmailChoice, type NotificationKindName } from "./notification-settings-options";

export * from "./notification-settings-options";

/**
 * Settings › Notifications (CONTRACT.md §7): `PUT /api/notifications/settings` and the settings
 * page's form read the same words; browser-safe (no server imports).
 */

const EMAIL_VALUES = EMAIL_CHOICES.map((c) => c.value) as [EmailChoice, ...EmailChoice[]];
const CLUB = "Choose clubs by their id";

/** A PUT may send any part; what it leaves out stays as it was. */
export const notificationSettingsSchema = z.object({
  inApp: z.optional(z.partialRecord(z.enum(NOTIFICATION_KIND_NAMES as [NotificationKindName, ...NotificationKindName[]]), z.boolean())),
  email: z.optional(z.enum(EMAIL_VALUES, { error: "Email must be off, instant, daily or weekly" })),
  push: z.optional(z.boolean({ error: "Push must be true or false" })),
  clubPosts: z.optional(
    z.array(z.number({ error: CLUB }).check(z.int(CLUB), z.positive(CLUB))).check(z.maxLength(500, "Choose at most 500 clubs")),
  ),
});
export type NotificationSettingsInput = z.infer<typeof notificationSettingsSchema>;

import * as z from "zod/mini";

/**
 * Settings › Notifications (CONTRACT.md §7): `PUT /api/notifications/settings` and the settings
 * page's form read the same words; browser-safe (no server imports).
 */

/** Every kind, in the order the settings page lists them (club posts are chosen per club). */
export const NOTIFICATION_KIND_LABELS = {
  comment: "Comments on my posts",
  mention: "Mentions of me",
  like: "Likes on my posts",
  follow: "New followers",
  join_request: "Requests to join my clubs",
  request_approved: "My join requests approved",
  request_rejected: "My join requests declined",
  invite_joined: "Members joining through my invites",
  moderation: "Moderators' decisions on my posts and comments",
  club_post: "New posts in clubs I chose",
} as const;
export type NotificationKindName = keyof typeof NOTIFICATION_KIND_LABELS;
export const NOTIFICATION_KIND_NAMES = Object.keys(NOTIFICATION_KIND_LABELS) as NotificationKindName[];

export const EMAIL_CHOICES = [
  { value: "off", label: "Off", hint: "No notification emails." },
  { value: "instant", label: "Instant", hint: "An email as soon as something happens." },
  { value: "daily", label: "Daily digest", hint: "At most one email a day, of what you have not read." },
  { value: "weekly", label: "Weekly digest", hint: "At most one email a week, of what you have not read." },
] as const;
export type EmailChoice = (typeof EMAIL_CHOICES)[number]["value"];

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

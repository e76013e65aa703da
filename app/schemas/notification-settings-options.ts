/**
 * Settings › Notifications' words and choices (CONTRACT.md §7), apart from the zod schema
 * (notification-settings.ts) so the settings page's first load does not carry zod.
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
  report: "New reports to moderate (staff)",
  club_event: "New hunts in my clubs",
  event_reminder: "Reminders a day before hunts I'm going to",
  event_cancelled: "Hunts I'm going to cancelled",
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

import { notificationSettingsOf, updateNotificationSettings } from "~/models/notifications/notification-settings.server";
import { notificationSettingsSchema } from "~/schemas/notification-settings";
import { apiAction, apiLoader, jsonResponse, readJson } from "~/web/api.server";
import { NO_STORE } from "~/web/cache-control.server";
import { requireActor } from "~/web/session.server";

/**
 * GET / PUT /api/notifications/settings → `{ inApp, email, push, clubPosts }` (CONTRACT.md §7).
 * A PUT may send any part; clubs the member is not in are left out. Signed out 401, bad body 400.
 */
export const loader = apiLoader(async ({ request }) => {
  const member = await requireActor(request);
  return jsonResponse(await notificationSettingsOf(member.id), NO_STORE);
});

export const action = apiAction({
  PUT: async ({ request }) => {
    const member = await requireActor(request);
    const change = await readJson(request, notificationSettingsSchema);
    return jsonResponse(await updateNotificationSettings(member, change), NO_STORE);
  },
});

import { suggestMentions } from "~/models/members/mention-suggestions.server";
import { apiLoader, jsonResponse } from "~/web/api.server";
import { getSessionUser } from "~/web/session.server";

/**
 * GET /api/users?mention=<text> → 200 an array of at most 6 members `{ username, displayName, avatar }`
 * an @mention may name: username or a display name's word starting with the text (ux-3 U20, the
 * comment box's and post editor's suggestions). Signed out: 401; no text, more than 30 characters
 * or other than letters, digits and underscores: 400. `private, no-cache` (apiLoader: a member's answer).
 */
export const loader = apiLoader(async ({ request }) => {
  const actor = await getSessionUser(request);
  const mention = new URL(request.url).searchParams.get("mention");
  return jsonResponse(await suggestMentions(actor, mention));
});

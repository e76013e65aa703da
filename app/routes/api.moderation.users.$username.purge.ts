import * as z from "zod/mini";
import { purgeMember } from "~/models/moderation/waves.server";
import { apiAction, jsonResponse, methodNotAllowed, readJson } from "~/web/api.server";
import { getSessionUser } from "~/web/session.server";

/** Any JSON object: purgeMember checks who asks before it checks what they sent. */
const anyObject = z.looseObject({});

/**
 * POST /api/moderation/users/{username}/purge {reason, days} → 200 {username, posts, comments}, how
 * many of each were removed (CONTRACT.md §12 "Spam waves"): site staff only, as suspension.
 */
export const action = apiAction({
  POST: async ({ request, params }) => {
    const actor = await getSessionUser(request);
    const body = await readJson(request, anyObject);
    return jsonResponse(await purgeMember(actor, params.username ?? "", body));
  },
});

export const loader = methodNotAllowed;

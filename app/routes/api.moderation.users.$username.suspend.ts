import * as z from "zod/mini";
import { suspendMember } from "~/models/moderation/suspension.server";
import { apiAction, jsonResponse, methodNotAllowed, readJson } from "~/web/api.server";
import { getSessionUser } from "~/web/session.server";

/** Any JSON object: suspendMember checks who asks before it checks what they sent. */
const anyObject = z.looseObject({});

/**
 * POST /api/moderation/users/{username}/suspend {reason, days?} → 200 the member's status
 * (CONTRACT.md §8): site staff only; no days is until lifted; every session of the member ends.
 */
export const action = apiAction({
  POST: async ({ request, params }) => {
    const actor = await getSessionUser(request);
    const body = await readJson(request, anyObject);
    return jsonResponse(await suspendMember(actor, params.username ?? "", body));
  },
});

export const loader = methodNotAllowed;

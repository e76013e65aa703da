import { unsuspendMember } from "~/models/moderation/suspension.server";
import { apiAction, jsonResponse, methodNotAllowed } from "~/web/api.server";
import { getSessionUser } from "~/web/session.server";

/** POST /api/moderation/users/{username}/unsuspend → 200 the member's status (CONTRACT.md §8). No body is read. */
export const action = apiAction({
  POST: async ({ request, params }) => jsonResponse(await unsuspendMember(await getSessionUser(request), params.username ?? "")),
});

export const loader = methodNotAllowed;

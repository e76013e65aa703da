import { followUser, unfollowUser } from "~/models/members/follow.server";
import { apiAction, jsonResponse, methodNotAllowed } from "~/web/api.server";
import { getSessionUser } from "~/web/session.server";

/**
 * POST / DELETE /api/users/{username}/follow → 200 `{following, followersCount}` (CONTRACT.md §2).
 * Idempotent; following oneself is 400; signed out is 401. No body is read.
 */
export const action = apiAction({
  POST: async ({ request, params }) => jsonResponse(await followUser(await getSessionUser(request), params.username ?? "")),
  DELETE: async ({ request, params }) => jsonResponse(await unfollowUser(await getSessionUser(request), params.username ?? "")),
});

export const loader = methodNotAllowed;

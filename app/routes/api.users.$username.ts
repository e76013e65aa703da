import { getProfile, requireSelf, updateProfile } from "~/models/members/profile.server";
import { PROFILE_NOT_FOUND } from "~/schemas/messages";
import { profilePatchSchema } from "~/schemas/profile";
import { apiAction, apiLoader, jsonResponse, readJson } from "~/web/api.server";
import { NO_STORE } from "~/web/cache-control.server";
import { notFound } from "~/utils/errors";
import { getSessionUser, requireActor } from "~/web/session.server";

/**
 * GET /api/users/{username}: the member (SPEC.md §3 User) with `isFollowing` for the viewer; the email
 * only when the viewer is that member.
 * PATCH /api/users/{username} (self only): `{displayName, bio, location}` and/or `{avatar}` → 200 the
 * updated member. Absent fields are left as they are; a new `email` needs `currentPassword` (400 on
 * fieldErrors.currentPassword otherwise, security-2 N4).
 */
export const loader = apiLoader(async ({ request, params }) => {
  const actor = await getSessionUser(request);
  const profile = await getProfile(actor, params.username ?? "");
  return jsonResponse(profile, "email" in profile ? NO_STORE : undefined);
});

export const action = apiAction({
  PATCH: async ({ request, params }) => {
    const actor = await requireActor(request);
    const username = params.username ?? "";
    if (!username) throw notFound(PROFILE_NOT_FOUND);
    await requireSelf(actor, username); // someone else's profile is 403 whatever the body says
    return jsonResponse(await updateProfile(actor, username, await readJson(request, profilePatchSchema)));
  },
});

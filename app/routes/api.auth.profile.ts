import { updateProfile } from "~/models/members/profile.server";
import { settingsProfileSchema } from "~/schemas/profile";
import { apiAction, jsonResponse, methodNotAllowed, readJson } from "~/web/api.server";
import { requireActor } from "~/web/session.server";

/**
 * PUT /api/auth/profile `{displayName, email, bio, location, currentPassword?}` → 200 the signed-in
 * member (with email). A new email needs `currentPassword` (missing or wrong: 400 with
 * fieldErrors.currentPassword; security-2 N4); an email another member uses: 409 with fieldErrors.email. Bio and location: null or "" clears them,
 * absent leaves them as they are.
 */
export const action = apiAction({
  PUT: async ({ request }) => {
    const actor = await requireActor(request);
    const input = await readJson(request, settingsProfileSchema);
    return jsonResponse(await updateProfile(actor, actor.username, input));
  },
});

export const loader = methodNotAllowed;

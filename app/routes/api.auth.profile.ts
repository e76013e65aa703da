import { json } from "@remix-run/node";
import { updateProfile } from "~/models/profile.server";
import { settingsProfileSchema } from "~/schemas/profile";
import { apiAction, methodNotAllowed, readJson } from "~/web/api.server";
import { requireActor } from "~/web/session.server";

/**
 * PUT /api/auth/profile `{displayName, email, bio, location}` → 200 the signed-in member (with email).
 * An email another member uses: 409 with fieldErrors.email. Bio and location: null or "" clears them,
 * absent leaves them as they are.
 */
export const action = apiAction({
  PUT: async ({ request }) => {
    const actor = await requireActor(request);
    const input = await readJson(request, settingsProfileSchema);
    return json(updateProfile(actor, actor.username, input));
  },
});

export const loader = methodNotAllowed;

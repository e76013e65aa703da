import { changePassword } from "~/models/members/profile.server";
import { passwordChangeSchema } from "~/schemas/profile";
import { apiAction, methodNotAllowed, readJson } from "~/web/api.server";
import { commitUserSession, requireActor } from "~/web/session.server";

/**
 * PUT /api/auth/password `{currentPassword, newPassword, confirmPassword}` → 204. A wrong current
 * password is 400 with fieldErrors.currentPassword. Every session of the member ends on the server;
 * this device is signed in again with a fresh session and token, so it stays signed in.
 */
export const action = apiAction({
  PUT: async ({ request }) => {
    const actor = await requireActor(request);
    const input = await readJson(request, passwordChangeSchema);
    await changePassword(actor, input);
    return new Response(null, {
      status: 204,
      headers: { "Set-Cookie": await commitUserSession(actor, request), "Cache-Control": "no-store" },
    });
  },
});

export const loader = methodNotAllowed;

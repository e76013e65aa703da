import { signUpWithInvite } from "~/models/members/auth.server";
import { toSelfUser } from "~/models/members/user.server";
import { registerSchema } from "~/schemas/auth";
import { apiAction, jsonResponse, methodNotAllowed, readJson } from "~/web/api.server";
import { clientAddress } from "~/web/params.server";
import { invalid } from "~/utils/errors";
import { commitUserSession } from "~/web/session.server";

/**
 * POST /api/auth/register-with-invite {username, displayName, email, password, location?, bio?,
 * inviteCode} → 201 the user, signed in and a member of the invite's club (one use taken). The
 * account and the membership are one transaction: an invalid, expired or used-up code (400) or a
 * full club (409) creates no account.
 */
export const action = apiAction({
  POST: async ({ request }) => {
    const input = await readJson(request, registerSchema);
    const code = input.inviteCode;
    if (!code) throw invalid({ inviteCode: ["Invite code is required"] }, "Invite code is required");
    const { user, clubId } = await signUpWithInvite(input, clientAddress(request), code);
    return jsonResponse(
      { ...toSelfUser(user), clubId },
      { status: 201, headers: { "Set-Cookie": await commitUserSession(user, request) } },
    );
  },
});

export const loader = methodNotAllowed;

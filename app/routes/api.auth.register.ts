import { signUp } from "~/models/members/auth.server";
import { toSelfUser } from "~/models/members/user.server";
import { registerSchema } from "~/schemas/auth";
import { apiAction, jsonResponse, methodNotAllowed, readJson } from "~/web/api.server";
import { clientAddress } from "~/web/params.server";
import { commitUserSession } from "~/web/session.server";

/** POST /api/auth/register: 201 the new member, signed in; 409 when the name or email is taken. */
export const action = apiAction({
  POST: async ({ request }) => {
    const input = await readJson(request, registerSchema);
    const user = await signUp(input, clientAddress(request));
    return jsonResponse(toSelfUser(user), { status: 201, headers: { "Set-Cookie": await commitUserSession(user, request) } });
  },
});

export const loader = methodNotAllowed;

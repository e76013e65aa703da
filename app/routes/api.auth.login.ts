import { signIn } from "~/models/members/auth.server";
import { toSelfUser } from "~/models/members/user.server";
import { loginSchema } from "~/schemas/auth";
import { apiAction, jsonResponse, methodNotAllowed, readJson } from "~/web/api.server";
import { clientAddress } from "~/web/params.server";
import { commitUserSession } from "~/web/session.server";

/** POST /api/auth/login {username, password}: 200 the member, signed in; 401 on a wrong pair. */
export const action = apiAction({
  POST: async ({ request }) => {
    const input = await readJson(request, loginSchema);
    const user = await signIn(input, clientAddress(request));
    return jsonResponse(toSelfUser(user), { headers: { "Set-Cookie": await commitUserSession(user, request) } });
  },
});

export const loader = methodNotAllowed;

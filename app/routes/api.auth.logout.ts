import { apiAction, methodNotAllowed } from "~/web/api.server";
import { destroyUserSession } from "~/web/session.server";

/** POST /api/auth/logout: 204, the session cookie cleared. No body is read. */
export const action = apiAction({
  POST: async ({ request }) => new Response(null, { status: 204, headers: { "Set-Cookie": await destroyUserSession(request) } }),
});

export const loader = methodNotAllowed;

import { apiAction, methodNotAllowed } from "~/web/api.server";
import { CLEAR_CACHE } from "~/web/cache-control.server";
import { destroyUserSession } from "~/web/session.server";

/** POST /api/auth/logout: 204, the session cookie and the browser's cache cleared. No body is read. */
export const action = apiAction({
  POST: async ({ request }) =>
    new Response(null, { status: 204, headers: { ...CLEAR_CACHE, "Set-Cookie": await destroyUserSession(request) } }),
});

export const loader = methodNotAllowed;

import { apiAction, methodNotAllowed } from "~/web/api.server";
import { signOutHeaders } from "~/web/sign-out.server";

/** POST /api/auth/logout: 204, the session cookie and the browser's cache cleared. No body is read. */
export const action = apiAction({
  POST: async ({ request }) => new Response(null, { status: 204, headers: await signOutHeaders(request) }),
});

export const loader = methodNotAllowed;

import { apiLoader, jsonResponse } from "~/web/api.server";
import { NO_STORE } from "~/web/cache-control.server";
import { requireActor } from "~/web/session.server";

/** GET /api/auth/user: the signed-in member (with their own email), or 401. */
export const loader = apiLoader(async ({ request }) => {
  const user = await requireActor(request);
  return jsonResponse(user, NO_STORE);
});

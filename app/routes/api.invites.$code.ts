import { getInvite, INVALID_INVITE } from "~/models/clubs/invite.server";
import { apiLoader, jsonResponse } from "~/web/api.server";
import { NO_STORE } from "~/web/cache-control.server";
import { notFound } from "~/utils/errors";

/** GET /api/invites/{code} → 200 the invite; invalid, revoked, expired or used up → 404. */
export const loader = apiLoader(async ({ params }) => {
  if (!params.code) throw notFound(INVALID_INVITE);
  return jsonResponse(await getInvite(params.code), NO_STORE);
});

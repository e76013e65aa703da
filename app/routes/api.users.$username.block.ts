import { blockMember, unblockMember } from "~/models/members/block.server";
import { apiAction, jsonResponse, methodNotAllowed } from "~/web/api.server";
import { getSessionUser } from "~/web/session.server";

/**
 * POST / DELETE /api/users/{username}/block → 200 `{ blocked }` (CONTRACT.md §8 "Blocks").
 * Idempotent; blocking oneself is 400; an unknown member 404; signed out 401. No body is read.
 */
export const action = apiAction({
  POST: async ({ request, params }) => jsonResponse(await blockMember(await getSessionUser(request), params.username ?? "")),
  DELETE: async ({ request, params }) => jsonResponse(await unblockMember(await getSessionUser(request), params.username ?? "")),
});

export const loader = methodNotAllowed;

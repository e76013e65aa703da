import { decideJoinRequest } from "~/models/clubs/club-membership.server";
import { CLUB_NOT_FOUND, requestDecisionSchema } from "~/schemas/club";
import { apiAction, jsonResponse, methodNotAllowed, readJson } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { requireActor } from "~/web/session.server";

/** POST /api/clubs/{id}/requests/{requestId} {action: approve | reject} → 200 {status} (the owner and club admins, CONTRACT.md §8; else 403). */
export const action = apiAction({
  POST: async ({ request, params }) => {
    const id = idParam(params.id, CLUB_NOT_FOUND);
    const requestId = idParam(params.requestId, "Join request not found");
    const actor = await requireActor(request);
    const { action } = await readJson(request, requestDecisionSchema);
    return jsonResponse(await decideJoinRequest(actor, id, requestId, action));
  },
});

export const loader = methodNotAllowed;

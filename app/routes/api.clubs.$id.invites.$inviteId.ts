import { CLUB_NOT_FOUND } from "~/schemas/club";
import { revokeInvite } from "~/models/clubs/invite.server";
import { apiAction, methodNotAllowed } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { requireActor } from "~/web/session.server";

/** DELETE /api/clubs/{id}/invites/{inviteId} → 204: revoke (the member who made it, or the owner). */
export const action = apiAction({
  DELETE: async ({ request, params }) => {
    const id = idParam(params.id, CLUB_NOT_FOUND);
    const inviteId = idParam(params.inviteId, "Invite not found");
    const actor = await requireActor(request);
    await revokeInvite(actor, id, inviteId);
    return new Response(null, { status: 204 });
  },
});

export const loader = methodNotAllowed;

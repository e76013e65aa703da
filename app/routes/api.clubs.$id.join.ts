import { joinClub } from "~/models/clubs/club-membership.server";
import { CLUB_NOT_FOUND, joinSchema } from "~/schemas/club";
import { acceptInvite } from "~/models/clubs/invite.server";
import { apiAction, jsonResponse, methodNotAllowed, readJson } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { requireActor } from "~/web/session.server";

/**
 * POST /api/clubs/{id}/join {message?, inviteCode?}: a public club, or a valid invite for this club,
 * → 200 {status:"joined"}; a private club → 201 {status:"pending"}. 409 'Already a member of this
 * club' / 'Join request already pending' / 'Club is full'; a bad invite code → 400.
 */
export const action = apiAction({
  POST: async ({ request, params }) => {
    const id = idParam(params.id, CLUB_NOT_FOUND);
    const actor = await requireActor(request);
    const input = await readJson(request, joinSchema);
    if (input.inviteCode) {
      await acceptInvite(actor, input.inviteCode, id);
      return jsonResponse({ status: "joined" }, { status: 200 });
    }
    const result = await joinClub(actor, id, { message: input.message });
    return jsonResponse(result, { status: result.status === "joined" ? 200 : 201 });
  },
});

export const loader = methodNotAllowed;

import { leaveClub } from "~/models/clubs/club-membership.server";
import { CLUB_NOT_FOUND } from "~/schemas/club";
import { apiAction, methodNotAllowed } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { requireActor } from "~/web/session.server";

/** POST /api/clubs/{id}/leave → 204; the owner cannot leave (400). */
export const action = apiAction({
  POST: async ({ request, params }) => {
    const id = idParam(params.id, CLUB_NOT_FOUND);
    const actor = await requireActor(request);
    await leaveClub(actor, id);
    return new Response(null, { status: 204 });
  },
});

export const loader = methodNotAllowed;

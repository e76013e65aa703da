import { CLUB_NOT_FOUND, inviteSchema } from "~/schemas/club";
import { createInvite, listInvites } from "~/models/clubs/invite.server";
import { apiAction, apiLoader, jsonResponse, readJson } from "~/web/api.server";
import { NO_STORE } from "~/web/cache-control.server";
import { idParam } from "~/web/params.server";
import { requireActor } from "~/web/session.server";

/** GET /api/clubs/{id}/invites → 200 the club's active invites (members only). */
export const loader = apiLoader(async ({ request, params }) => {
  const id = idParam(params.id, CLUB_NOT_FOUND);
  const actor = await requireActor(request);
  return jsonResponse(await listInvites(actor, id), NO_STORE);
});

/** POST /api/clubs/{id}/invites {usesRemaining?, expiresIn? (hours)} → 201 {inviteCode, usesRemaining, expiresAt, …}. */
export const action = apiAction({
  POST: async ({ request, params }) => {
    const id = idParam(params.id, CLUB_NOT_FOUND);
    const actor = await requireActor(request);
    const input = await readJson(request, inviteSchema);
    return jsonResponse(await createInvite(actor, id, input), { status: 201 });
  },
});

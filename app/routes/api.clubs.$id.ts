import { deleteClub, getClub, updateClub } from "~/models/clubs/club.server";
import { CLUB_NOT_FOUND, editClubSchema } from "~/schemas/club";
import { apiAction, apiLoader, jsonResponse, readJson } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { getSessionUser, requireActor } from "~/web/session.server";

/** GET /api/clubs/{id} → 200 the club (any club, public or private, is visible by name). */
export const loader = apiLoader(async ({ request, params }) => {
  const id = idParam(params.id, CLUB_NOT_FOUND);
  const actor = await getSessionUser(request);
  return jsonResponse(await getClub(actor, id));
});

export const action = apiAction({
  /** PUT /api/clubs/{id} {name, description, location, maxMembers, isPrivate, tags, rules} → 200 the club (owner). */
  PUT: async ({ request, params }) => {
    const id = idParam(params.id, CLUB_NOT_FOUND);
    const actor = await requireActor(request);
    const input = await readJson(request, editClubSchema);
    return jsonResponse(await updateClub(actor, id, input));
  },
  /** DELETE /api/clubs/{id} → 204 (owner); members, requests, invites and posts go with it. */
  DELETE: async ({ request, params }) => {
    const id = idParam(params.id, CLUB_NOT_FOUND);
    const actor = await requireActor(request);
    await deleteClub(actor, id);
    return new Response(null, { status: 204 });
  },
});

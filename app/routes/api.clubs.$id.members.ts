import { listMembers } from "~/models/clubs/club-membership.server";
import { CLUB_NOT_FOUND } from "~/schemas/club";
import { apiLoader, jsonResponse } from "~/web/api.server";
import { idParam } from "~/web/params.server";

/** GET /api/clubs/{id}/members → 200 the members (visible to everyone, SPEC.md §2), owner first. */
export const loader = apiLoader(async ({ params }) => {
  const id = idParam(params.id, CLUB_NOT_FOUND);
  return jsonResponse(await listMembers(id));
});

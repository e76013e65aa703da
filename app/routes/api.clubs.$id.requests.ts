import { listJoinRequests } from "~/models/clubs/club-membership.server";
import { CLUB_NOT_FOUND } from "~/schemas/club";
import { apiLoader, jsonResponse } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { requireActor } from "~/web/session.server";

/** GET /api/clubs/{id}/requests → 200 the pending requests, oldest first (the owner and club admins, CONTRACT.md §8; else 403). */
export const loader = apiLoader(async ({ request, params }) => {
  const id = idParam(params.id, CLUB_NOT_FOUND);
  const actor = await requireActor(request);
  return jsonResponse(await listJoinRequests(actor, id), { headers: { "Cache-Control": "private, no-store" } });
});

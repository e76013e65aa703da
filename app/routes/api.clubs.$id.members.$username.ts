import * as z from "zod/mini";
import { removeClubMember, setClubMemberRole } from "~/models/clubs/club-membership.server";
import { CLUB_NOT_FOUND } from "~/schemas/club";
import { apiAction, jsonResponse, methodNotAllowed, readJson } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { getSessionUser } from "~/web/session.server";

/** Any JSON object: setClubMemberRole checks who asks before what they sent. */
const anyObject = z.looseObject({});

/**
 * Club staff (CONTRACT.md §8): PUT {role: "admin"|"member"} → 200 the member (the owner only, not on
 * the owner); DELETE → 204 (the owner and admins; not the owner; an admin not another admin).
 */
export const action = apiAction({
  PUT: async ({ request, params }) => {
    const id = idParam(params.id, CLUB_NOT_FOUND);
    const actor = await getSessionUser(request);
    const body = await readJson(request, anyObject);
    return jsonResponse(await setClubMemberRole(actor, id, params.username ?? "", body));
  },
  DELETE: async ({ request, params }) => {
    const id = idParam(params.id, CLUB_NOT_FOUND);
    await removeClubMember(await getSessionUser(request), id, params.username ?? "");
    return new Response(null, { status: 204 });
  },
});

export const loader = methodNotAllowed;

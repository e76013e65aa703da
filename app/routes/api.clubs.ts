import { createClub, listClubs } from "~/models/clubs/club.server";
import { createClubSchema, parseClubListQuery } from "~/schemas/club";
import { apiAction, apiLoader, jsonResponse, listPageResponse, readJson } from "~/web/api.server";
import { getSessionUser, requireActor } from "~/web/session.server";

/**
 * GET /api/clubs?search=&onlyPublic=true&onlyMine=true&limit=&cursor= → 200 an array of clubs, each
 * with the caller's isMember / userRole / requestStatus; `Link: <…>; rel="next"` when more exist.
 * onlyMine needs a signed-in caller (401).
 */
export const loader = apiLoader(async ({ request }) => {
  const actor = await getSessionUser(request);
  const url = new URL(request.url);
  const page = await listClubs(actor, parseClubListQuery(url.searchParams));
  return listPageResponse(url, page.clubs, page.nextCursor);
});

/** POST /api/clubs {name, description, imageUrl, location, isPrivate, memberLimit, rules, tags} → 201 the club. */
export const action = apiAction({
  POST: async ({ request }) => {
    const actor = await requireActor(request);
    const input = await readJson(request, createClubSchema);
    const club = await createClub(actor, input);
    return jsonResponse(club, { status: 201, headers: { Location: `/api/clubs/${club.id}` } });
  },
});

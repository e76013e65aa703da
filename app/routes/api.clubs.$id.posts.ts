import { CLUB_NOT_FOUND } from "~/schemas/club";
import { listFeed } from "~/models/feeds/feed.server";
import { parseFeedQuery } from "~/schemas/post";
import { apiLoader, listPageResponse } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { getSessionUser } from "~/web/session.server";

/**
 * GET /api/clubs/{id}/posts?type=&sortBy=&search=&limit=&cursor= → 200 the club's posts (a private
 * club's only to its members: 403 otherwise); `Link: <…>; rel="next"` when more exist.
 */
export const loader = apiLoader(async ({ request, params }) => {
  const id = idParam(params.id, CLUB_NOT_FOUND);
  const actor = await getSessionUser(request);
  const url = new URL(request.url);
  const { following: _following, ...query } = parseFeedQuery(url.searchParams);
  const page = await listFeed(actor, { ...query, clubId: id });
  return listPageResponse(url, page.posts, page.nextCursor);
});

import { listFeed } from "~/models/feeds/feed.server";
import { requireUserRow } from "~/models/members/profile.server";
import { parseFeedQuery } from "~/schemas/post";
import { apiLoader, listPageResponse } from "~/web/api.server";
import { getSessionUser } from "~/web/session.server";

/**
 * GET /api/users/{username}/posts?type=&sortBy=&search=&limit=&cursor= → 200 the member's posts as a
 * JSON array, like GET /api/posts: club posts only from public clubs or clubs the viewer belongs to;
 * when more exist, `Link: <…>; rel="next"` gives the next page. An unknown member is 404.
 */
export const loader = apiLoader(async ({ request, params }) => {
  const actor = await getSessionUser(request);
  const author = await requireUserRow(params.username ?? "");
  const url = new URL(request.url);
  const { following: _ignored, ...query } = parseFeedQuery(url.searchParams);
  const page = await listFeed(actor, { ...query, authorId: author.id });
  return listPageResponse(url, page.posts, page.nextCursor);
});

import { listFeed } from "~/models/feeds/feed.server";
import { createPost } from "~/models/posts/post.server";
import { parseFeedQuery, postInputSchema } from "~/schemas/post";
import { apiAction, apiLoader, jsonResponse, listPageResponse, readJson } from "~/web/api.server";
import { getSessionUser, requireActor } from "~/web/session.server";

/**
 * GET /api/posts?type=&sortBy=&search=&limit=&cursor=&following= → 200 a JSON array of posts;
 * when more exist, `Link: <…cursor=…>; rel="next"`. Unknown filters fall back to the defaults.
 */
export const loader = apiLoader(async ({ request }) => {
  const actor = await getSessionUser(request);
  const url = new URL(request.url);
  const query = parseFeedQuery(url.searchParams);
  const page = await listFeed(actor, query);
  return listPageResponse(url, page.posts, page.nextCursor);
});

/** POST /api/posts {title, content, type, mediaUrl, tags, clubId?, uploadedFiles?, urlMetadata?} → 201 the post. */
export const action = apiAction({
  POST: async ({ request }) => {
    const actor = await requireActor(request);
    const input = await readJson(request, postInputSchema);
    const post = await createPost(actor, input);
    return jsonResponse(post, { status: 201, headers: { Location: `/api/posts/${post.id}` } });
  },
});

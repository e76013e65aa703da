import { addComment, listCommentPage, listComments } from "~/models/posts/comment.server";
import { POST_NOT_FOUND } from "~/schemas/messages";
import { commentSchema } from "~/schemas/post";
import { apiAction, apiLoader, jsonResponse, listPageResponse, readJson } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { getSessionUser, requireActor } from "~/web/session.server";

/**
 * GET /api/posts/{id}/comments → 200 the comments, oldest first (SPEC.md §3's array). With `limit`
 * (1..100; junk: 30) or `cursor`, one page of them and, when more exist, `Link: <…cursor=…>;
 * rel="next"`, as /api/posts pages; a junk cursor starts from the first page. Without either, all
 * of them, as before paging existed.
 */
export const loader = apiLoader(async ({ request, params }) => {
  const id = idParam(params.id, POST_NOT_FOUND);
  const actor = await getSessionUser(request);
  const url = new URL(request.url);
  const cursor = url.searchParams.get("cursor");
  const limit = url.searchParams.get("limit");
  if (cursor === null && limit === null) return jsonResponse(await listComments(actor, id));
  const page = await listCommentPage(actor, id, { cursor, limit: limit === null ? undefined : Number(limit) });
  return listPageResponse(url, page.comments, page.nextCursor);
});

/** POST /api/posts/{id}/comments {content} → 201 the comment. */
export const action = apiAction({
  POST: async ({ request, params }) => {
    const id = idParam(params.id, POST_NOT_FOUND);
    const actor = await requireActor(request);
    const input = await readJson(request, commentSchema);
    return jsonResponse(await addComment(actor, id, input), { status: 201 });
  },
});

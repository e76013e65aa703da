import { likePost, unlikePost } from "~/models/posts/post.server";
import { POST_NOT_FOUND } from "~/schemas/messages";
import { apiAction, jsonResponse, methodNotAllowed } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { getSessionUser } from "~/web/session.server";

/** POST / DELETE /api/posts/{id}/like → 200 {likes, isLiked}; idempotent. */
export const action = apiAction({
  POST: async ({ request, params }) => {
    const id = idParam(params.id, POST_NOT_FOUND);
    return jsonResponse(await likePost(await getSessionUser(request), id));
  },
  DELETE: async ({ request, params }) => {
    const id = idParam(params.id, POST_NOT_FOUND);
    return jsonResponse(await unlikePost(await getSessionUser(request), id));
  },
});

export const loader = methodNotAllowed;

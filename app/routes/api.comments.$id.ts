import { COMMENT_NOT_FOUND, deleteComment } from "~/models/comment.server";
import { apiAction, idParam, methodNotAllowed } from "~/utils/api.server";
import { getSessionUser } from "~/utils/session.server";

/** DELETE /api/comments/{id} → 204 (the comment's author only). */
export const action = apiAction({
  DELETE: async ({ request, params }) => {
    const id = idParam(params.id, COMMENT_NOT_FOUND);
    await deleteComment(await getSessionUser(request), id);
    return new Response(null, { status: 204 });
  },
});

export const loader = methodNotAllowed;

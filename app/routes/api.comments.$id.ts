import { COMMENT_NOT_FOUND, deleteComment } from "~/models/comment.server";
import { apiAction, methodNotAllowed } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { getSessionUser } from "~/web/session.server";

/** DELETE /api/comments/{id} → 204 (the comment's author only). */
export const action = apiAction({
  DELETE: async ({ request, params }) => {
    const id = idParam(params.id, COMMENT_NOT_FOUND);
    await deleteComment(await getSessionUser(request), id);
    return new Response(null, { status: 204 });
  },
});

export const loader = methodNotAllowed;

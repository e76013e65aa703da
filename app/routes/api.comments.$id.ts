import { COMMENT_NOT_FOUND, deleteComment, updateComment } from "~/models/posts/comment.server";
import { commentSchema } from "~/schemas/post";
import { apiAction, jsonResponse, methodNotAllowed, readJson } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { getSessionUser, requireActor } from "~/web/session.server";

/** PUT /api/comments/{id} {content} → 200 the comment; DELETE → 204. The comment's author only. */
export const action = apiAction({
  PUT: async ({ request, params }) => {
    const id = idParam(params.id, COMMENT_NOT_FOUND);
    const actor = await requireActor(request);
    const input = await readJson(request, commentSchema);
    return jsonResponse(await updateComment(actor, id, input));
  },
  DELETE: async ({ request, params }) => {
    const id = idParam(params.id, COMMENT_NOT_FOUND);
    await deleteComment(await getSessionUser(request), id);
    return new Response(null, { status: 204 });
  },
});

export const loader = methodNotAllowed;

import { sharePost } from "~/models/posts/post.server";
import { POST_NOT_FOUND } from "~/schemas/messages";
import { apiAction, jsonResponse, methodNotAllowed } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { getSessionUser } from "~/web/session.server";

/** POST /api/posts/{id}/share → 200 {shares} (signed in). */
export const action = apiAction({
  POST: async ({ request, params }) => {
    const id = idParam(params.id, POST_NOT_FOUND);
    return jsonResponse(await sharePost(await getSessionUser(request), id));
  },
});

export const loader = methodNotAllowed;

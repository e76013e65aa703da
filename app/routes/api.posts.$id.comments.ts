import { json } from "@remix-run/node";
import { addComment, listComments } from "~/models/comment.server";
import { POST_NOT_FOUND } from "~/schemas/messages";
import { commentSchema } from "~/schemas/post";
import { apiAction, apiLoader, readJson } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { getSessionUser, requireActor } from "~/web/session.server";

/** GET /api/posts/{id}/comments → 200 the comments, oldest first. */
export const loader = apiLoader(async ({ request, params }) => {
  const id = idParam(params.id, POST_NOT_FOUND);
  const actor = await getSessionUser(request);
  return json(await listComments(actor, id));
});

/** POST /api/posts/{id}/comments {content} → 201 the comment. */
export const action = apiAction({
  POST: async ({ request, params }) => {
    const id = idParam(params.id, POST_NOT_FOUND);
    const actor = await requireActor(request);
    const input = await readJson(request, commentSchema);
    return json(await addComment(actor, id, input), { status: 201 });
  },
});

import { deletePost, getPost, updatePost } from "~/models/posts/post.server";
import { POST_NOT_FOUND } from "~/schemas/messages";
import { postUpdateSchema } from "~/schemas/post";
import { apiAction, apiLoader, jsonResponse, readJson } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { getSessionUser, requireActor } from "~/web/session.server";

/** GET /api/posts/{id} → 200 the post; 404 'Post Not Found' (also for a non-numeric id). */
export const loader = apiLoader(async ({ request, params }) => {
  const id = idParam(params.id, POST_NOT_FOUND);
  const actor = await getSessionUser(request);
  return jsonResponse(await getPost(actor, id));
});

/** PUT → 200 the post; DELETE → 204. Author only (401 / 403 / 404). */
export const action = apiAction({
  PUT: async ({ request, params }) => {
    const id = idParam(params.id, POST_NOT_FOUND);
    const actor = await requireActor(request);
    const input = await readJson(request, postUpdateSchema);
    return jsonResponse(await updatePost(actor, id, input));
  },
  DELETE: async ({ request, params }) => {
    const id = idParam(params.id, POST_NOT_FOUND);
    const actor = await requireActor(request);
    await deletePost(actor, id);
    return new Response(null, { status: 204 });
  },
});

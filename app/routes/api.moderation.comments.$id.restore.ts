import { apiAction, methodNotAllowed } from "~/web/api.server";
import { restoreByApi } from "~/web/moderation-removal.server";

/** POST /api/moderation/comments/{id}/restore → 200 (CONTRACT.md §8): site moderators, or the club's staff for club content. */
export const action = apiAction({
  POST: ({ request, params }) => restoreByApi("comment", request, params.id),
});

export const loader = methodNotAllowed;

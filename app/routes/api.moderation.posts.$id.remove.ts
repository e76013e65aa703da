import { apiAction, methodNotAllowed } from "~/web/api.server";
import { removeByApi } from "~/web/moderation-removal.server";

/** POST /api/moderation/posts/{id}/remove `{ reason }` → 200 (CONTRACT.md §8): site moderators, or the club's staff for club content. */
export const action = apiAction({
  POST: ({ request, params }) => removeByApi("post", request, params.id),
});

export const loader = methodNotAllowed;

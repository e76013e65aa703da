import { apiAction, methodNotAllowed } from "~/web/api.server";
import { sensitiveByApi } from "~/web/moderation-removal.server";

/** POST /api/moderation/posts/{id}/sensitive `{ sensitive: boolean }` → 200 `{ id, sensitive }` (CONTRACT.md §14 "Graphic photos"): whoever may remove the post. */
export const action = apiAction({
  POST: ({ request, params }) => sensitiveByApi(request, params.id),
});

export const loader = methodNotAllowed;

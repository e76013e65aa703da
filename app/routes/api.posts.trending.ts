import { listTrending } from "~/models/feeds/feed.server";
import { apiLoader, jsonResponse } from "~/web/api.server";
import { getSessionUser } from "~/web/session.server";

/** GET /api/posts/trending → up to 5 posts ranked by likes, comments and shares decayed by age. */
export const loader = apiLoader(async ({ request }) => {
  const actor = await getSessionUser(request);
  return jsonResponse(await listTrending(actor));
});

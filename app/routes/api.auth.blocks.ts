import { listBlocks } from "~/models/members/block.server";
import { apiLoader, listPageResponse } from "~/web/api.server";
import { getSessionUser } from "~/web/session.server";

/**
 * GET /api/auth/blocks?limit=&cursor= → 200 the members the signed-in member blocked, newest first,
 * as a JSON array of `{ username, displayName, avatar, blockedAt }` (CONTRACT.md §8 "Blocks"); when
 * more exist, `Link: <…>; rel="next"` gives the next page. Signed out: 401.
 */
export const loader = apiLoader(async ({ request }) => {
  const url = new URL(request.url);
  const limit = Number(url.searchParams.get("limit") ?? "") || undefined;
  const page = await listBlocks(await getSessionUser(request), { cursor: url.searchParams.get("cursor"), limit });
  return listPageResponse(url, page.blocks, page.nextCursor);
});

import { clubFeedSource } from "~/models/feeds/atom-feed.server";
import { CLUB_NOT_FOUND } from "~/schemas/club-options";
import { atomLoader, atomName } from "~/web/atom-feed.server";
import { idParam } from "~/web/params.server";

/**
 * GET /feeds/clubs/{id}.atom: a club's 20 newest posts (issue 26, CONTRACT.md §7). A private club's
 * feed needs `?token=`, the personal feed token of one of its members (Settings › Notifications).
 */
export const loader = atomLoader(async ({ request, params }) => {
  const id = idParam(atomName(params.id) ?? undefined, CLUB_NOT_FOUND);
  return clubFeedSource(id, new URL(request.url).searchParams.get("token"));
});

import { memberFeedSource } from "~/models/feeds/atom-feed.server";
import { PROFILE_NOT_FOUND } from "~/schemas/messages";
import { notFound } from "~/utils/errors";
import { atomLoader, atomName } from "~/web/atom-feed.server";

/** GET /feeds/members/{username}.atom: a member's 20 newest posts as a visitor sees them (issue 26, CONTRACT.md §7). */
export const loader = atomLoader(async ({ params }) => {
  const username = atomName(params.username);
  if (!username) throw notFound(PROFILE_NOT_FOUND);
  return memberFeedSource(username);
});

import { tagFeedSource, TAG_NOT_FOUND } from "~/models/feeds/atom-feed.server";
import { notFound } from "~/utils/errors";
import { atomLoader, atomName } from "~/web/atom-feed.server";

/** GET /feeds/tags/{tag}.atom: the 20 newest posts of the home page's `#tag` search (issue 26, CONTRACT.md §7). */
export const loader = atomLoader(async ({ params }) => {
  const tag = atomName(params.tag);
  if (!tag) throw notFound(TAG_NOT_FOUND);
  return tagFeedSource(tag);
});

import { homeFeedSource } from "~/models/feeds/atom-feed.server";
import { atomLoader } from "~/web/atom-feed.server";

/** GET /feeds/home.atom: the site's Atom feed, the 20 newest posts a visitor's home shows (issue 26, CONTRACT.md §7). */
export const loader = atomLoader(() => homeFeedSource());

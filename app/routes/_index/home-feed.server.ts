import { data, type LoaderFunctionArgs, redirect } from "react-router";
import { listFeed, listTrendingItems } from "~/models/feeds/feed.server";
import { FEED_PAGE_SIZE, parseFeedQuery, type FeedFilters } from "~/schemas/post";
import { withPreview } from "~/utils/preview";
import { getSessionUser } from "~/web/session.server";

/**
 * Home (SPEC.md §2): banner, filter bar (a GET form), the feed in pages of 20 with an 'Older posts'
 * link carrying a keyset cursor (appended in place with JavaScript), Hot Tracks and Popular Topics.
 * The home route's loader; a .server module so the filter parsing (zod) stays out of the page's
 * JavaScript.
 */
export async function loadHomeFeed({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  const actor = user ? { id: user.id } : null;
  const url = new URL(request.url);
  // The search parameter holds the trimmed text (SPEC.md §2); empty text is no search. The top bar
  // trims with JavaScript; a plain form post of "  rub lines " lands here and is tidied once.
  const rawSearch = url.searchParams.get("search");
  if (rawSearch !== null && rawSearch !== rawSearch.trim()) {
    const text = rawSearch.trim();
    if (text) url.searchParams.set("search", text);
    else url.searchParams.delete("search");
    throw redirect(`${url.pathname}${url.search}`);
  }
  const query = parseFeedQuery(url.searchParams);
  const filters: FeedFilters = {
    type: query.type,
    sortBy: query.sortBy,
    search: query.search,
    // 'Following' is a member's filter; a visitor's URL with it shows the whole feed.
    following: query.following && Boolean(user),
  };

  // A cursor that is junk or made for another sort is ignored by listFeed (the first page).
  const feed = await listFeed(actor, { ...filters, cursor: query.cursor, limit: FEED_PAGE_SIZE });

  return data({
    viewerId: user?.id ?? null,
    filters,
    cursor: query.cursor ?? null,
    // Cards show 200 characters: the page carries no more (the Edit Post dialog fetches the rest).
    posts: feed.posts.map(withPreview),
    nextCursor: feed.nextCursor,
    // The same for every viewer, ranked once a minute (models/feeds/trending-cache.server.ts).
    trending: await listTrendingItems(),
  });
}

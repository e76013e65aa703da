import { APP_NAME } from "./brand";

/**
 * Where the Atom feeds are (issue 26, CONTRACT.md §7 "Feeds"; app/routes/feeds.*) and the
 * `<link rel="alternate">` a page names its feed with, as a meta descriptor (Remix draws it in <Meta />),
 * so a feed reader given the page's address finds the feed.
 */
export const homeFeedPath = "/feeds/home.atom";
export const tagFeedPath = (tag: string) => `/feeds/tags/${encodeURIComponent(tag)}.atom`;
export const memberFeedPath = (username: string) => `/feeds/members/${encodeURIComponent(username)}.atom`;
export const clubFeedPath = (clubId: number) => `/feeds/clubs/${clubId}.atom`;

/** The tag of a search that is one `#hashtag` (the home page's tag search), else null. */
export function searchedTag(search: string | null | undefined): string | null {
  const match = /^#([^\s#]+)$/.exec(search?.trim() ?? "");
  return match?.[1] ?? null;
}

export const atomAlternate = (href: string, title: string) =>
  ({ tagName: "link", rel: "alternate", type: "application/atom+xml", title: `${title} (Atom)`, href }) as const;

export const siteFeedAlternate = () => atomAlternate(homeFeedPath, `${APP_NAME}: newest posts`);

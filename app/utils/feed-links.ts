/**
 * Where the Atom feeds are (issue 26, CONTRACT.md §7 "Feeds"; app/routes/feeds.*) and the
 * `<link rel="alternate">` a page names its feed with, as a meta descriptor (Remix draws it in <Meta />),
 * so a feed reader given the page's address finds the feed. Home writes its own (the site's and a
 * `#tag` search's feed) to keep a member's first load of home free of this module's chunk.
 */
export const memberFeedPath = (username: string) => `/feeds/members/${encodeURIComponent(username)}.atom`;
export const clubFeedPath = (clubId: number) => `/feeds/clubs/${clubId}.atom`;

export const atomAlternate = (href: string, title: string) =>
  ({ tagName: "link", rel: "alternate", type: "application/atom+xml", title: `${title} (Atom)`, href }) as const;

/** The product's name: one constant (CONTRACT.md). */
export const APP_NAME = "Whitetail Pulse";

/** The site's icon (the tab's, a push's, a feed's `<icon>`), in public/. */
export const SITE_ICON_PATH = "/favicon.svg";

/** What the site is, for pages that have nothing more particular to say about themselves. */
export const SITE_DESCRIPTION = "The hunter's pulse of whitetail intelligence: stories, tips and clubs.";

/**
 * A page's `meta`: its title (with the site's name) and a description, so every page has both
 * (issue 14: a search result or a shared link says what the page is). A blank description falls back
 * to the site's.
 */
export function pageMeta(title: string, description?: string | null) {
  const text = description?.replace(/\s+/g, " ").trim().slice(0, 160);
  return [{ title: `${title} · ${APP_NAME}` }, { name: "description", content: text || SITE_DESCRIPTION }];
}

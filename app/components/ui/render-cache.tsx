import type { ReactElement, ReactNode } from "react";

/**
 * The render cache: a part of a page the server draws once and keeps (a feed card, the home's page
 * of cards, the trending sidebar), drawn again only when something it shows changed
 * (docs/caching.md, docs/decisions/0048-route-matching-and-feed-cards-drawn-once.md).
 *
 * `RenderCached` renders `<Tag {...attrs}>{children}</Tag>`. On the server, with a store registered
 * (entry.server.tsx registers web/render-cache.server.ts), the inside is the HTML kept for the
 * part's cache key, drawn with `renderToString` under the page's router contexts on a miss; the
 * browser draws `children` as ever and hydrates them over that same HTML. The browser bundle holds
 * no store, so nothing here pulls React's server renderer into it.
 *
 * The key must name everything the inside shows: its props and whatever it reads from the page (the
 * URL, the root's loader data, the clock). Every part's key is declared in one list,
 * render-cache-keys.ts. Two draws with equal keys must give equal HTML; verify mode
 * (RENDER_CACHE_VERIFY=1, on for the whole e2e suite in CI) checks that on every hit.
 */
export type RenderCacheStore = {
  /** Reads the page's contexts the inside needs (a hook: the same ones on every call). */
  useContexts(): unknown[];
  /** The kept HTML for `key`, or a fresh draw of `element` under `contexts`; null to draw it in place. */
  draw(key: string, element: ReactElement, contexts: unknown[]): string | null;
};

let store: RenderCacheStore | null = null;

/** Server only, once at start-up. */
export function setRenderCacheStore(next: RenderCacheStore | null) {
  store = next;
}

type Tag = "article" | "aside" | "div" | "li" | "section";

export function RenderCached({
  as: Tag,
  attrs,
  cacheKey,
  children,
}: {
  as: Tag;
  attrs: Record<string, string | undefined>;
  /** The part's cache key (render-cache-keys.ts), computed only on the server. */
  cacheKey: () => unknown;
  children: ReactElement;
}): ReactNode {
  const html = useCachedHtml(cacheKey, children);
  return html === null ? <Tag {...attrs}>{children}</Tag> : <Tag {...attrs} dangerouslySetInnerHTML={{ __html: html }} />;
}

function useCachedHtml(cacheKey: () => unknown, children: ReactElement): string | null {
  const current = store;
  if (!current) return null;
  // The store is fixed for the process (set before the first page, never in the browser), so every
  // render of this component calls the same hooks.
  const contexts = current.useContexts();
  return current.draw(JSON.stringify(cacheKey()), children, contexts);
}

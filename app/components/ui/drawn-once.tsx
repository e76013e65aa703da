import type { ReactElement, ReactNode } from "react";

/**
 * A part of a page the server draws once and keeps: a feed card, drawn again only when something it
 * shows changed (docs/decisions/0048-route-matching-and-feed-cards-drawn-once.md).
 *
 * `DrawnOnce` renders `<Tag {...attrs}>{children}</Tag>`. On the server, with a drawer registered
 * (entry.server.tsx registers web/drawn-parts.server.ts), the inside is the HTML the drawer kept for
 * `inputs()`, drawn with `renderToString` under the page's router contexts on a miss; the browser
 * draws `children` as ever and hydrates them over that same HTML. The browser bundle holds no
 * drawer, so nothing here pulls React's server renderer into it.
 *
 * `inputs()` must name everything the inside shows: its props and whatever it reads from the page
 * (the URL, the root's loader data, the clock). Two draws with equal inputs must give equal HTML.
 * Only the server calls it.
 */
export type PartDrawer = {
  /** Reads the page's contexts the inside needs (a hook: the same ones on every call). */
  useContexts(): unknown[];
  /** The kept HTML for `key`, or a fresh draw of `element` under `contexts`; null to draw it in place. */
  draw(key: string, element: ReactElement, contexts: unknown[]): string | null;
};

let drawer: PartDrawer | null = null;

/** Server only, once at start-up. */
export function setPartDrawer(next: PartDrawer | null) {
  drawer = next;
}

type Tag = "article" | "aside" | "div" | "li" | "section";

export function DrawnOnce({
  as: Tag,
  attrs,
  inputs,
  children,
}: {
  as: Tag;
  attrs: Record<string, string | undefined>;
  inputs: () => unknown;
  children: ReactElement;
}): ReactNode {
  const html = useDrawnHtml(inputs, children);
  return html === null ? <Tag {...attrs}>{children}</Tag> : <Tag {...attrs} dangerouslySetInnerHTML={{ __html: html }} />;
}

function useDrawnHtml(inputs: () => unknown, children: ReactElement): string | null {
  const current = drawer;
  if (!current) return null;
  // The drawer is fixed for the process (set before the first page, never in the browser), so every
  // render of this component calls the same hooks.
  const contexts = current.useContexts();
  return current.draw(JSON.stringify(inputs()), children, contexts);
}

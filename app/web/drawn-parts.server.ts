import { UNSAFE_RemixContext } from "@remix-run/react";
import { createElement, useContext, type Context, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import {
  UNSAFE_DataRouterContext,
  UNSAFE_DataRouterStateContext,
  UNSAFE_FetchersContext,
  UNSAFE_LocationContext,
  UNSAFE_NavigationContext,
  UNSAFE_RouteContext,
  UNSAFE_ViewTransitionContext,
} from "react-router-dom";
import { CLIENT_RENDERED_BOUNDARY } from "./draw-document.server";

/**
 * The server's drawer for `DrawnOnce` parts (components/ui/drawn-once.tsx; docs/decisions/0048):
 * each part's inside drawn once per distinct inputs and kept, most recently used first.
 *
 * A part is drawn on its own with `renderToString` (React supports a synchronous render inside
 * another) under the same router and Remix contexts the page gives it, so links, fetchers and
 * `useLocation` inside it answer as they would in place. A part that leaves a boundary for the
 * browser (a lazy part not loaded yet) is not kept: it is drawn in place instead.
 */
const CONTEXTS: Array<Context<unknown>> = [
  UNSAFE_RemixContext,
  UNSAFE_DataRouterContext,
  UNSAFE_DataRouterStateContext,
  UNSAFE_FetchersContext,
  UNSAFE_ViewTransitionContext,
  UNSAFE_NavigationContext,
  UNSAFE_LocationContext,
  UNSAFE_RouteContext,
] as Array<Context<unknown>>;

/**
 * What is kept, keys and HTML together, is bounded in characters (about 16 MB as one-byte text): a
 * card is 2 to 4 KB of HTML with a key about as long, a whole page of cards about 20 times that. The
 * least recently used go first.
 */
const MAX_KEPT_CHARS = 16 * 1024 * 1024;
const kept = new Map<string, string>();
let keptChars = 0;

function useContexts(): unknown[] {
  return [
    useContext(CONTEXTS[0]!),
    useContext(CONTEXTS[1]!),
    useContext(CONTEXTS[2]!),
    useContext(CONTEXTS[3]!),
    useContext(CONTEXTS[4]!),
    useContext(CONTEXTS[5]!),
    useContext(CONTEXTS[6]!),
    useContext(CONTEXTS[7]!),
  ];
}

function draw(key: string, element: ReactElement, contexts: unknown[]): string | null {
  const hit = kept.get(key);
  if (hit !== undefined) {
    kept.delete(key);
    kept.set(key, hit);
    return hit;
  }
  const html = renderToString(
    CONTEXTS.reduceRight<ReactElement>((child, context, i) => createElement(context.Provider, { value: contexts[i] }, child), element),
  );
  if (html.includes(CLIENT_RENDERED_BOUNDARY)) return null;
  keep(key, html);
  return html;
}

function keep(key: string, html: string) {
  keptChars += key.length + html.length;
  kept.set(key, html);
  for (const [oldKey, oldHtml] of kept) {
    if (keptChars <= MAX_KEPT_CHARS) break;
    kept.delete(oldKey);
    keptChars -= oldKey.length + oldHtml.length;
  }
}

export const partDrawer = { useContexts, draw };

/** Tests: forget every kept part. */
export function forgetDrawnParts() {
  kept.clear();
  keptChars = 0;
}

/** Tests: how much is kept, in entries and characters. */
export function keptDrawnParts() {
  return { entries: kept.size, chars: keptChars };
}

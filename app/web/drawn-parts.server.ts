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

/** About 100 members' pages of 20 cards, at 2 to 4 KB each. */
export const MAX_KEPT_PARTS = 2000;
const kept = new Map<string, string>();

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
  if (kept.size >= MAX_KEPT_PARTS) kept.delete(kept.keys().next().value!);
  kept.set(key, html);
  return html;
}

export const partDrawer = { useContexts, draw };

/** Tests: forget every kept part. */
export function forgetDrawnParts() {
  kept.clear();
}

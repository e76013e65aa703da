import { UNSAFE_RemixContext } from "@remix-run/react";
import { useContext, type Context } from "react";
import {
  UNSAFE_DataRouterContext,
  UNSAFE_DataRouterStateContext,
  UNSAFE_FetchersContext,
  UNSAFE_LocationContext,
  UNSAFE_NavigationContext,
  UNSAFE_RouteContext,
  UNSAFE_ViewTransitionContext,
} from "react-router-dom";

/**
 * The one module that reads Remix's and React Router's `UNSAFE_` exports (docs/decisions/0059-remix-v2-
 * end-of-life.md). They are not public API and change names or go in a major version (React Router
 * 7 moves them into `react-router`); keeping every use here makes that move one file's edit.
 * Nothing else in app/ imports an `UNSAFE_` name.
 */

/** The client manifest's version (the build), for the document's `data-build`. "dev" when there is none. */
export function useBuildVersion(): string {
  return useContext(UNSAFE_RemixContext)?.manifest.version ?? "dev";
}

/**
 * Every context a part of a page reads from the framework (links, fetchers, `useLocation`, route
 * data), outermost first: what the render cache (web/render-cache.server.ts) reads in place and
 * provides again around a part it draws on its own.
 */
export const FRAMEWORK_CONTEXTS: Array<Context<unknown>> = [
  UNSAFE_RemixContext,
  UNSAFE_DataRouterContext,
  UNSAFE_DataRouterStateContext,
  UNSAFE_FetchersContext,
  UNSAFE_ViewTransitionContext,
  UNSAFE_NavigationContext,
  UNSAFE_LocationContext,
  UNSAFE_RouteContext,
] as Array<Context<unknown>>;

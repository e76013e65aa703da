import { useContext, type Context } from "react";
import {
  UNSAFE_FrameworkContext,
  UNSAFE_DataRouterContext,
  UNSAFE_DataRouterStateContext,
  UNSAFE_FetchersContext,
  UNSAFE_LocationContext,
  UNSAFE_NavigationContext,
  UNSAFE_RouteContext,
  UNSAFE_ViewTransitionContext,
} from "react-router";

/**
 * The one module that reads React Router's `UNSAFE_` exports (docs/decisions/0059-remix-v2-end-of-
 * life.md, 0082-react-router-7.md). They are not public API and may change in any major version;
 * keeping every use here makes such a change one file's edit. Nothing else in app/ imports an
 * `UNSAFE_` name. Two uses are left: the build's version for the document, and the contexts the
 * render cache provides again (web/render-cache.server.ts).
 */

/** The client manifest's version (the build), for the document's `data-build`. "dev" when there is none. */
export function useBuildVersion(): string {
  return useContext(UNSAFE_FrameworkContext)?.manifest.version ?? "dev";
}

/**
 * Every context a part of a page reads from the framework (links, fetchers, `useLocation`, route
 * data), outermost first: what the render cache (web/render-cache.server.ts) reads in place and
 * provides again around a part it draws on its own.
 */
export const FRAMEWORK_CONTEXTS: Array<Context<unknown>> = [
  UNSAFE_FrameworkContext,
  UNSAFE_DataRouterContext,
  UNSAFE_DataRouterStateContext,
  UNSAFE_FetchersContext,
  UNSAFE_ViewTransitionContext,
  UNSAFE_NavigationContext,
  UNSAFE_LocationContext,
  UNSAFE_RouteContext,
] as Array<Context<unknown>>;

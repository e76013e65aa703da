import { UNSAFE_FrameworkContext, type MetaDescriptor } from "react-router";
import { createElement, useContext, useMemo, type Context, type ContextType, type ReactNode } from "react";
import {
  UNSAFE_DataRouterContext,
  UNSAFE_DataRouterStateContext,
  UNSAFE_FetchersContext,
  UNSAFE_LocationContext,
  UNSAFE_NavigationContext,
  UNSAFE_RouteContext,
  UNSAFE_ViewTransitionContext,
} from "react-router";

/**
 * The one module that reads Remix's and React Router's `UNSAFE_` exports (docs/decisions/0059-remix-v2-
 * end-of-life.md). They are not public API and change names or go in a major version (React Router
 * 7 moves them into `react-router`); keeping every use here makes that move one file's edit.
 * Nothing else in app/ imports an `UNSAFE_` name.
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

type RemixContextValue = NonNullable<ContextType<typeof UNSAFE_FrameworkContext>>;
type Meta = MetaDescriptor[] | undefined | null;

/**
 * Every route's `<title>` with `prefix` in front (the unread count's "(3) ", CONTRACT.md §7), on the
 * server's page and after each navigation alike: Remix's `<Meta />` inside this reads the routes'
 * `meta` through a wrapper, so no route's meta has to know. An empty prefix changes nothing.
 */
export function TitlePrefix({ prefix, children }: { prefix: string; children: ReactNode }) {
  const remix = useContext(UNSAFE_FrameworkContext);
  const value = useMemo((): RemixContextValue | undefined => {
    if (!prefix || !remix) return remix;
    const withPrefix = (meta: Meta): Meta =>
      meta?.map((d) => (d && "title" in d && !String(d.title).startsWith(prefix) ? { ...d, title: `${prefix}${String(d.title)}` } : d));
    const routeModules = new Proxy(remix.routeModules, {
      get(target, id: string) {
        const module = target[id];
        if (!module?.meta) return module;
        const meta = module.meta;
        return { ...module, meta: typeof meta === "function" ? (args: never) => withPrefix(meta(args) as Meta) : withPrefix(meta) };
      },
    });
    return { ...remix, routeModules };
  }, [remix, prefix]);
  return createElement(UNSAFE_FrameworkContext.Provider, { value }, children);
}

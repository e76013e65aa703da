import type { LinksFunction, MetaFunction } from "react-router";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useLocation,
  useRouteLoaderData,
  useSearchParams,
} from "react-router";
import { useEffect, type ReactNode } from "react";
import { SavedCopyNote } from "~/components/layout/saved-copy-note";
import { OutboxNote, OutboxRevalidator } from "~/components/ui/outbox-note";
import { Toaster } from "~/components/layout/toaster";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { IconSprite } from "~/components/ui/icons";
import { TopBar } from "~/components/layout/top-bar";
import { APP_NAME, SITE_DESCRIPTION, SITE_ICON_PATH } from "~/utils/brand";
import { useBuildVersion } from "~/utils/framework-internals";
import { useUnreadCount } from "~/components/layout/notifications-link";
import { unreadTitleOf, withUnreadTitle } from "~/utils/unread-title";
import { rememberTimeZone } from "~/utils/remember-time-zone";
import { notePageViewer, shouldRevalidate as keepAfterUnsent } from "~/offline/client-action";
import { startOutbox } from "~/offline/outbox-client";
import { useOpenSavedTarget } from "~/offline/open-saved-target";
import stylesheet from "~/tailwind.css?url";
import { plainPageScript } from "~/utils/plain-page";
import type { loader } from "./root-data.server";
import { FeedLink } from "~/components/ui/feed-link";

export { loader } from "./root-data.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "icon", href: SITE_ICON_PATH, type: "image/svg+xml" },
  // The home-screen icon of browsers that read no manifest icons (Safari), ADR 0092.
  { rel: "apple-touch-icon", href: "/icons/icon-192.png" },
];

export type RootData = typeof loader;

export const shouldRevalidate = keepAfterUnsent;

/**
 * Routes set `handle = { hideAuthActions: true }` to hide the top bar's auth actions, and
 * `plainForVisitors: true` to send visitors the page without the app's scripts (docs/decisions/0047).
 */
export type RouteHandle = {
  hideAuthActions?: boolean;
  plainForVisitors?: boolean;
  /**
   * The page's Atom feed, from its loader data (null: none), shown as a visible link at the page's
   * foot (ux-3 U4: a phone shows nothing for the head's `<link rel="alternate">`). Drawn here, in the
   * shell, so no page loads a file more for it.
   */
  feed?: (data: unknown) => string | null;
};

/** The feed of the deepest page that names one. */
function pageFeed(matches: { handle?: unknown; data?: unknown }[]): string | null {
  for (let i = matches.length - 1; i >= 0; i--) {
    const feed = (matches[i]!.handle as RouteHandle | undefined)?.feed?.(matches[i]!.data);
    if (feed) return feed;
  }
  return null;
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<RootData>("root");
  const matches = useMatches();
  const [params] = useSearchParams();
  const location = useLocation();
  const hideAuthActions = matches.some((m) => (m.handle as RouteHandle | undefined)?.hideAuthActions);
  // A visitor's first load of such a page is HTML and CSS only: nothing on it needs the app's code.
  // Decided when the server draws the document; the browser never draws a page without its scripts
  // (a client-side visit already runs them), so hydration always meets scripts on both sides.
  const plain =
    typeof document === "undefined" && !data?.user && matches.some((m) => (m.handle as RouteHandle | undefined)?.plainForVisitors);
  const build = useBuildVersion();
  const unread = useUnreadCount(data?.user?.unread);
  // The routes' titles carry the count their data had (utils/unread-title.ts); one the page
  // fetched since then (on coming back to the tab) goes into the title the same way.
  useEffect(() => {
    document.title = unreadTitleOf(document.title, unread);
  }, [unread, location.key]);
  const feed = pageFeed(matches);
  return (
    <html lang="en-US" data-scripts={plain ? "none" : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#2a1f14" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:bg-white focus:p-2">
          Skip to content
        </a>
        <IconSprite />
        <TopBar
          user={data?.user ?? null}
          unread={unread}
          hideAuthActions={hideAuthActions}
          // The box searches posts: only the feed's search fills it, never the club list's.
          search={location.pathname === "/" ? (params.get("search") ?? "") : ""}
        />
        <Toaster serverToast={data?.toast ?? null} />
        <SavedCopyNote />
        <OutboxNote />
        <main id="main" className="mx-auto max-w-6xl px-4 py-6">
          {children}
          {feed ? (
            <p className="mt-8 text-center">
              <FeedLink href={feed} />
            </p>
          ) : null}
        </main>
        {plain ? (
          // Registers the service worker; only the server draws this (a visitor's first load).
          <script dangerouslySetInnerHTML={{ __html: plainPageScript(build) }} />
        ) : (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  const root = useRouteLoaderData<RootData>("root");
  const memberId = root?.user?.id ?? null;
  const dataSaver = Boolean(root?.dataSaver);
  useEffect(() => notePageViewer(memberId !== null), [memberId]);
  // Limits and suspensions are told in the reader's own time (ux-3 U7, U15).
  useEffect(rememberTimeZone, []);
  // Every page load sends what waits in the outbox, for this member only (ADR 0034).
  useEffect(() => void startOutbox(memberId), [memberId]);
  // A page opened offline from its saved data, on another page's saved document.
  useOpenSavedTarget();
  // After the load event: the worker fetches the pages a member is likely to open next (ADR 0088).
  // Its code is a file of its own, fetched then: no page's first load carries it.
  useEffect(() => {
    if (memberId === null || dataSaver) return;
    const ask = () =>
      void import("~/offline/routes-ahead").then(
        (ahead) => ahead.askForRoutesAhead({ member: true, dataSaver: false }),
        () => undefined, // offline or cut: the next page asks again
      );
    if (document.readyState === "complete") return ask();
    window.addEventListener("load", ask, { once: true });
    return () => window.removeEventListener("load", ask);
  }, [memberId, dataSaver]);
  return (
    <>
      <OutboxRevalidator />
      <Outlet />
    </>
  );
}

export const meta: MetaFunction = withUnreadTitle(() => [{ title: APP_NAME }, { name: "description", content: SITE_DESCRIPTION }]);

/** Never a stack trace: a known status gets its message, anything else a plain apology. */
export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

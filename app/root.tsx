import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useRouteLoaderData,
  useSearchParams,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { Toaster } from "~/components/toaster";
import { TopBar } from "~/components/top-bar";
import { APP_NAME } from "~/utils/brand";
import { useNonce } from "~/utils/nonce";
import { getSessionUser } from "~/utils/session.server";
import { getToast } from "~/utils/toast.server";
import stylesheet from "~/tailwind.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [
  { title: APP_NAME },
  { name: "description", content: "The hunter's pulse of whitetail intelligence: stories, tips and clubs." },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const [user, { toast, headers }] = await Promise.all([getSessionUser(request), getToast(request)]);
  return json(
    {
      user: user ? { id: user.id, username: user.username, displayName: user.displayName, avatar: user.avatar } : null,
      toast,
    },
    { headers: headers ?? undefined },
  );
}

export type RootData = typeof loader;

/** Routes set `handle = { hideAuthActions: true }` to hide the top bar's auth actions. */
export type RouteHandle = { hideAuthActions?: boolean };

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<RootData>("root");
  const matches = useMatches();
  const [params] = useSearchParams();
  const hideAuthActions = matches.some((m) => (m.handle as RouteHandle | undefined)?.hideAuthActions);
  return (
    <html lang="en-US">
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
        <TopBar user={data?.user ?? null} hideAuthActions={hideAuthActions} search={params.get("search") ?? ""} />
        <Toaster serverToast={data?.toast ?? null} />
        <main id="main" className="mx-auto max-w-6xl px-4 py-6">
          {children}
        </main>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** Never a stack trace: a known status gets its message, anything else a plain apology. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return <NotFoundPage />;
    const message = (error.data as { message?: string } | null)?.message;
    return (
      <ErrorPanel title={error.status === 403 ? "Access Denied" : `Error ${error.status}`}>
        {message ?? error.statusText ?? "Something went wrong."}
      </ErrorPanel>
    );
  }
  if (typeof document !== "undefined") console.error(error);
  return <ErrorPanel title="Something went wrong">We hit a snag loading this page. Please try again in a moment.</ErrorPanel>;
}

export function NotFoundPage() {
  return (
    <ErrorPanel title="Page Not Found">
      <span className="block">The page you're looking for doesn't exist or has moved.</span>
      <span className="mt-6 flex flex-wrap justify-center gap-3">
        <Link to="/" className="btn-primary">
          Home
        </Link>
        <Link to="/?search=" className="btn-secondary">
          Search posts
        </Link>
      </span>
    </ErrorPanel>
  );
}

function ErrorPanel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="card mx-auto mt-10 max-w-lg p-8 text-center">
      <h1 className="text-2xl font-bold text-bark-900">{title}</h1>
      <div className="mt-3 text-stone-600">{children}</div>
    </div>
  );
}

import { isRouteErrorResponse, Link, useParams, useRouteError, type ErrorResponse } from "react-router";
import type { ReactNode } from "react";

type Params = ReturnType<typeof useParams>;
export type StatusHandler = (info: { error: ErrorResponse; message: string | undefined; params: Params }) => ReactNode;

/**
 * Every route's ErrorBoundary: a known status shows its message (or the route's own panel for that
 * status), anything unexpected a plain apology. Never a stack trace.
 *
 * `export function ErrorBoundary() { return <GeneralErrorBoundary statusHandlers={{ 404: () => <NotFound … /> }} /> }`
 */
export function GeneralErrorBoundary({
  statusHandlers,
  defaultStatusHandler = DefaultStatusPanel,
  unexpectedErrorHandler = () => (
    <ErrorPanel title="Something went wrong">We hit a snag loading this page. Please try again in a moment.</ErrorPanel>
  ),
}: {
  statusHandlers?: Partial<Record<number, StatusHandler>>;
  defaultStatusHandler?: StatusHandler;
  unexpectedErrorHandler?: (error: unknown) => ReactNode;
}) {
  const error = useRouteError();
  const params = useParams();
  if (isRouteErrorResponse(error)) {
    const message = (error.data as { message?: string } | null)?.message;
    const handler = statusHandlers?.[error.status] ?? defaultStatusHandler;
    return <>{handler({ error, message, params })}</>;
  }
  if (typeof document !== "undefined") console.error(error);
  return <>{unexpectedErrorHandler(error)}</>;
}

/** A status with no handler of its own: 404 is SPEC's "Page Not Found", 403 "Access Denied". */
const DefaultStatusPanel: StatusHandler = ({ error, message }) => {
  if (error.status === 404) return <NotFoundPage />;
  return (
    <ErrorPanel title={error.status === 403 ? "Access Denied" : `Error ${error.status}`}>
      {message ?? error.statusText ?? "Something went wrong."}
    </ErrorPanel>
  );
};

export function NotFoundPage() {
  return (
    <ErrorPanel title="Page Not Found">
      <span className="block">The page you're looking for doesn't exist or has moved.</span>
      <span className="mt-6 flex flex-wrap justify-center gap-3">
        <Link to="/" className="btn-primary">
          Home
        </Link>
        <Link to="/search" className="btn-secondary">
          Search posts
        </Link>
      </span>
    </ErrorPanel>
  );
}

/** A centred card with a title: the look of every error and "not found" page. */
export function ErrorPanel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="card mx-auto mt-10 max-w-lg p-8 text-center">
      <h1 className="text-2xl font-bold text-bark-900">{title}</h1>
      <div className="mt-3 text-stone-600">{children}</div>
    </div>
  );
}

import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { CLUB_NOT_FOUND } from "~/schemas/club";

/** The ErrorBoundary of the club's pages (/clubs/{id}, /clubs/{id}/create): a 404 says the club is gone. */
export function ClubErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <div className="card mx-auto mt-10 max-w-lg p-8 text-center">
        <h1 className="text-2xl font-bold text-bark-900">{CLUB_NOT_FOUND}</h1>
        <p className="mt-3 text-stone-600">This club doesn't exist or has been deleted</p>
        <Link to="/clubs" className="btn-primary mt-6">
          Back to Clubs
        </Link>
      </div>
    );
  }
  return <GeneralErrorBoundary />;
}

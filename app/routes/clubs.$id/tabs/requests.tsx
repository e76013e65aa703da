import { Link, useFetcher, useLoaderData } from "react-router";
import { RelativeTime } from "~/components/ui/relative-time";
import { Avatar } from "~/components/ui/avatar";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import type { clubRequestsLoader as loader } from "../club-pages.server";

export { clubRequestsLoader as loader, clubPageAction as action } from "../club-pages.server";

export default function ClubRequestsTab() {
  const { clubId, requests } = useLoaderData<typeof loader>();
  if (requests.length === 0) return <p className="card p-8 text-center text-stone-600">No pending join requests.</p>;
  return (
    <ul className="space-y-3" aria-label="Join requests">
      {requests.map((r) => (
        // On a phone the buttons go under the requester (issue 14 #26), not beside them.
        <li key={r.id} className="card flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:gap-4" data-testid="join-request">
          <div className="flex min-w-0 flex-1 items-start gap-4">
            <Avatar src={r.user.avatar} name={r.user.displayName} size={40} />
            <div className="min-w-0 flex-1" data-testid="join-request-who">
              <p className="font-semibold text-bark-900">
                <Link to={`/profile/${r.user.username}`} className="hover:underline">
                  {r.user.displayName}
                </Link>{" "}
                <span className="text-sm font-normal text-stone-500">
                  @{r.user.username} · <RelativeTime iso={r.createdAt} />
                </span>
              </p>
              {r.message ? <p className="mt-1 whitespace-pre-line break-words text-stone-700">{r.message}</p> : null}
            </div>
          </div>
          <Decision clubId={clubId} requestId={r.id} />
        </li>
      ))}
    </ul>
  );
}

/** Approve and Reject of one request: a form of its own, so only its buttons wait while it is sent. */
function Decision({ clubId, requestId }: { clubId: number; requestId: number }) {
  const fetcher = useFetcher();
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action={`/clubs/${clubId}/requests`} className="flex gap-2" preventScrollReset>
      <input type="hidden" name="requestId" value={requestId} />
      <button type="submit" name="intent" value="approve" className="btn-primary" disabled={busy}>
        Approve
      </button>
      <button type="submit" name="intent" value="reject" className="btn-secondary" disabled={busy}>
        Reject
      </button>
    </fetcher.Form>
  );
}

// After a send from the club's header that did not arrive (or waits in the outbox), nothing is
// fetched again: with no signal the fetch would fail and the page be reloaded (ADR 0034).
export { shouldRevalidate } from "~/offline/client-action";

export const ErrorBoundary = GeneralErrorBoundary;

import { Link, useLoaderData } from "react-router";
import { CalendarLinks, HuntList } from "~/components/club/hunts";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import type { huntsTabLoader as loader } from "../hunt-pages.server";

export { huntsTabLoader as loader } from "../hunt-pages.server";

/** /clubs/{id}/events: the club's Hunts tab (issue 44), coming hunts first, the past ones folded. */
export default function ClubHuntsTab() {
  const { clubId, upcoming, past, mayManage, calendar, needsToken } = useLoaderData<typeof loader>();
  return (
    <section className="space-y-4" aria-labelledby="hunts-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="hunts-title" className="text-xl font-bold text-bark-900">
          Hunts
        </h2>
        {mayManage ? (
          <Link to={`/clubs/${clubId}/events/new`} className="btn-primary min-h-11">
            Plan a hunt
          </Link>
        ) : null}
      </div>
      <CalendarLinks calendar={calendar} needsToken={needsToken} />
      {upcoming.length ? (
        <HuntList hunts={upcoming} label="Coming hunts" />
      ) : (
        <p className="card p-8 text-center text-stone-600">No hunts planned yet.</p>
      )}
      {past.length ? (
        <details className="space-y-3" data-testid="past-hunts">
          <summary className="tap-pad inline-flex min-h-11 cursor-pointer items-center font-semibold text-stone-700">
            Past hunts ({past.length})
          </summary>
          <HuntList hunts={past} label="Past hunts" />
        </details>
      ) : null}
    </section>
  );
}

export { shouldRevalidate } from "~/offline/client-action";

export const ErrorBoundary = GeneralErrorBoundary;

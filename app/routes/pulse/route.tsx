import type { MetaFunction } from "react-router";
import type { RouteHandle } from "~/root";
import { Link, useLoaderData } from "react-router";
import { DaysForm, lastText, rutPhaseText, windowText } from "~/components/places/pulse-parts";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { pageMeta } from "~/utils/brand";
import { SHADE_STEPS } from "~/utils/pulse-shades";
import { withUnreadTitle } from "~/utils/unread-title";
import type { loader } from "./pulse-page.server";

/**
 * /pulse (CONTRACT.md §14 "The pulse", issue 45 item 2; docs/decisions/0094-the-pulse.md): the map of
 * the counties where at least 3 members reported in the window, drawn on the server as SVG (readable
 * with JavaScript off), and the list, which is the page's real content: every figure the map shades,
 * each county a link to its page.
 */
export { loader } from "./pulse-page.server";

/** A visitor's copy is sent without the app's scripts, as the home's (docs/decisions/0047): the map and the list are HTML. */
export const handle: RouteHandle = { plainForVisitors: true };

export default function PulsePage() {
  const { days, counties, svg, total } = useLoaderData<typeof loader>();
  const window = windowText(days);
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <header className="space-y-2">
        <h1 className="text-3xl font-bold text-bark-900">The pulse</h1>
        <p className="text-stone-700">
          Where members saw deer, rut sign and harvests in {window}, by county. A county shows once at least 3 different members reported
          there; reports in private clubs and removed posts never count.
        </p>
      </header>

      <DaysForm action="/pulse" days={days} />

      <figure className="card p-3" data-testid="pulse-map">
        {/* Drawn on the server once per data version (web/pulse-map.server.ts): the same markup in the page and when hydrated. */}
        <div className="w-full" dangerouslySetInnerHTML={{ __html: svg }} />
        <figcaption className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-stone-600">
          <span>Reports:</span>
          <ShadeKey />
        </figcaption>
      </figure>

      <section aria-labelledby="pulse-list-heading" className="space-y-3">
        <h2 id="pulse-list-heading" className="text-xl font-semibold text-bark-900">
          {total === 0 ? "No county yet" : `${total} ${total === 1 ? "county" : "counties"}`}
        </h2>
        {total > counties.length ? (
          <p className="text-sm text-stone-700" data-testid="pulse-capped">
            The {counties.length} with the most reports are on the map and below.
          </p>
        ) : null}
        {counties.length === 0 ? (
          <p className="text-stone-700" data-testid="pulse-empty">
            No county has reports from 3 different members in {window}. Add a field report to a post when you see deer: your county lights
            up once two neighbours report too.
          </p>
        ) : (
          <ol className="divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white" data-testid="pulse-list">
            {counties.map((county) => (
              <li key={county.fips} data-fips={county.fips}>
                <Link
                  to={`/pulse/${county.fips}?days=${days}`}
                  className="flex min-h-11 flex-wrap items-baseline gap-x-4 gap-y-1 px-4 py-3 hover:bg-stone-50"
                >
                  <span className="font-semibold text-bark-900 underline-offset-2 hover:underline">
                    {county.name}, {county.state}
                  </span>
                  <span className="text-sm text-stone-700">
                    {county.reports} {county.reports === 1 ? "report" : "reports"} from {county.reporters} members · Rut:{" "}
                    {rutPhaseText(county.rutPhase)} · Last report {lastText(county.lastAt)}
                  </span>
                </Link>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

function ShadeKey() {
  return (
    <>
      {SHADE_STEPS.map((shade) => (
        <span key={shade.label} className="inline-flex items-center gap-1">
          <span aria-hidden="true" className="inline-block h-3 w-4 rounded-sm border border-stone-400" style={{ background: shade.fill }} />
          {shade.label}
        </span>
      ))}
    </>
  );
}

export const meta: MetaFunction<typeof loader> = withUnreadTitle<typeof loader>(({ data }) =>
  pageMeta("The pulse", `Where Whitetail Pulse members saw deer in ${windowText(data?.days ?? 7)}, by county.`),
);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

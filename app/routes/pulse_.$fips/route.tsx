import type { MetaFunction } from "react-router";
import type { RouteHandle } from "~/root";
import { Link, useLoaderData, useLocation, useSearchParams } from "react-router";
import { DaysForm, lastText, rutPhaseText, windowText } from "~/components/places/pulse-parts";
import { PostCard } from "~/components/post/card";
import { ErrorPanel, GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { pageMeta } from "~/utils/brand";
import { withUnreadTitle } from "~/utils/unread-title";
import type { loader } from "./pulse-county-page.server";

/**
 * /pulse/{fips} (CONTRACT.md §14 "The pulse"; docs/decisions/0094-the-pulse.md): one county's figures
 * in the window and the public posts that reported there, newest first, each card linking its post.
 */
export { loader } from "./pulse-county-page.server";

/** A visitor's copy is sent without the app's scripts, as the home's (docs/decisions/0047): the map and the list are HTML. */
export const handle: RouteHandle = { plainForVisitors: true };

export default function PulseCountyPage() {
  const { days, county, posts, viewerId } = useLoaderData<typeof loader>();
  const location = useLocation();
  const redirectTo = `${location.pathname}${location.search}`;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <p>
        <Link to={`/pulse?days=${days}`} className="inline-flex min-h-11 items-center text-sm font-medium text-field-700 hover:underline">
          ← The pulse
        </Link>
      </p>
      <header className="space-y-2">
        <h1 className="text-3xl font-bold text-bark-900">
          {county.name}, {county.state}
        </h1>
        <p className="text-stone-700">Field reports members filed here in {windowText(days)}.</p>
      </header>

      <section className="card p-5" aria-labelledby="county-figures-heading" data-testid="pulse-county-figures">
        <h2 id="county-figures-heading" className="sr-only">
          Figures
        </h2>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
          <Figure label="Reports" value={String(county.reports)} />
          <Figure label="Members reporting" value={String(county.reporters)} />
          <Figure label="Rut phase reported most" value={rutPhaseText(county.rutPhase)} />
          <Figure label="Last report" value={lastText(county.lastAt)} />
        </dl>
      </section>

      <DaysForm action={`/pulse/${county.fips}`} days={days} />

      <section aria-labelledby="county-posts-heading" className="space-y-4">
        <h2 id="county-posts-heading" className="text-xl font-semibold text-bark-900">
          The reports
        </h2>
        {/* The figures count every public report; the list leaves out members the viewer blocked, as the feeds do. */}
        {posts.length === 0 ? <p className="text-stone-700">The reports here are from members you blocked.</p> : null}
        {posts.map((post) => (
          <PostCard key={post.id} post={post} viewerId={viewerId} redirectTo={redirectTo} />
        ))}
      </section>
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-stone-600">{label}</dt>
      <dd className="text-lg font-semibold text-bark-900">{value}</dd>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = withUnreadTitle<typeof loader>(({ data }) =>
  data?.county
    ? pageMeta(
        `The pulse: ${data.county.name}, ${data.county.state}`,
        `Deer reports members filed in ${data.county.name}, ${data.county.state}.`,
      )
    : pageMeta("The pulse"),
);

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: ({ message }) => <NoCounty message={message} /> }} />;
}

/** Under the floor, or no such county: say which, and the way back to the map. */
function NoCounty({ message }: { message: string | undefined }) {
  const [params] = useSearchParams();
  const days = params.get("days");
  return (
    <ErrorPanel title={message ?? "Not found"}>
      <span className="block" data-testid="pulse-county-missing">
        A county shows on the pulse once at least 3 different members reported there in the days chosen.
      </span>
      <span className="mt-6 flex justify-center">
        <Link to={days ? `/pulse?days=${encodeURIComponent(days)}` : "/pulse"} className="btn-primary">
          Back to the pulse
        </Link>
      </span>
    </ErrorPanel>
  );
}

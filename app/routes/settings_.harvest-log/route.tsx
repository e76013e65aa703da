import type { MetaFunction } from "react-router";
import { Link, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { SelectShowForm } from "~/components/ui/select-show-form";
import { FIELD_REPORT_KIND_LABELS, RUT_PHASE_LABELS } from "~/schemas/field-report-options";
import { pageMeta } from "~/utils/brand";
import { signInHref } from "~/utils/urls";
import { withUnreadTitle } from "~/utils/unread-title";
import type { loader } from "./harvest-log-page.server";

/**
 * /settings/harvest-log (CONTRACT.md §14 "Harvest log"; docs/decisions/0095-harvest-log.md): the
 * member's own field reports, private clubs' included, newest day seen first, for nobody but them.
 * The kind filter is a plain GET form and "Download CSV" a plain link to the CSV of the same
 * filter: both work without JavaScript.
 */
export { loader } from "./harvest-log-page.server";

/** Harvests first: the page is named for them. */
const KINDS = [
  { value: "", label: "All kinds" },
  ...(["harvest", "sighting", "rut_sign"] as const).map((value) => ({ value, label: FIELD_REPORT_KIND_LABELS[value] })),
];

export default function HarvestLogPage() {
  const { signedIn, kind, kindError, reports } = useLoaderData<typeof loader>();
  if (!signedIn) return <SignInNotice />;
  const csv = `/api/auth/field-reports.csv${kind ? `?kind=${kind}` : ""}`;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <header className="space-y-2">
        <Link to="/settings?tab=privacy" className="inline-flex min-h-11 items-center text-sm text-field-700 hover:underline">
          ← Settings
        </Link>
        <h1 className="text-2xl font-bold text-bark-900">Harvest log</h1>
        <p className="text-stone-700">
          Your own field reports (harvests, sightings and rut sign), private clubs&apos; included. Only you see this page.
        </p>
      </header>

      <div className="card flex flex-wrap items-end gap-3 p-4">
        <SelectShowForm
          action="/settings/harvest-log"
          id="harvest-kind"
          name="kind"
          label="Kind"
          value={kind ?? ""}
          options={KINDS}
          errorId={kindError ? "harvest-kind-error" : undefined}
        />
        {/* A plain link: the browser downloads the file and stays on the page. */}
        <a href={csv} download className="btn-primary inline-flex min-h-11 items-center" data-testid="harvest-log-csv">
          Download CSV
        </a>
        {kindError ? (
          <p id="harvest-kind-error" role="alert" className="w-full text-sm text-red-700">
            {kindError}
          </p>
        ) : null}
      </div>

      {reports.length === 0 ? (
        <p className="card p-6 text-stone-700" data-testid="harvest-log-empty">
          {kind ? `No ${FIELD_REPORT_KIND_LABELS[kind].toLowerCase()} reports yet.` : "No field reports yet."} Add a field report to a post
          when you write it, and it is listed here.
        </p>
      ) : (
        <ol className="space-y-3" aria-label="Your field reports" data-testid="harvest-log">
          {reports.map((r) => (
            <li key={r.postId} className="card p-4" data-testid="harvest-log-entry">
              <p className="text-sm text-stone-600">
                <time dateTime={r.observedOn}>{r.observedOn}</time> · {FIELD_REPORT_KIND_LABELS[r.kind]}
              </p>
              <p className="font-semibold text-bark-900">
                <Link to={r.post.url} className="inline-flex min-h-11 items-center hover:underline">
                  {r.post.title}
                </Link>
              </p>
              <p className="text-sm text-stone-700">
                {r.county.name}
                {r.county.state ? `, ${r.county.state}` : ""}
                {r.rutPhase ? ` · ${RUT_PHASE_LABELS[r.rutPhase]}` : ""}
                {r.bucks !== null ? ` · ${r.bucks} ${r.bucks === 1 ? "buck" : "bucks"}` : ""}
                {r.does !== null ? ` · ${r.does} ${r.does === 1 ? "doe" : "does"}` : ""}
              </p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function SignInNotice() {
  return (
    <div className="card mx-auto mt-10 max-w-lg p-8 text-center">
      <h1 className="text-2xl font-bold text-bark-900">Harvest log</h1>
      <p className="mt-3 text-stone-600">Please sign in to see your harvest log.</p>
      <Link to={signInHref("/settings/harvest-log")} className="btn-primary mt-6 inline-flex min-h-11 items-center">
        Sign In
      </Link>
    </div>
  );
}

export const meta: MetaFunction = withUnreadTitle(() => pageMeta("Harvest log", "Your own field reports, and a CSV of them."));

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

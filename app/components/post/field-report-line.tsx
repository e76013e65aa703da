import { Link } from "react-router";
import { deerSeen, FIELD_KIND_LABELS, RUT_PHASE_LABELS, shortDay, type FieldReportView } from "~/schemas/field-report-options";

/**
 * A post's field report in one line (CONTRACT.md §14, issue 45 item 1), on its card and its page:
 * "Sighting · Lake, IN · 12 Nov · Seeking · 2 bucks, 3 does". The county links to its pulse page.
 * The day's year shows only when it is not the post's own year.
 */
export function FieldReportLine({ report, postedAt }: { report: FieldReportView | null | undefined; postedAt: string }) {
  if (!report) return null;
  const deer = deerSeen(report.bucks, report.does);
  const parts = [
    <span key="kind" className="font-semibold text-bark-900">
      {FIELD_KIND_LABELS[report.kind] ?? report.kind}
    </span>,
    <Link key="county" to={`/pulse/${report.county.fips}`} className="tap-area text-blaze-700 underline">
      {report.county.name}, {report.county.state}
    </Link>,
    <time key="day" dateTime={report.observedOn}>
      {shortDay(report.observedOn, new Date(postedAt).getUTCFullYear())}
    </time>,
    report.rutPhase ? <span key="phase">{RUT_PHASE_LABELS[report.rutPhase] ?? report.rutPhase}</span> : null,
    deer ? <span key="deer">{deer}</span> : null,
  ].filter(Boolean);
  return (
    <p className="mt-2 flex flex-wrap items-center gap-x-1.5 text-sm text-stone-700" data-testid="field-report">
      <span className="sr-only">Field report: </span>
      {parts.map((part, index) => (
        <span key={index} className="inline-flex items-center gap-x-1.5">
          {index ? <span aria-hidden="true">·</span> : null}
          {part}
        </span>
      ))}
    </p>
  );
}

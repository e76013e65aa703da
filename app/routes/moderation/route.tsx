import { Form, Link, useActionData, useLoaderData, useNavigation, type MetaFunction } from "react-router";
import { ModerationLogLine } from "~/components/moderation/log-line";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { LinkTabs } from "~/components/ui/link-tabs";
import { RelativeTime } from "~/components/ui/relative-time";
// The labels from the options module, not the schema's: the schema's zod (8 KB as brotli) stays off this page.
import { REPORT_REASON_LABELS, REPORT_TARGET_NAMES } from "~/schemas/report-options";
import type { QueueEntry } from "~/schemas/report";
import type { ModerationLogEntry } from "~/schemas/shapes";
import type { DecisionFailure, ModerationTab, loader } from "./moderation-page.server";
import { withUnreadTitle } from "~/utils/unread-title";

export { loader, action } from "./moderation-page.server";

/**
 * /moderation (CONTRACT.md §8 "Pages"): the open queue, closed cases and the log, as tabs that are
 * links. Each case shows the content as reported and as it is now, its reports (never who made
 * them), and plain forms to dismiss it or remove the content with a reason.
 */
export default function ModerationPage() {
  const { tab, cases, log, siteStaff } = useLoaderData<typeof loader>();
  const tabs: { value: ModerationTab; label: string; href: string }[] = [
    { value: "open", label: "Open reports", href: "/moderation" },
    { value: "closed", label: "Closed", href: "/moderation?tab=closed" },
    { value: "log", label: "Log", href: "/moderation?tab=log" },
  ];
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-bold text-bark-900">Moderation</h1>
      <LinkTabs
        id="moderation"
        label="Moderation"
        value={tab}
        tabs={tabs}
        listClassName="mt-4 flex gap-2 border-b border-stone-200"
        tabClassName="inline-flex h-11 min-w-11 items-center justify-center px-2 font-medium text-stone-600 data-[state=active]:border-b-2 data-[state=active]:border-blaze-500 data-[state=active]:text-bark-900"
      >
        <div className="mt-4">
          {cases ? <CaseList entries={cases.entries} nextCursor={cases.nextCursor} tab={tab} siteStaff={siteStaff} /> : null}
          {log ? <LogList entries={log.entries} nextCursor={log.nextCursor} /> : null}
        </div>
      </LinkTabs>
    </div>
  );
}

function CaseList({
  entries,
  nextCursor,
  tab,
  siteStaff,
}: {
  entries: QueueEntry[];
  nextCursor: string | null;
  tab: ModerationTab;
  siteStaff: boolean;
}) {
  if (entries.length === 0) {
    return (
      <p className="card p-8 text-center text-stone-600">
        {tab === "open" ? "Nothing waiting: no open reports." : "No closed reports yet."}
      </p>
    );
  }
  return (
    <>
      <ul className="space-y-4" aria-label="Reports">
        {entries.map((entry) => (
          <CaseCard key={entry.id} entry={entry} siteStaff={siteStaff} />
        ))}
      </ul>
      {nextCursor ? (
        <Link to={`/moderation?tab=${tab}&cursor=${encodeURIComponent(nextCursor)}`} className="btn-secondary mt-4 inline-block">
          Older reports
        </Link>
      ) : null}
    </>
  );
}

const STATE_LABELS: Record<QueueEntry["state"], string> = {
  visible: "Visible",
  hidden: "Hidden after reports",
  removed: "Removed",
  deleted: "Deleted",
};

/** How a closed case was decided, said of the case (ux-3 U13: it said only "Decided."). */
const CLOSED_AS: Partial<Record<NonNullable<QueueEntry["decision"]>["action"], string>> = {
  dismiss: "Dismissed",
  remove: "Removed",
  restore: "Restored",
  purge: "Removed with the member's recent posts",
  dismiss_reports: "Dismissed with the reporter's other reports",
};

function CaseCard({ entry, siteStaff }: { entry: QueueEntry; siteStaff: boolean }) {
  const name = REPORT_TARGET_NAMES[entry.targetType];
  return (
    <li className="card p-4" data-testid="moderation-case" aria-labelledby={`case-${entry.id}-title`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`case-${entry.id}-title`} className="font-semibold text-bark-900">
          Reported {name}
        </h2>
        {entry.href ? (
          // Where to see it, named as a link (ux-3 U13: "(open)" read like the case's status), tappable.
          <Link to={entry.href} className="tap text-sm font-semibold text-bark-700 underline" data-testid="case-view">
            View {name} ›
          </Link>
        ) : null}
      </div>
      <p className="text-sm text-stone-500">
        {STATE_LABELS[entry.state]} · {entry.reports.length} {entry.reports.length === 1 ? "report" : "reports"} ·{" "}
        <RelativeTime iso={entry.createdAt} />
        {entry.author ? (
          // Who wrote it (ux-3 U23): their profile, and for site staff their history.
          <>
            {" · by "}
            <Link to={`/profile/${entry.author.username}`} className="underline" data-testid="case-author">
              {entry.author.displayName} (@{entry.author.username})
            </Link>
          </>
        ) : null}
        {siteStaff && entry.author ? (
          <>
            {" · "}
            <Link to={`/moderation/members/${entry.author.username}`} className="underline" data-testid="case-author-history">
              their history
            </Link>
          </>
        ) : null}
        {siteStaff && entry.subject ? (
          <>
            {" · "}
            <Link to={`/moderation/members/${entry.subject}`} className="underline" data-testid="case-member">
              @{entry.subject}: suspend or remove recent posts
            </Link>
          </>
        ) : null}
      </p>
      {entry.current === entry.snapshot ? (
        // Unchanged since the first report: the text once, not twice (ux-3 U13).
        <div className="mt-3">
          <h3 className="text-xs font-semibold uppercase text-stone-500">As reported, unchanged</h3>
          <p className="mt-1 whitespace-pre-line break-words rounded-md bg-stone-50 p-2 text-sm text-stone-800" data-testid="case-snapshot">
            {entry.snapshot}
          </p>
          {entry.removalReason ? <p className="mt-1 text-sm text-red-800">Removed: {entry.removalReason}</p> : null}
        </div>
      ) : (
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          <div>
            <h3 className="text-xs font-semibold uppercase text-stone-500">As reported</h3>
            <p
              className="mt-1 whitespace-pre-line break-words rounded-md bg-stone-50 p-2 text-sm text-stone-800"
              data-testid="case-snapshot"
            >
              {entry.snapshot}
            </p>
          </div>
          <div>
            <h3 className="text-xs font-semibold uppercase text-stone-500">Now</h3>
            <p
              className="mt-1 whitespace-pre-line break-words rounded-md bg-stone-50 p-2 text-sm text-stone-800"
              data-testid="case-current"
            >
              {entry.current ?? "Deleted by its author."}
            </p>
            {entry.removalReason ? <p className="mt-1 text-sm text-red-800">Removed: {entry.removalReason}</p> : null}
          </div>
        </div>
      )}
      <h3 className="mt-3 text-xs font-semibold uppercase text-stone-500">Reports</h3>
      <ul className="mt-1 space-y-1 text-sm" data-testid="case-reports">
        {entry.reports.map((report, i) => (
          <li key={i}>
            <span className="font-semibold">{REPORT_REASON_LABELS[report.reason]}</span> · <RelativeTime iso={report.createdAt} />
            {report.details ? <p className="whitespace-pre-line break-words text-stone-700">{report.details}</p> : null}
          </li>
        ))}
      </ul>
      {entry.status === "open" ? (
        <DecisionForm entry={entry} />
      ) : (
        <p className="mt-3 text-sm text-stone-500" data-testid="case-closed">
          {entry.decision ? `${CLOSED_AS[entry.decision.action] ?? "Closed"} by ${entry.decision.by}` : "Closed"}
          {entry.closedAt ? (
            <>
              {" "}
              <RelativeTime iso={entry.closedAt} />
            </>
          ) : null}
        </p>
      )}
    </li>
  );
}

function DecisionForm({ entry }: { entry: QueueEntry }) {
  const data = useActionData<DecisionFailure>();
  const failure = data && "caseId" in data && data.caseId === entry.id ? data : null;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("caseId") === String(entry.id);
  const removable = entry.targetType === "post" || entry.targetType === "comment";
  const reasonError = failure?.fieldErrors.reason?.[0] ?? (failure ? failure.error : null);
  const fieldId = `case-${entry.id}-reason`;
  return (
    <Form method="post" className="mt-3 space-y-2 border-t border-stone-100 pt-3" data-testid="decision-form" preventScrollReset>
      <input type="hidden" name="caseId" value={entry.id} />
      {removable && entry.state !== "deleted" ? (
        <div>
          <label htmlFor={fieldId} className="text-sm font-semibold text-bark-900">
            Reason for removal <span className="font-normal text-stone-500">(the author sees it)</span>
          </label>
          <input
            id={fieldId}
            name="reason"
            defaultValue={failure?.values.reason ?? ""}
            maxLength={500}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={reasonError ? `${fieldId}-error` : undefined}
            className="mt-1 w-full rounded-md border border-stone-300 p-2 text-sm"
          />
        </div>
      ) : entry.targetType === "user" ? (
        <p className="text-sm text-stone-600">Members are not removed from here: suspend them from their page if needed.</p>
      ) : entry.targetType === "club" ? (
        <p className="text-sm text-stone-600">Clubs are not removed from here.</p>
      ) : null}
      {reasonError ? (
        <p id={`${fieldId}-error`} role="alert" className="text-sm text-red-700">
          {reasonError}
        </p>
      ) : null}
      <div className="flex gap-2">
        {removable && entry.state !== "deleted" ? (
          <button type="submit" name="intent" value="remove" className="btn-danger" disabled={busy}>
            Remove
          </button>
        ) : null}
        <button type="submit" name="intent" value="dismiss" className="btn-secondary" disabled={busy}>
          Dismiss
        </button>
      </div>
    </Form>
  );
}

function LogList({ entries, nextCursor }: { entries: ModerationLogEntry[]; nextCursor: string | null }) {
  if (entries.length === 0) return <p className="card p-8 text-center text-stone-600">No decisions yet.</p>;
  return (
    <>
      <ul className="card divide-y divide-stone-100" aria-label="Moderation log">
        {entries.map((e) => (
          <li key={e.id} className="p-3 text-sm" data-testid="log-entry">
            <ModerationLogLine entry={e} />
          </li>
        ))}
      </ul>
      {nextCursor ? (
        <Link to={`/moderation?tab=log&cursor=${encodeURIComponent(nextCursor)}`} className="btn-secondary mt-4 inline-block">
          Older entries
        </Link>
      ) : null}
    </>
  );
}

export const meta: MetaFunction = withUnreadTitle(() => [{ title: "Moderation | Whitetail Pulse" }]);

export const ErrorBoundary = GeneralErrorBoundary;

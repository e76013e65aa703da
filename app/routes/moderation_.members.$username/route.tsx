import { Form, Link, useActionData, useLoaderData, useNavigation, type MetaFunction } from "react-router";
import { ModerationLogLine } from "~/components/moderation/log-line";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Field, FormAlert } from "~/components/ui/field";
import { PURGE_DAYS_MAX, SUSPENSION_DAYS_MAX, SUSPENSION_REASON_MAX, suspensionEndDate } from "~/schemas/moderation-staff";
import type { action, loader } from "./member-staff.server";
import { withUnreadTitle } from "~/utils/unread-title";

export { action, loader } from "./member-staff.server";
// What its loader or action answers `no-store` (one viewer's own) stays so in its `.data` answer (ADR 0079).
export { keepNoStore as headers } from "~/web/cache-control.server";

/** /moderation/members/{username}: one member as site staff see them, with suspend and lift. */
export default function StaffMemberPage() {
  const { member, openReports, drawn, maySuspend, refusal, log } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const suspendFailure = failed && "intent" in failed && failed.intent === "suspend" ? failed : null;
  const purgeFailure = failed && "intent" in failed && failed.intent === "purge" ? failed : null;
  const otherFailure = failed && !("intent" in failed) ? failed.error : null;
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-2xl space-y-6 p-4">
      <header className="card p-6">
        <p className="text-sm text-stone-500">Moderation</p>
        <h1 className="text-2xl font-bold text-bark-900">
          {member.displayName} <span className="text-base font-normal text-stone-500">@{member.username}</span>
        </h1>
        <p className="mt-1 text-stone-700">
          Role: <span data-testid="member-role">{member.role}</span> ·{" "}
          <Link to={`/profile/${member.username}`} className="underline">
            Profile
          </Link>
        </p>
        <p className="mt-3" data-testid="member-status" role="status">
          {member.suspended ? (
            <>
              <strong>Suspended</strong>{" "}
              {member.suspendedUntil ? `until ${suspensionEndDate(member.suspendedUntil)}` : "until a moderator lifts it"}:{" "}
              {member.suspensionReason}
            </>
          ) : (
            "Not suspended."
          )}
        </p>
      </header>

      <FormAlert id="staff-member-error" title="That did not work" errors={otherFailure ? [otherFailure] : null} />

      {maySuspend ? (
        <section className="card space-y-4 p-6" aria-labelledby="suspend-title">
          <h2 id="suspend-title" className="text-lg font-semibold text-bark-900">
            {member.suspended ? "Change the suspension" : "Suspend"}
          </h2>
          <p className="text-sm text-stone-600">
            Suspending signs the member out everywhere. They read the reason when they try to sign in. Their posts and comments stay unless
            you remove them.
          </p>
          <Form method="post" className="space-y-4" noValidate>
            <ReasonAndDays
              intent="suspend"
              failure={suspendFailure}
              failedTitle="The member was not suspended"
              reasonLabel="Reason (the member reads it)"
              daysLabel="Days"
              daysHint="Leave empty to suspend until a moderator lifts it."
              daysOptional
              daysMax={SUSPENSION_DAYS_MAX}
            />
            <button type="submit" name="intent" value="suspend" className="btn-primary" disabled={busy}>
              Suspend {member.username}
            </button>
          </Form>
          {member.suspended ? (
            <Form method="post">
              <button type="submit" name="intent" value="unsuspend" className="btn-secondary" disabled={busy}>
                Lift suspension
              </button>
            </Form>
          ) : null}
        </section>
      ) : (
        <p className="card p-6 text-stone-700">{refusal}</p>
      )}

      {maySuspend ? (
        <section className="card space-y-4 p-6" aria-labelledby="purge-title">
          <h2 id="purge-title" className="text-lg font-semibold text-bark-900">
            Remove recent posts and comments
          </h2>
          <p className="text-sm text-stone-600">
            For a spam wave: everything {member.username} posted or commented in the last days you choose is removed with your reason, and
            the reports about it are closed. One entry in the log.
          </p>
          <Form method="post" className="space-y-4" noValidate>
            <ReasonAndDays
              intent="purge"
              failure={purgeFailure}
              failedTitle="Nothing was removed"
              reasonLabel="Reason (shown on each removed item)"
              daysLabel="Of the last … days"
              daysMax={PURGE_DAYS_MAX}
              daysDefault="1"
            />
            <button type="submit" name="intent" value="purge" className="btn-primary" disabled={busy}>
              Remove {member.username}&apos;s posts and comments
            </button>
          </Form>
        </section>
      ) : null}

      <section className="card space-y-3 p-6" aria-labelledby="dismiss-reports-title">
        <h2 id="dismiss-reports-title" className="text-lg font-semibold text-bark-900">
          Reports by {member.username}
        </h2>
        <p className="text-sm text-stone-600">
          {openReports === 0
            ? "No open case has a report by this member."
            : `${openReports} open case${openReports === 1 ? " has" : "s have"} a report by this member. For a false brigade, dismiss them all: what those reports hid comes back.`}
        </p>
        {openReports > 0 ? (
          <Form method="post">
            <button type="submit" name="intent" value="dismiss-reports" className="btn-secondary" disabled={busy}>
              Dismiss every open report by {member.username}
            </button>
          </Form>
        ) : null}
      </section>

      <section className="card p-6" aria-labelledby="member-log-title">
        <h2 id="member-log-title" className="text-lg font-semibold text-bark-900">
          History
        </h2>
        {/* A repeat offender is seen at once (ux-3 U23): what their posts and comments drew, and every decision. */}
        <p className="mt-1 text-sm text-stone-600" data-testid="member-reports-drawn">
          {drawn.reports === 0
            ? "No reports about their posts or comments."
            : `${drawn.reports} report${drawn.reports === 1 ? "" : "s"} about ${drawn.items} of their posts and comments.`}
        </p>
        {log.length === 0 ? (
          <p className="mt-2 text-stone-600">No decisions about this member or their posts yet.</p>
        ) : (
          <ul className="mt-2 divide-y divide-stone-100" aria-label="Decisions about this member and their posts">
            {log.map((entry) => (
              <li key={entry.id} className="py-2 text-sm" data-testid="member-log-entry">
                {/* Their posts and comments by kind and title; the member themself by name alone. */}
                <ModerationLogLine entry={entry} named={entry.targetType !== "user"} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/**
 * A staff decision's reason and days (suspension, purge): what was typed comes back with the
 * messages when the decision is refused, and a refusal of the whole form shows above the fields.
 */
function ReasonAndDays({
  intent,
  failure,
  failedTitle,
  reasonLabel,
  daysLabel,
  daysHint,
  daysMax,
  daysDefault = "",
  daysOptional = false,
}: {
  intent: "suspend" | "purge";
  failure: { error: string; fieldErrors: Record<string, string[] | undefined>; values: { reason: string; days: string } } | null;
  failedTitle: string;
  reasonLabel: string;
  daysLabel: string;
  daysHint?: string;
  daysMax: number;
  daysDefault?: string;
  /** No days is a choice (a suspension until lifted), not a mistake. */
  daysOptional?: boolean;
}) {
  return (
    <>
      <FormAlert
        id={`${intent}-error`}
        title={failedTitle}
        errors={failure && Object.keys(failure.fieldErrors).length === 0 ? [failure.error] : null}
      />
      <Field id={`${intent}-reason`} label={reasonLabel} errors={failure?.fieldErrors.reason}>
        <textarea
          id={`${intent}-reason`}
          name="reason"
          rows={3}
          maxLength={SUSPENSION_REASON_MAX}
          required
          className="input"
          defaultValue={failure?.values.reason ?? ""}
          aria-invalid={failure?.fieldErrors.reason ? true : undefined}
          aria-describedby={failure?.fieldErrors.reason ? `${intent}-reason-error` : undefined}
        />
      </Field>
      <Field id={`${intent}-days`} label={daysLabel} hint={daysHint} errors={failure?.fieldErrors.days}>
        <input
          id={`${intent}-days`}
          name="days"
          type="number"
          min={1}
          max={daysMax}
          step={1}
          required={!daysOptional}
          inputMode="numeric"
          className="input w-32"
          defaultValue={failure?.values.days ?? daysDefault}
          aria-invalid={failure?.fieldErrors.days ? true : undefined}
        />
      </Field>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = withUnreadTitle<typeof loader>(({ data }) => [
  { title: data ? `${data.member.displayName} · Moderation` : "Moderation" },
  { name: "robots", content: "noindex" },
]);

export const ErrorBoundary = GeneralErrorBoundary;

import type { DialogFormBag } from "~/components/ui/dialog-form";
import { FormActions } from "~/components/ui/form-actions";
import { REPORT_DETAILS_MAX, REPORT_REASON_LABELS, REPORT_REASONS, type ReportReason } from "~/schemas/report-options";

/** What the report form's action answers when it did not go through: the message and what was typed. */
export type ReportFailure = {
  error: string;
  fieldErrors: Record<string, string[]>;
  values: { reason: string; details: string };
};

/** The form itself: the categories as radio buttons and optional details (dialog and page). */
export function ReportForm({ form }: { form: Pick<DialogFormBag<ReportFailure>, "Form" | "action" | "data" | "busy" | "cancel"> }) {
  const failure = form.data && "error" in form.data ? form.data : null;
  const chosen = failure?.values.reason as ReportReason | undefined;
  const reasonError = failure?.fieldErrors.reason?.[0];
  const detailsError = failure?.fieldErrors.details?.[0];
  const formError = failure && !reasonError && !detailsError ? failure.error : null;
  return (
    <form.Form method="post" action={form.action} className="space-y-4" data-testid="report-form">
      {formError ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {formError}
        </p>
      ) : null}
      <fieldset aria-describedby={reasonError ? "report-reason-error" : undefined}>
        <legend className="text-sm font-semibold text-bark-900">What is wrong?</legend>
        <div className="mt-2 space-y-2">
          {REPORT_REASONS.map((reason) => (
            <label key={reason} className="flex items-center gap-2 text-sm text-stone-800">
              <input type="radio" name="reason" value={reason} defaultChecked={chosen === reason} required />
              {REPORT_REASON_LABELS[reason]}
            </label>
          ))}
        </div>
        {reasonError ? (
          <p id="report-reason-error" role="alert" className="mt-1 text-sm text-red-700">
            {reasonError}
          </p>
        ) : null}
      </fieldset>
      <div>
        <label htmlFor="report-details" className="text-sm font-semibold text-bark-900">
          Details <span className="font-normal text-stone-500">(optional)</span>
        </label>
        <textarea
          id="report-details"
          name="details"
          rows={4}
          maxLength={REPORT_DETAILS_MAX}
          defaultValue={failure?.values.details ?? ""}
          aria-invalid={detailsError ? true : undefined}
          aria-describedby={detailsError ? "report-details-error" : undefined}
          className="mt-1 w-full rounded-md border border-stone-300 p-2 text-sm"
        />
        {detailsError ? (
          <p id="report-details-error" role="alert" className="mt-1 text-sm text-red-700">
            {detailsError}
          </p>
        ) : null}
      </div>
      <FormActions form={form} intent="report" label="Send report" busyLabel="Sending..." />
    </form.Form>
  );
}

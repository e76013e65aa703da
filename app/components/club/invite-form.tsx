import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { IdempotencyKeyInput } from "~/components/ui/idempotency-key";
import { Field, FieldErrors } from "~/components/ui/field";
import { useBrowserValidation } from "~/utils/browser-validation";
import { useIsPending } from "~/utils/remix";
import type { ClubRef } from "./invites";

/** SPEC.md §5 Invite form: max uses and expiry in hours, both optional. Posts to the Invites tab. */
export function InviteForm({ club, lastResult }: { club: ClubRef; lastResult: SubmissionResult<string[]> | undefined }) {
  const busy = useIsPending({ intent: "invite" });
  const [form, fields] = useForm({
    id: "invite",
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: useBrowserValidation(() => import("~/schemas/club").then((m) => m.inviteSchema)),
  });
  return (
    <section className="card p-5" aria-labelledby="invite-title">
      <h2 id="invite-title" className="text-lg font-bold text-bark-900">
        Invite hunters
      </h2>
      <p className="mt-1 text-sm text-stone-600">An invite link lets someone join straight away, even if the club is private.</p>
      <Form method="post" action={`/clubs/${club.id}/invites`} {...getFormProps(form)} className="mt-4 space-y-4" preventScrollReset>
        <IdempotencyKeyInput />
        <FieldErrors id={form.errorId} errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            id={fields.usesRemaining.id}
            label="Max uses (optional)"
            errors={fields.usesRemaining.errors}
            hint="Leave empty for unlimited."
          >
            <input
              {...getInputProps(fields.usesRemaining, { type: "number" })}
              min={1}
              step={1}
              className="input"
              placeholder="Unlimited"
            />
          </Field>
          <Field
            id={fields.expiresIn.id}
            label="Expires in hours (optional)"
            errors={fields.expiresIn.errors}
            hint="Leave empty for no expiry."
          >
            <input {...getInputProps(fields.expiresIn, { type: "number" })} min={1} step={1} className="input" placeholder="Never" />
          </Field>
        </div>
        <div className="flex justify-end">
          <button type="submit" name="intent" value="invite" className="btn-primary" disabled={busy}>
            {busy ? "Generating..." : "Generate Invite Link"}
          </button>
        </div>
      </Form>
    </section>
  );
}

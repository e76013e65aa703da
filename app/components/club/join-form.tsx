import type { SubmissionResult } from "@conform-to/react";
import type { DialogFormBag } from "~/components/ui/dialog-form";
import { WithDraft } from "~/components/ui/draft-note";
import { Field, FieldErrors } from "~/components/ui/field";
import { IdempotencyKeyInput } from "~/components/ui/idempotency-key";
import type { DraftBag } from "~/components/ui/use-draft";
import type { Club } from "~/schemas/shapes";

/**
 * The Join dialog's form (join-dialog.tsx), fetched when the dialog opens or the page is
 * `?join=1`: its drafts and fields are not in every club page's first load.
 */

export type JoinFormProps = {
  club: Club;
  form: DialogFormBag<unknown>;
  redirectTo?: string;
  lastResult?: SubmissionResult<string[]>;
};

const joinFormId = ({ club, form }: JoinFormProps) => `join-${club.id}-${form.mode}`;

/** The message is kept as a local draft (docs/decisions/0031-local-drafts.md) until the request is sent. */
export function DraftedJoinForm(props: JoinFormProps) {
  return (
    <WithDraft formId={joinFormId(props)} name={`join:${props.club.id}`} fields={["message"]} skipRestore={Boolean(props.lastResult)}>
      {(draft) => <JoinForm {...props} draft={draft} />}
    </WithDraft>
  );
}

function JoinForm(props: JoinFormProps & { draft: DraftBag }) {
  const { club, form: bag, redirectTo, lastResult, draft } = props;
  const id = joinFormId(props);
  const errors = lastResult?.error ?? {};
  const replied = lastResult?.initialValue?.message;
  const typed = typeof replied === "string" ? replied : draft.value("message");
  return (
    <bag.Form method="post" action={bag.action} id={id} className="space-y-4" aria-describedby={errors[""] ? `${id}-error` : undefined}>
      <IdempotencyKeyInput />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <FieldErrors id={`${id}-error`} errors={errors[""]} />
      {club.isPrivate ? (
        <Field id={`${id}-message`} label="Message (optional)" errors={errors.message}>
          <textarea
            id={`${id}-message`}
            name="message"
            // A refused message comes back as typed (the key redraws the field with it), else the draft.
            key={typed ?? ""}
            defaultValue={typed}
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={errors.message ? `${id}-message-error` : undefined}
            rows={3}
            maxLength={500}
            className="input"
            placeholder="Tell the owner a bit about yourself and where you hunt"
          />
        </Field>
      ) : null}
      <div className="flex justify-end gap-3">
        {bag.cancel}
        <button type="submit" name="intent" value="join" className="btn-primary" disabled={bag.busy}>
          {bag.busy ? "Sending..." : club.isPrivate ? "Send Request" : "Join Club"}
        </button>
      </div>
    </bag.Form>
  );
}

import type { SubmissionResult } from "@conform-to/react";
import { DialogForm, type DialogFormBag } from "~/components/ui/dialog-form";
import type { DialogFormState } from "~/components/ui/dialog-form-state";
import { WithDraft } from "~/components/ui/draft-note";
import { Field, FieldErrors } from "~/components/ui/field";
import { IdempotencyKeyInput } from "~/components/ui/idempotency-key";
import type { DraftBag } from "~/components/ui/use-draft";
import type { Club } from "~/schemas/shapes";

/**
 * Joining a club with an optional message to the owner: the club page's Join dialog, and the same
 * dialog from a card on /clubs (issue 14 #27). Deliberately a plain form, without zod or Conform's
 * client, so the clubs list's browser code stays light: the message is checked by the club page's
 * action (`joinSchema`), whose Conform reply this form shows (errors, and the message as typed); the
 * textarea's own `maxLength` keeps it within 500 characters as it is typed.
 *
 * With JavaScript the trigger (a link to `/clubs/{id}?join=1`) opens the dialog in place; without,
 * that link leads to the club page's inline twin of the form.
 */
export function ClubJoinDialog({
  club,
  dialog,
  inline = true,
  redirectTo,
}: {
  club: Club;
  dialog: DialogFormState;
  /** False on a card in a list: the dialog only (the inline twin lives on the club page). */
  inline?: boolean;
  /** Where the member lands after the request is sent (the page the dialog was opened on). */
  redirectTo?: string;
}) {
  return (
    <DialogForm
      dialog={dialog}
      inline={inline}
      title={club.isPrivate ? `Request to join ${club.name}` : `Join ${club.name}`}
      description={
        club.isPrivate
          ? "The owner reviews each request. Add a note so they know who you are."
          : "This club is public: you join straight away."
      }
      action={`/clubs/${club.id}`}
      intent="join"
    >
      {(form) => <DraftedJoinForm club={club} form={form} redirectTo={redirectTo} lastResult={joinReply(form.data)} />}
    </DialogForm>
  );
}

/** The join form's Conform reply out of the club action's answer (`{ intent: "join", result }`). */
function joinReply(data: unknown): SubmissionResult<string[]> | undefined {
  if (!data || typeof data !== "object" || !("intent" in data) || data.intent !== "join" || !("result" in data)) return undefined;
  return data.result as SubmissionResult<string[]>;
}

type JoinFormProps = {
  club: Club;
  form: DialogFormBag<unknown>;
  redirectTo?: string;
  lastResult?: SubmissionResult<string[]>;
};

const joinFormId = ({ club, form }: JoinFormProps) => `join-${club.id}-${form.mode}`;

/** The message is kept as a local draft (docs/decisions/0031-local-drafts.md) until the request is sent. */
function DraftedJoinForm(props: JoinFormProps) {
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

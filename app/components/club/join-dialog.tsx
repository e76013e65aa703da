import type { SubmissionResult } from "@conform-to/react";
import { Suspense } from "react";
import { DialogForm, FormUnavailable } from "~/components/ui/dialog-form";
import type { DialogFormState } from "~/components/ui/dialog-form-state";
import { lazyPart } from "~/components/ui/lazy-part";
import type { Club } from "~/schemas/shapes";
import { importAgain } from "~/utils/import-again";
import type { JoinFormProps } from "./join-form";

/**
 * The form itself (drafts, fields) is fetched when it is shown: the dialog opens, or the page is
 * `?join=1` (hydration keeps the server's form until the code arrives); when it does not arrive, the
 * dialog says so (docs/decisions/0045), as Edit Club's does.
 */
const JoinForm = lazyPart<JoinFormProps>(
  importAgain(
    () => import("./join-form"),
    (m) => m.DraftedJoinForm,
  ),
  FormUnavailable,
);

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
      {(form) => (
        <Suspense fallback={null}>
          <JoinForm club={club} form={form} redirectTo={redirectTo} lastResult={joinReply(form.data)} />
        </Suspense>
      )}
    </DialogForm>
  );
}

/** The join form's Conform reply out of the club action's answer (`{ intent: "join", result }`). */
function joinReply(data: unknown): SubmissionResult<string[]> | undefined {
  if (!data || typeof data !== "object" || !("intent" in data) || data.intent !== "join" || !("result" in data)) return undefined;
  return data.result as SubmissionResult<string[]>;
}

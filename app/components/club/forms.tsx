import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useBrowserValidation } from "~/utils/browser-validation";
import type { DialogFormBag } from "~/components/ui/dialog-form";
import { FormActions } from "~/components/ui/form-actions";
import { WithDraft } from "~/components/ui/draft-note";
import { FieldErrors } from "~/components/ui/field";
import type { DraftBag } from "~/components/ui/use-draft";
import type { EditClubInput } from "~/schemas/club";
import { EDIT_LIMIT_MAX } from "~/schemas/club-options";
import { CLUB_DRAFT_FIELDS, ClubFields } from "./fields";
import type { Club } from "~/schemas/shapes";

/**
 * The club page's dialog forms (edit; joining is join-dialog.tsx), each rendered by a DialogForm:
 * `form` says where and how to post, `lastResult` is the action's Conform reply to this form.
 */
type Bag = Omit<DialogFormBag<unknown>, "data">;
type Result = SubmissionResult<string[]> | undefined;

type FormProps = { club: Club; form: Bag; lastResult: Result };

/** Edit Club keeps a local draft too (useDraft), per club. */
export function EditClubForm(props: FormProps) {
  return (
    <WithDraft
      formId={`edit-club-${props.form.mode}`}
      name={`club-edit:${props.club.id}`}
      fields={CLUB_DRAFT_FIELDS}
      skipRestore={Boolean(props.lastResult)}
    >
      {(draft) => <EditClubFields {...props} draft={draft} />}
    </WithDraft>
  );
}

function EditClubFields({ club, form: bag, lastResult, draft }: FormProps & { draft: DraftBag }) {
  // A limit above EDIT_LIMIT_MAX (set at creation) may be kept as it is (editClubSchema).
  const kept = club.memberLimit !== null && club.memberLimit > EDIT_LIMIT_MAX ? club.memberLimit : null;
  const [form, fields] = useForm<EditClubInput>({
    id: `edit-club-${bag.mode}`,
    lastResult,
    defaultValue: {
      name: draft.value("name") ?? club.name,
      description: draft.value("description") ?? club.description,
      imageUrl: draft.value("imageUrl") ?? club.imageUrl ?? "",
      location: draft.value("location") ?? club.location ?? "",
      maxMembers: draft.value("maxMembers") ?? (club.memberLimit === null ? "" : String(club.memberLimit)),
      isPrivate: draft.value("isPrivate") ?? (club.isPrivate ? "true" : "false"),
      tags: draft.list("tags")?.join(", ") ?? club.tags.join(", "),
      rules: draft.value("rules") ?? club.rules ?? "",
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: useBrowserValidation(() => import("~/schemas/club").then((m) => m.editClubSchema)),
  });
  return (
    <bag.Form method="post" action={bag.action} {...getFormProps(form)} className="space-y-4">
      <FieldErrors id={form.errorId} errors={form.errors} />
      {kept !== null ? <input type="hidden" name="keptMaxMembers" value={kept} /> : null}
      <ClubFields
        fields={fields}
        limit={{ field: fields.maxMembers, label: "Max members (optional)", max: kept ?? EDIT_LIMIT_MAX }}
        privateByDefault={club.isPrivate}
        tags="comma-separated"
      />
      <FormActions form={bag} intent="update" label="Save Changes" busyLabel="Saving..." />
    </bag.Form>
  );
}

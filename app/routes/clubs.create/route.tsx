import type { MetaFunction } from "react-router";
import { getFormProps, useForm } from "@conform-to/react";
import { IdempotencyKeyInput } from "~/components/ui/idempotency-key";
import { useBrowserValidation } from "~/utils/browser-validation";
import { Form, Link, useActionData, useLoaderData } from "react-router";
import { CLUB_DRAFT_FIELDS, ClubFields } from "~/components/club/fields";
import { DraftNote } from "~/components/ui/draft-note";
import { useDraft, type DraftBag } from "~/components/ui/use-draft";
import { ErrorPanel, GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { FieldErrors } from "~/components/ui/field";
import { CREATE_LIMIT_MAX } from "~/schemas/club-options";
import { pageMeta } from "~/utils/brand";
import { failedToast, isUnsent, keepPageOnFailure, shouldRevalidate } from "~/offline/client-action";
import { useIsPending } from "~/utils/remix";
import { signInHref } from "~/utils/urls";
import type { loader, action } from "./club-create.server";
import { withUnreadTitle } from "~/utils/unread-title";

export { loader, action } from "./club-create.server";

/** With JavaScript a failed send keeps the form and what was typed, and says so (SPEC.md §8). */
export const clientAction = keepPageOnFailure({ failed: failedToast({ fixed: "createClub" }) });
export { shouldRevalidate };

export default function CreateClubPage() {
  const { signedIn } = useLoaderData<typeof loader>();
  if (!signedIn) {
    return (
      <ErrorPanel title="Sign In Required">
        <span className="block">Please sign in to create a club.</span>
        <Link to={signInHref("/clubs/create")} className="btn-primary mt-6">
          Sign In
        </Link>
      </ErrorPanel>
    );
  }
  return <CreateClubDraft />;
}

/** Create Club keeps a local draft (useDraft, ADR 0031) until the club is created. */
function CreateClubDraft() {
  const actionData = useActionData<typeof action>();
  const draft = useDraft({ formId: "create-club", name: "club-create", fields: CLUB_DRAFT_FIELDS, skipRestore: Boolean(actionData) });
  return <CreateClubForm key={draft.version} draft={draft} />;
}

function CreateClubForm({ draft }: { draft: DraftBag }) {
  const actionData = useActionData<typeof action>();
  const busy = useIsPending();
  const [form, fields] = useForm({
    id: "create-club",
    lastResult: actionData && !isUnsent(actionData) && !("fieldErrors" in actionData) ? actionData : undefined,
    defaultValue: {
      name: draft.value("name"),
      description: draft.value("description"),
      imageUrl: draft.value("imageUrl"),
      location: draft.value("location"),
      memberLimit: draft.value("memberLimit"),
      isPrivate: draft.value("isPrivate"),
      tags: draft.list("tags")?.join(", "),
      rules: draft.value("rules"),
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: useBrowserValidation(() => import("~/schemas/club").then((m) => m.createClubSchema)),
  });

  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="mb-6 text-3xl font-bold text-bark-900">Create Club</h1>
      <DraftNote draft={draft} />
      <Form method="post" {...getFormProps(form)} className="card space-y-5 p-6" aria-label="Create Club">
        <IdempotencyKeyInput />
        <FieldErrors id={form.errorId} errors={form.errors} />
        <ClubFields
          fields={fields}
          limit={{ field: fields.memberLimit, label: "Member limit (optional)", max: CREATE_LIMIT_MAX }}
          privateByDefault
          tags="chips"
        />
        <div className="flex justify-end gap-3">
          <Link to="/clubs" className="btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? "Creating..." : "Create Club"}
          </button>
        </div>
      </Form>
    </div>
  );
}

export const meta: MetaFunction = withUnreadTitle(() =>
  pageMeta("Create Club", "Start a hunting club: a lease, a camp or a crew, public or private, with its own rules and posts."),
);

export const ErrorBoundary = GeneralErrorBoundary;

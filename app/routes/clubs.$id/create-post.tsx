import type { MetaFunction } from "react-router";
import { Link, useActionData, useLoaderData } from "react-router";
import { ClubImage } from "~/components/club/image";
import { ClubNotFound } from "~/components/club/not-found";
import { PostEditorPart } from "~/components/post/editor-part";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { PrivacyIcon } from "~/components/ui/icons";
import { pageMeta } from "~/utils/brand";
import { failedToast, isUnsent, keepPageOnFailure, shouldRevalidate } from "~/offline/client-action";
import { postLabel } from "~/offline/outbox-client";
import { SIGN_IN } from "~/schemas/messages";
import type { clubEditorLoader as loader, clubPostAction as action } from "./club-pages.server";
import { withUnreadTitle } from "~/utils/unread-title";

export { clubEditorLoader as loader, clubPostAction as action } from "./club-pages.server";

/** With JavaScript a failed publish keeps the form and what was typed, and says why (SPEC.md §8). */
export const clientAction = keepPageOnFailure({
  failed: failedToast({ fixed: "createPost" }),
  signIn: () => ({ title: "Error", description: SIGN_IN.createPost, type: "error" }),
  // With no signal a text-only post waits in the outbox (one with a file is not kept).
  outbox: {
    intent: "create-post",
    label: postLabel,
    draft: (form) => `post-create:club-${String(form.get("clubId") ?? "")}`,
  },
});
export { shouldRevalidate };

export default function CreateClubPostPage() {
  const { club, fieldPicker } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="mb-6 text-3xl font-bold text-bark-900">Create Post</h1>
      <PostEditorPart
        lastResult={actionData && !isUnsent(actionData) && !("fieldErrors" in actionData) ? actionData : undefined}
        clubId={club.id}
        fieldPicker={fieldPicker}
        cancelHref={`/clubs/${club.id}`}
        banner={
          <div className="card flex items-center gap-4 overflow-hidden" data-testid="club-banner">
            <ClubImage club={club} className="h-16 w-16 shrink-0" />
            <div className="min-w-0 py-2">
              <p className="text-xs uppercase tracking-wide text-stone-500">Posting in</p>
              <p className="flex items-center gap-2 font-bold text-bark-900">
                <Link to={`/clubs/${club.id}`} className="truncate hover:underline">
                  {club.name}
                </Link>
                <span className="text-stone-500">
                  <PrivacyIcon isPrivate={club.isPrivate} />
                </span>
              </p>
            </div>
          </div>
        }
      />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = withUnreadTitle<typeof loader>(({ data }) =>
  data ? pageMeta(`Post in ${data.club.name}`, `Write a post for the members of ${data.club.name}.`) : pageMeta("Create Post"),
);

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <ClubNotFound /> }} />;
}

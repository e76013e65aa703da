import type { MetaFunction } from "react-router";
import { useActionData, useLoaderData } from "react-router";
import { PostEditorPart } from "~/components/post/editor-part";
import { pageMeta } from "~/utils/brand";
import { failedToast, isUnsent, keepPageOnFailure, shouldRevalidate } from "~/offline/client-action";
import { postLabel } from "~/offline/outbox-client";
import { SIGN_IN } from "~/schemas/messages";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import type { publishFromEditor as action, postEditorLoader as loader } from "~/web/post-form.server";
import { withUnreadTitle } from "~/utils/unread-title";

/** SPEC.md §2 Create post. */
export { postEditorLoader as loader, publishFromEditor as action } from "~/web/post-form.server";

/** With JavaScript a failed publish keeps the form and what was typed, and says why (SPEC.md §8). */
export const clientAction = keepPageOnFailure({
  failed: failedToast({ fixed: "createPost" }),
  signIn: () => ({ title: "Error", description: SIGN_IN.createPost, type: "error" }),
  // With no signal a text-only post waits in the outbox (one with a file is not kept).
  outbox: { intent: "create-post", label: postLabel, draft: () => "post-create" },
});
export { shouldRevalidate };

export default function CreatePostPage() {
  const data = useActionData<typeof action>();
  const { shared, shareGone, fieldPicker } = useLoaderData<typeof loader>();
  // A form that could not even be read (too large, not a form) fails before Conform sees it.
  const unread = data && "fieldErrors" in data ? data.error : null;
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="mb-6 text-3xl font-bold text-bark-900">Create Post</h1>
      {unread ? (
        <p role="alert" className="mb-4 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          {unread}
        </p>
      ) : null}
      {shareGone ? (
        <p role="status" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {shareGone}
        </p>
      ) : null}
      <PostEditorPart
        lastResult={data && !isUnsent(data) && !("fieldErrors" in data) ? data : undefined}
        prefill={shared}
        fieldPicker={fieldPicker}
      />
    </div>
  );
}

export const meta: MetaFunction = withUnreadTitle(() =>
  pageMeta("Create Post", "Share a story, a tip, a video or a podcast with the whitetail community."),
);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { PostEditor } from "~/components/post/editor";
import { pageMeta } from "~/utils/brand";
import { failedToast, isUnsent, keepPageOnFailure, shouldRevalidate } from "~/utils/client-action";
import { postLabel } from "~/utils/outbox-client";
import { SIGN_IN } from "~/schemas/messages";
import { withPageErrors } from "~/web/page-errors.server";
import { createPostFromForm } from "~/web/post-form.server";
import { requireActor, requireUser } from "~/web/session.server";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";

/** SPEC.md §2 Create post: visitors are sent to sign in and brought back here. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return json({});
}

export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request }) => {
    // A session that ended while the form was open: sign in and back, with SPEC.md §8's notice.
    const user = await requireActor(request, SIGN_IN.createPost);
    return createPostFromForm(request, user);
  });
}

/** With JavaScript a failed publish keeps the form and what was typed, and says why (SPEC.md §8). */
export const clientAction = keepPageOnFailure({
  failed: failedToast({ fixed: "createPost" }),
  signIn: () => ({ title: "Error", description: SIGN_IN.createPost, type: "error" }),
  // With no signal a text-only post waits in the outbox (one with a file is not kept).
  outbox: { route: "routes/create", intent: "create-post", label: postLabel, draft: () => "post-create" },
});
export { shouldRevalidate };

export default function CreatePostPage() {
  const data = useActionData<typeof action>();
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
      <PostEditor lastResult={data && !isUnsent(data) && !("fieldErrors" in data) ? data : undefined} />
    </div>
  );
}

export const meta: MetaFunction = () => pageMeta("Create Post", "Share a story, a tip, a video or a podcast with the whitetail community.");

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

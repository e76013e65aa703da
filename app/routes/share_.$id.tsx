import type { MetaFunction } from "react-router";
import { Form, Link, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { pageMeta } from "~/utils/brand";
import { useIsPending } from "~/utils/remix";
import type { shareClaimAction as action, shareClaimLoader as loader } from "~/web/share.server";
import { withUnreadTitle } from "~/utils/unread-title";

/**
 * `/share/{id}`: where a visitor who shared from their phone comes back after signing in
 * (docs/decisions/0092-share-target.md). One tap (a POST: nothing changes on a GET) makes the
 * shared files their uploads and opens the create page with everything filled in.
 */
export { shareClaimLoader as loader, shareClaimAction as action } from "~/web/share.server";

export default function ShareClaimPage() {
  const { kept, gone } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  const busy = useIsPending();
  return (
    <section className="card mx-auto my-4 max-w-md space-y-4 p-6">
      <h1 className="text-2xl font-bold text-bark-900">What you shared</h1>
      {refusal && "error" in refusal ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          {refusal.error}
        </p>
      ) : null}
      {kept ? (
        <Form method="post" className="space-y-3">
          <p className="text-sm text-stone-700">Your photos and text are waiting. Put them in a new post to write it and publish.</p>
          <button type="submit" className="btn-primary min-h-11 w-full" disabled={busy}>
            {busy ? "Attaching..." : "Continue to your post"}
          </button>
        </Form>
      ) : (
        <>
          <p role="status" className="text-sm text-stone-700">
            {gone}
          </p>
          <Link to="/create" className="btn-primary flex min-h-11 w-full items-center justify-center">
            Create a post
          </Link>
        </>
      )}
    </section>
  );
}

export const meta: MetaFunction = withUnreadTitle(() => pageMeta("What you shared", "Put what you shared into a new post."));

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

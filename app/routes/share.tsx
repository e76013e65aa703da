import type { MetaFunction } from "react-router";
import { Link, useActionData } from "react-router";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { pageMeta } from "~/utils/brand";
import type { receiveShare as action } from "~/web/share.server";
import { withUnreadTitle } from "~/utils/unread-title";

/**
 * `/share`, the web app manifest's share target (CONTRACT.md §14 "Sharing from the phone",
 * docs/decisions/0092-share-target.md). The phone's share sheet POSTs here; the service worker takes
 * the share when it runs, and this action when it does not. What a member sees here is only a share
 * that was refused (the reason; nothing was kept) or this page opened by hand.
 */
export { receiveShare as action } from "~/web/share.server";

export default function SharePage() {
  const refusal = useActionData<typeof action>();
  return (
    <section className="card mx-auto my-4 max-w-md space-y-4 p-6">
      <h1 className="text-2xl font-bold text-bark-900">Share to Whitetail Pulse</h1>
      {refusal ? (
        <p role="alert" data-testid="share-refusal" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          {refusal.error} Nothing was kept.
        </p>
      ) : (
        <p className="text-sm text-stone-700">
          Install the site on your phone, then choose Whitetail Pulse in any app's Share menu to post a photo, a video or a link.
        </p>
      )}
      <Link to="/create" className="btn-primary flex min-h-11 w-full items-center justify-center">
        Create a post
      </Link>
    </section>
  );
}

export const meta: MetaFunction = withUnreadTitle(() => pageMeta("Share", "Share photos, videos and links from your phone."));

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

import type { MetaFunction } from "react-router";
import { Form, Link, useLoaderData } from "react-router";
import { ErrorPanel, GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { pageMeta } from "~/utils/brand";
import { useIsPending } from "~/utils/remix";
import type { loader } from "./unsubscribe-page.server";
import { withUnreadTitle } from "~/utils/unread-title";

export { loader, action } from "./unsubscribe-page.server";
// What its loader or action answers `no-store` (one viewer's own) stays so in its `.data` answer (ADR 0079).
export { keepNoStore as headers } from "~/web/cache-control.server";

/**
 * The unsubscribe link of notification mails (CONTRACT.md §7 "Email"): works signed out. GET asks,
 * the button's POST turns notification emails off; then the page says they are off and where to
 * turn them back on.
 */
const SETTINGS = "/settings?tab=notifications";

export default function UnsubscribePage() {
  const { username, emailOn } = useLoaderData<typeof loader>();
  const busy = useIsPending();
  return (
    <section className="card mx-auto my-4 max-w-md space-y-4 p-6">
      {emailOn ? (
        <>
          <h1 className="text-2xl font-bold">Stop notification emails for @{username}?</h1>
          <p className="text-sm text-stone-700">
            You will still see your notifications on the site. You can turn emails back on any time in Settings › Notifications.
          </p>
          <Form method="post">
            <button type="submit" className="btn-primary w-full" disabled={busy}>
              {busy ? "Stopping..." : "Stop notification emails"}
            </button>
          </Form>
        </>
      ) : (
        <div data-testid="unsubscribed" className="space-y-3">
          <h1 className="text-2xl font-bold">Notification emails are off</h1>
          <p className="text-sm text-stone-700">You will get no more notification emails for @{username}.</p>
          <Link to={SETTINGS} className="btn-secondary inline-block">
            Settings › Notifications
          </Link>
        </div>
      )}
    </section>
  );
}

export const meta: MetaFunction = withUnreadTitle(() => [
  ...pageMeta("Notification emails", "Stop or change the notification emails you get."),
  { name: "robots", content: "noindex" },
]);

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: ({ message }) => (
          <ErrorPanel title="This link doesn't work">
            <span className="block">{message}</span>
            <span className="mt-6 flex flex-wrap justify-center gap-3">
              <Link to={SETTINGS} className="btn-primary">
                Settings › Notifications
              </Link>
            </span>
          </ErrorPanel>
        ),
      }}
    />
  );
}

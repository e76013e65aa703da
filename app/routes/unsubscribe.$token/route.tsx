import type { MetaFunction } from "react-router";
import { Form, Link, useActionData, useLoaderData } from "react-router";
import { Choice } from "~/components/ui/choice";
import { ErrorPanel, GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { FormRefusal } from "~/components/ui/field";
import { pageMeta } from "~/utils/brand";
import { useIsPending } from "~/utils/remix";
import type { action, loader } from "./unsubscribe-page.server";
import { withUnreadTitle } from "~/utils/unread-title";

export { loader, action } from "./unsubscribe-page.server";
// What its loader or action answers `no-store` (one viewer's own) stays so in its `.data` answer (ADR 0079).
export { keepNoStore as headers } from "~/web/cache-control.server";

/**
 * The unsubscribe link of notification mails (CONTRACT.md §7 "Email"): works signed out. GET asks,
 * the button's POST turns notification emails off; then the page says they are off and turns them
 * back on from the same link, as often as the member chooses (ux-3 U25), or in Settings.
 */
const SETTINGS = "/settings?tab=notifications";

export default function UnsubscribePage() {
  const { username, emailOn, backOn } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const refusal = reply && "refusal" in reply ? reply.refusal : null;
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
          <Form method="post" className="space-y-3" aria-describedby={refusal ? "back-on-refusal" : undefined}>
            <fieldset className="space-y-1">
              <legend className="text-base font-semibold text-bark-900">Changed your mind? Turn them back on</legend>
              <FormRefusal id="back-on-refusal" errors={refusal ? [refusal] : null} reply={reply} />
              {backOn.map((choice) => (
                <Choice
                  key={choice.value}
                  type="radio"
                  name="email"
                  value={choice.value}
                  defaultChecked={choice.checked}
                  hint={choice.hint}
                >
                  {choice.label}
                </Choice>
              ))}
            </fieldset>
            <button type="submit" name="intent" value="resubscribe" className="btn-primary w-full" disabled={busy}>
              {busy ? "Turning on..." : "Turn emails back on"}
            </button>
          </Form>
          <p className="text-sm text-stone-700">
            Or choose what notifies you in{" "}
            <Link to={SETTINGS} className="font-medium text-field-700 underline">
              Settings › Notifications
            </Link>
            .
          </p>
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

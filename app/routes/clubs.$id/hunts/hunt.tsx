import { Form, Link, useFetcher, useLoaderData } from "react-router";
import { CalendarLinks } from "~/components/club/hunts";
import { Avatar } from "~/components/ui/avatar";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { IdempotencyKeyInput } from "~/components/ui/idempotency-key";
import { failedToast, keepPageOnFailure } from "~/offline/client-action";
import type { huntLoader as loader } from "../hunt-pages.server";

export { huntLoader as loader, huntAction as action } from "../hunt-pages.server";

/**
 * With JavaScript a failed answer keeps the page and says so; one sent with no signal waits in the
 * outbox and goes as POST /api/clubs/{id}/events/{eventId}/rsvp when the signal returns (issue 44).
 */
export const clientAction = keepPageOnFailure({
  failed: failedToast(),
  outbox: { label: (form) => `Answer “${String(form.get("status") ?? "")}” to a hunt` },
});

export { shouldRevalidate } from "~/offline/client-action";

const CHOICES = [
  { value: "going", label: "Going" },
  { value: "maybe", label: "Maybe" },
  { value: "no", label: "Can't go" },
] as const;

/** /clubs/{id}/events/{eventId}: a club hunt, who is going, and the member's answer. */
export default function HuntPage() {
  const { clubId, event, attendees, isMember, mayManage, over, calendar } = useLoaderData<typeof loader>();
  const rsvp = useFetcher();
  // Optimistic: the answer being sent shows at once; the server's answer is the truth.
  const sending = rsvp.formData?.get("status");
  const mine = typeof sending === "string" ? sending : event.myRsvp;
  const open = isMember && !event.cancelled && !over;
  return (
    <article className="space-y-4" aria-labelledby="hunt-title" data-testid="hunt-page">
      <Link to={`/clubs/${clubId}/events`} className="inline-flex min-h-11 items-center text-sm font-medium text-field-700 hover:underline">
        ← Hunts
      </Link>
      <div className="card space-y-3 p-5">
        {event.cancelled ? (
          <p className="rounded bg-red-100 px-3 py-2 text-sm font-bold text-red-800" data-testid="hunt-cancelled">
            This hunt was cancelled.
          </p>
        ) : null}
        <h2 id="hunt-title" className="text-2xl font-bold text-bark-900">
          {event.title}
        </h2>
        <dl className="grid gap-1 text-stone-800 sm:grid-cols-[auto_1fr] sm:gap-x-4">
          <dt className="font-semibold">Starts</dt>
          <dd data-testid="hunt-starts">{event.when}</dd>
          {event.ends ? (
            <>
              <dt className="font-semibold">Ends</dt>
              <dd>{event.ends}</dd>
            </>
          ) : null}
          {event.location ? (
            <>
              <dt className="font-semibold">Place</dt>
              <dd className="break-words">{event.location}</dd>
            </>
          ) : null}
          {event.createdBy ? (
            <>
              <dt className="font-semibold">Planned by</dt>
              <dd>
                <Link to={`/profile/${event.createdBy.username}`} className="inline-flex min-h-11 items-center hover:underline">
                  {event.createdBy.displayName}
                </Link>
              </dd>
            </>
          ) : null}
        </dl>
        {event.description ? <p className="whitespace-pre-line break-words text-stone-800">{event.description}</p> : null}
        <CalendarLinks calendar={calendar} needsToken={isMember} />
      </div>

      {open ? (
        <rsvp.Form method="post" className="card space-y-3 p-5" preventScrollReset aria-labelledby="rsvp-title">
          <h3 id="rsvp-title" className="font-semibold text-bark-900">
            Are you going?
          </h3>
          <input type="hidden" name="intent" value="rsvp" />
          <IdempotencyKeyInput />
          <div className="flex flex-wrap gap-2" role="group" aria-label="Your answer">
            {CHOICES.map((c) => (
              <button
                key={c.value}
                type="submit"
                name="status"
                value={c.value}
                aria-pressed={mine === c.value}
                className={`${mine === c.value ? "btn-primary" : "btn-secondary"} min-h-11 min-w-[6rem]`}
              >
                {c.label}
              </button>
            ))}
          </div>
        </rsvp.Form>
      ) : null}

      <section className="card space-y-3 p-5" aria-labelledby="going-title">
        <h3 id="going-title" className="font-semibold text-bark-900" data-testid="hunt-counts">
          {event.going} going · {event.maybe} maybe
        </h3>
        {attendees.going.length ? <People label="Going" people={attendees.going} /> : null}
        {attendees.maybe.length ? <People label="Maybe" people={attendees.maybe} /> : null}
      </section>

      {mayManage && !event.cancelled ? (
        <div className="flex flex-wrap items-start gap-3">
          <Link to={`/clubs/${clubId}/events/${event.id}/edit`} className="btn-secondary min-h-11">
            Edit hunt
          </Link>
          <details className="card p-3" data-testid="cancel-hunt">
            <summary className="tap-pad inline-flex min-h-11 cursor-pointer items-center font-semibold text-red-700">Cancel hunt…</summary>
            <Form method="post" className="mt-2 space-y-2">
              <p className="text-sm text-stone-700">Those going or maybe will be told. This cannot be undone.</p>
              <input type="hidden" name="intent" value="cancel" />
              <button type="submit" className="btn-danger min-h-11">
                Cancel this hunt
              </button>
            </Form>
          </details>
        </div>
      ) : null}
    </article>
  );
}

function People({ label, people }: { label: string; people: { username: string; displayName: string; avatar: string | null }[] }) {
  return (
    <div>
      <h4 className="text-sm font-semibold text-stone-700">{label}</h4>
      <ul className="mt-2 flex flex-wrap gap-2" aria-label={label}>
        {people.map((p) => (
          <li key={p.username}>
            <Link
              to={`/profile/${p.username}`}
              className="inline-flex min-h-11 items-center gap-2 rounded-full bg-stone-100 px-3 hover:bg-stone-200"
            >
              <Avatar src={p.avatar} name={p.displayName} size={28} />
              <span className="text-sm">{p.displayName}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;

import { Link, useActionData, useLoaderData, useNavigation } from "react-router";
import { HuntForm } from "~/components/club/hunts";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import type { editHuntAction as action, editHuntLoader as loader } from "../hunt-pages.server";

export { editHuntLoader as loader, editHuntAction as action } from "../hunt-pages.server";

/** /clubs/{id}/events/{eventId}/edit: the club's owner and admins change a hunt. */
export default function EditHunt() {
  const { clubId, event, values, zones } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const refusal = failed && "values" in failed ? failed : null;
  const busy = useNavigation().state === "submitting";
  return (
    <section className="space-y-4" aria-labelledby="edit-hunt-title">
      <Link
        to={`/clubs/${clubId}/events/${event.id}`}
        className="inline-flex min-h-11 items-center text-sm font-medium text-field-700 hover:underline"
      >
        ← {event.title}
      </Link>
      <h2 id="edit-hunt-title" className="text-xl font-bold text-bark-900">
        Edit hunt
      </h2>
      {event.cancelled ? (
        <p className="card p-6 text-stone-700">This hunt was cancelled and can no longer be changed.</p>
      ) : (
        <HuntForm
          values={refusal?.values ?? values}
          zones={zones}
          errors={refusal?.fieldErrors ?? {}}
          error={refusal?.error ?? null}
          submitLabel="Save hunt"
          busy={busy}
          create={false}
        />
      )}
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;

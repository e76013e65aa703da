import { Link, useActionData, useLoaderData, useNavigation } from "react-router";
import { HuntForm } from "~/components/club/hunts";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import type { newHuntAction as action, newHuntLoader as loader } from "../hunt-pages.server";

export { newHuntLoader as loader, newHuntAction as action } from "../hunt-pages.server";

/** /clubs/{id}/events/new: the club's owner and admins plan a hunt. */
export default function NewHunt() {
  const { clubId, values, zones } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const refusal = failed && "values" in failed ? failed : null;
  const busy = useNavigation().state === "submitting";
  return (
    <section className="space-y-4" aria-labelledby="new-hunt-title">
      <Link to={`/clubs/${clubId}/events`} className="inline-flex min-h-11 items-center text-sm font-medium text-field-700 hover:underline">
        ← Hunts
      </Link>
      <h2 id="new-hunt-title" className="text-xl font-bold text-bark-900">
        Plan a hunt
      </h2>
      <HuntForm
        values={refusal?.values ?? values}
        zones={zones}
        errors={refusal?.fieldErrors ?? {}}
        error={refusal?.error ?? null}
        submitLabel="Plan hunt"
        busy={busy}
        create
      />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;

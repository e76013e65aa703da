import { json, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { getClub } from "~/models/club.server";
import { clubTabLoader } from "./clubs.$id/tab-loader.server";

/** /clubs/{id}/rules: a club without rules has no such tab, so its posts are shown instead. */
export async function loader(args: LoaderFunctionArgs) {
  return clubTabLoader(args, ({ clubId, user }) => {
    const { rules } = getClub(user, clubId);
    if (!rules) throw redirect(`/clubs/${clubId}`);
    return json({ rules });
  });
}

export default function ClubRulesTab() {
  const { rules } = useLoaderData<typeof loader>();
  return (
    <section className="card whitespace-pre-line break-words p-6 text-stone-800" aria-label="Rules" data-testid="club-rules">
      {rules}
    </section>
  );
}

// After a send from the club's header that did not arrive (or waits in the outbox), nothing is
// fetched again: with no signal the fetch would fail and the page be reloaded (ADR 0034).
export { shouldRevalidate } from "~/utils/client-action";

export const ErrorBoundary = GeneralErrorBoundary;

import { useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import type { clubRulesLoader as loader } from "../club-pages.server";

export { clubRulesLoader as loader } from "../club-pages.server";

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
export { shouldRevalidate } from "~/offline/client-action";

export const ErrorBoundary = GeneralErrorBoundary;

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

export const ErrorBoundary = GeneralErrorBoundary;

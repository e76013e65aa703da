import { useActionData, useLoaderData } from "react-router";
import { GeneratedInvite, InviteForm, InviteList } from "~/components/club/invites";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { failedToast, keepPageOnFailure, shouldRevalidate } from "~/offline/client-action";
import type { clubInvitesLoader as loader, clubPageAction as action } from "../club-pages.server";

export { clubInvitesLoader as loader, clubPageAction as action } from "../club-pages.server";
// What its loader or action answers `no-store` (one viewer's own) stays so in its `.data` answer (ADR 0079).
export { keepNoStore as headers } from "~/web/cache-control.server";

export const clientAction = keepPageOnFailure({ failed: failedToast({ rename: { update: "update-club", delete: "delete-club" } }) });
export { shouldRevalidate };

export default function ClubInvitesTab() {
  const { club, invites, generated, origin } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && "intent" in actionData && actionData.intent === "invite" ? actionData.result : undefined;
  return (
    <div className="space-y-6">
      {generated ? <GeneratedInvite club={club} invite={generated} origin={origin} /> : <InviteForm club={club} lastResult={lastResult} />}
      <InviteList club={club} invites={invites} origin={origin} />
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;

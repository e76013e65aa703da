import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { GeneratedInvite, InviteForm, InviteList } from "~/components/club/invites";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { failedToast, keepPageOnFailure, shouldRevalidate } from "~/utils/client-action";
import { getClub } from "~/models/club.server";
import { listInvites } from "~/models/invite.server";
import { NO_STORE } from "~/web/cache-control.server";
import { withPageErrors } from "~/web/page-errors.server";
import { publicOrigin } from "~/web/params.server";
import { clubAction } from "./clubs.$id/club-actions.server";
import { clubTabLoader } from "./clubs.$id/tab-loader.server";

/**
 * /clubs/{id}/invites (members only; anyone else sees the club's posts): the invite form, or the
 * link just made (`?generated=code`), and the active invites with their links.
 */
export async function loader(args: LoaderFunctionArgs) {
  return clubTabLoader(args, ({ clubId, user, url, request }) => {
    const invites = listInvites(user, clubId);
    const { id, name } = getClub(user, clubId);
    const code = url.searchParams.get("generated");
    const generated = code ? (invites.find((i) => i.inviteCode === code) ?? null) : null;
    return json({ club: { id, name }, invites, generated, origin: publicOrigin(request) }, NO_STORE);
  });
}

/** Generate (clubAction's `invite`) and Revoke (`revoke`), back to this tab. */
export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, clubAction);
}

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

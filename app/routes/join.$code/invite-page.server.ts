import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from "react-router";
import { getMembership } from "~/models/access.server";
import { acceptInvite, getInvite, type Invite } from "~/models/clubs/invite.server";
import { NO_STORE } from "~/web/cache-control.server";
import { withPageErrors } from "~/web/page-errors.server";
import { getSessionUser, requireActor } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";
import { badRequest, isAppError } from "~/utils/errors";
import { INVITE_INVALID } from "~/schemas/messages";

/** /join/{code}'s server side: reading an invite, and accepting it (route.tsx re-exports it, docs/decisions/0045). */

type Viewer = "signed-out" | "can-join";

async function findInvite(code: string): Promise<Invite | null> {
  try {
    return await getInvite(code);
  } catch (error) {
    if (isAppError(error) && error.status === 404) return null;
    throw error;
  }
}

/**
 * /join/{code}: reading the invite changes nothing (CONTRACT.md §3). A member is sent to the club;
 * anyone else, a pending requester too (issue 14), may join by POST (sent on load when
 * JavaScript runs, a button otherwise). A full club is said so before anything is asked (issue 31
 * N1): `full` turns the page's offers into "sign up without joining" and "view the club".
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const code = params.code ?? "";
  const invite = await findInvite(code);
  if (!invite) return data({ invite: null, code, viewer: "signed-out" as Viewer, full: false }, { status: 404, ...NO_STORE });
  const user = await getSessionUser(request);
  let viewer: Viewer = "signed-out";
  if (user) {
    if (await getMembership(invite.clubId, user.id)) throw redirect(`/clubs/${invite.clubId}`);
    viewer = "can-join"; // a pending requester too: the invite admits them (issue 14)
  }
  const { memberLimit, memberCount } = invite.club;
  return data({ invite, code, viewer, full: memberLimit !== null && memberCount >= memberLimit }, NO_STORE);
}

/** Accept the invite: the club page with a welcome, or the answer SPEC.md §4 gives for each refusal. */
export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request, params }) => {
    const code = params.code ?? "";
    const actor = await requireActor(request);
    const invite = await findInvite(code);
    if (!invite) throw badRequest(INVITE_INVALID);
    try {
      await acceptInvite(actor, code);
    } catch (error) {
      if (isAppError(error) && error.code === "already_member") throw redirect(`/clubs/${invite.clubId}`);
      throw error;
    }
    // `joined=1` lets the club page clear a stored invite code (SPEC.md §4 Auth).
    return redirectWithToast(`/clubs/${invite.clubId}?joined=1`, {
      title: "Welcome to the club!",
      description: `You joined ${invite.club.name}.`,
      type: "success",
    });
  });
}

import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { memberForStaff, suspendMember, unsuspendMember } from "~/models/moderation/suspension.server";
import { PROFILE_NOT_FOUND } from "~/schemas/messages";
import { badRequest, isAppError, isRefusal, type FieldErrors } from "~/utils/errors";
import { NO_STORE } from "~/web/cache-control.server";
import { loaderError, withPageErrors } from "~/web/page-errors.server";
import { readFormData } from "~/web/request-body.server";
import { getSessionUser, requireUser } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /moderation/members/{username}, site staff only (CONTRACT.md §8 "Suspension"): the member's
 * status, the suspend form (reason, days) and Lift suspension, and the latest decisions about them.
 * Plain forms: each answers with a redirect and a toast; a suspension that fails validation comes
 * back with what was typed.
 */

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    return json(await memberForStaff(user, params.username ?? ""), NO_STORE);
  } catch (error) {
    return loaderError(request, error, { notFound: PROFILE_NOT_FOUND });
  }
}

export type SuspendFailure = { intent: "suspend"; values: { reason: string; days: string }; error: string; fieldErrors: FieldErrors };

export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request, params }) => {
    const actor = await getSessionUser(request);
    const form = await readFormData(request);
    const username = params.username ?? "";
    const back = `/moderation/members/${encodeURIComponent(username)}`;
    const intent = form.get("intent");
    if (intent === "suspend") {
      const values = { reason: String(form.get("reason") ?? ""), days: String(form.get("days") ?? "") };
      let suspended;
      try {
        suspended = await suspendMember(actor, username, values);
      } catch (error) {
        if (!isAppError(error) || isRefusal(error)) throw error;
        return json<SuspendFailure>(
          { intent: "suspend", values, error: error.message, fieldErrors: error.fieldErrors ?? {} },
          { status: error.status },
        );
      }
      return redirectWithToast(back, {
        type: "success",
        title: "Member suspended",
        description: `${suspended.username} is signed out everywhere and cannot sign in ${values.days.trim() ? `for ${values.days.trim()} days` : "until you lift it"}.`,
      });
    }
    if (intent === "unsuspend") {
      const lifted = await unsuspendMember(actor, username);
      return redirectWithToast(back, { type: "success", title: "Suspension lifted", description: `${lifted.username} can sign in again.` });
    }
    throw badRequest("Unknown action");
  });
}

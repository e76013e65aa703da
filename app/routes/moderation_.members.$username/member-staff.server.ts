import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "react-router";
import { memberForStaff, suspendMember, unsuspendMember } from "~/models/moderation/suspension.server";
import { dismissReportsBy, purgeMember } from "~/models/moderation/waves.server";
import { PROFILE_NOT_FOUND } from "~/schemas/messages";
import { badRequest, isAppError, isRefusal, type FieldErrors } from "~/utils/errors";
import { NO_STORE } from "~/web/cache-control.server";
import { loaderError, withPageErrors } from "~/web/page-errors.server";
import { readFormData } from "~/web/request-body.server";
import { getSessionUser, requireUser } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /moderation/members/{username}, site staff only (CONTRACT.md §8 "Suspension", §12 "Spam waves"):
 * the member's status, the suspend form (reason, days) and Lift suspension, the purge form (reason,
 * days), "Dismiss every open report by" them, and the latest decisions about them. Plain forms: each
 * answers with a redirect and a toast; a suspension or purge that fails validation comes back with
 * what was typed.
 */

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    return data(await memberForStaff(user, params.username ?? ""), NO_STORE);
  } catch (error) {
    return loaderError(request, error, { notFound: PROFILE_NOT_FOUND });
  }
}

/** A suspension or purge refused for what was typed: the form comes back with it and the messages. */
export type FormFailure = {
  intent: "suspend" | "purge";
  values: { reason: string; days: string };
  error: string;
  fieldErrors: FieldErrors;
};

/** Runs a staff form's decision; a fixable refusal (400) answers the form with what was typed, anything else is thrown. */
async function orFormFailure<T>(intent: FormFailure["intent"], values: FormFailure["values"], decide: () => Promise<T>) {
  try {
    return { done: await decide() };
  } catch (error) {
    if (!isAppError(error) || isRefusal(error)) throw error;
    return {
      failed: data<FormFailure>({ intent, values, error: error.message, fieldErrors: error.fieldErrors ?? {} }, { status: error.status }),
    };
  }
}

export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request, params }) => {
    const actor = await getSessionUser(request);
    const form = await readFormData(request);
    const username = params.username ?? "";
    const back = `/moderation/members/${encodeURIComponent(username)}`;
    const intent = form.get("intent");
    const values = { reason: String(form.get("reason") ?? ""), days: String(form.get("days") ?? "") };
    if (intent === "suspend") {
      const result = await orFormFailure("suspend", values, () => suspendMember(actor, username, values));
      if (!result.done) return result.failed;
      return redirectWithToast(back, {
        type: "success",
        title: "Member suspended",
        description: `${result.done.username} is signed out everywhere and cannot sign in ${values.days.trim() ? `for ${values.days.trim()} days` : "until you lift it"}.`,
      });
    }
    if (intent === "purge") {
      const result = await orFormFailure("purge", values, () => purgeMember(actor, username, values));
      if (!result.done) return result.failed;
      const { posts, comments } = result.done;
      return redirectWithToast(back, {
        type: "success",
        title: "Posts and comments removed",
        description: `${posts} post${posts === 1 ? "" : "s"} and ${comments} comment${comments === 1 ? "" : "s"} by ${result.done.username} removed.`,
      });
    }
    if (intent === "dismiss-reports") {
      const { cases } = await dismissReportsBy(actor, username);
      return redirectWithToast(back, {
        type: "success",
        title: "Reports dismissed",
        description: `${cases} open case${cases === 1 ? "" : "s"} reported by ${username} dismissed.`,
      });
    }
    if (intent === "unsuspend") {
      const lifted = await unsuspendMember(actor, username);
      return redirectWithToast(back, { type: "success", title: "Suspension lifted", description: `${lifted.username} can sign in again.` });
    }
    throw badRequest("Unknown action");
  });
}

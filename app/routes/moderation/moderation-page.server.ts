import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from "react-router";
import { moderationLogPage } from "~/models/moderation/moderation-log.server";
import { requireModerationScope } from "~/models/moderation/moderation-access.server";
import { decideCase, moderationQueue } from "~/models/moderation/report.server";
import { badRequest, isAppError, isRefusal } from "~/utils/errors";
import { withLoaderErrors, withPageErrors } from "~/web/page-errors.server";
import { readFormData } from "~/web/request-body.server";
import { getSessionUser, loginRedirectUrl, requireActor } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";

/** /moderation's server side (CONTRACT.md §8 "Pages"): the queue, closed cases and the log, for staff only. */

export const MODERATION_TABS = ["open", "closed", "log"] as const;
export type ModerationTab = (typeof MODERATION_TABS)[number];

const tabOf = (url: URL): ModerationTab => {
  const tab = url.searchParams.get("tab");
  return (MODERATION_TABS as readonly string[]).includes(tab ?? "") ? (tab as ModerationTab) : "open";
};

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await getSessionUser(request);
  if (!actor) throw redirect(loginRedirectUrl(request));
  const url = new URL(request.url);
  const tab = tabOf(url);
  const cursor = url.searchParams.get("cursor");
  return withLoaderErrors(request, async () => {
    if (tab === "log") return data({ tab, cases: null, log: await moderationLogPage(actor, cursor), siteStaff: false });
    const cases = await moderationQueue(actor, { status: tab, cursor });
    // Site staff get each case's member page (suspend, remove recent posts, dismiss their reports).
    return data({ tab, cases, log: null, siteStaff: (await requireModerationScope(actor)).site });
  });
}

/** A decision that did not go through: the message, on its case's form, with the reason typed. */
export type DecisionFailure = { caseId: number; error: string; fieldErrors: Record<string, string[]>; values: { reason: string } };

export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request }) => {
    const actor = await requireActor(request);
    const form = await readFormData(request);
    const caseId = Number(form.get("caseId"));
    const decision = String(form.get("intent") ?? "");
    const reason = String(form.get("reason") ?? "");
    if (!Number.isInteger(caseId) || caseId <= 0) throw badRequest("Choose a report to decide");
    try {
      await decideCase(actor, caseId, { action: decision, reason });
    } catch (error) {
      if (!isAppError(error) || isRefusal(error)) throw error;
      return data<DecisionFailure>(
        { caseId, error: error.message, fieldErrors: error.fieldErrors ?? {}, values: { reason } },
        { status: error.status },
      );
    }
    const back = new URL(request.url);
    return redirectWithToast(`/moderation${back.search}`, {
      title: decision === "remove" ? "Removed" : "Report dismissed",
      description: decision === "remove" ? "The author sees it with your reason." : undefined,
      type: "success",
    });
  });
}

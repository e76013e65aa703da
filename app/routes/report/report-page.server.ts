import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from "react-router";
import type { ReportFailure } from "~/components/moderation/report-form";
import { reportableTarget, reportTarget } from "~/models/moderation/report.server";
import { safeRedirect } from "~/schemas/forms.server";
import { REPORT_THANKS } from "~/schemas/report";
import { isAppError, isRefusal } from "~/utils/errors";
import { withLoaderErrors, withPageErrors } from "~/web/page-errors.server";
import { readFormData } from "~/web/request-body.server";
import { getSessionUser, loginRedirectUrl, requireActor } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";

/** /report's server side: the form for what is reported (signed in), and sending it. */

/** Where to go back to: a path on this site, else where the reported thing is. */
function backTo(url: URL, fallback: string): string {
  return safeRedirect(url.searchParams.get("from"), fallback);
}

const targetOf = (url: URL) => ({ targetType: url.searchParams.get("type"), targetId: url.searchParams.get("id") });

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await getSessionUser(request);
  if (!actor) throw redirect(loginRedirectUrl(request));
  const url = new URL(request.url);
  return withLoaderErrors(request, async () => {
    const target = await reportableTarget(actor, targetOf(url));
    return data({ target, back: backTo(url, target.href) });
  });
}

export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request }) => {
    const actor = await requireActor(request, "Please sign in to report");
    const url = new URL(request.url);
    const form = await readFormData(request);
    const values = { reason: String(form.get("reason") ?? ""), details: String(form.get("details") ?? "") };
    const target = await reportableTarget(actor, targetOf(url));
    try {
      await reportTarget(actor, { targetType: target.targetType, targetId: target.targetId, ...values });
    } catch (error) {
      if (!isAppError(error) || isRefusal(error)) throw error;
      return data<ReportFailure>({ error: error.message, fieldErrors: error.fieldErrors ?? {}, values }, { status: error.status });
    }
    return redirectWithToast(backTo(url, target.href), { title: REPORT_THANKS, type: "success" });
  });
}

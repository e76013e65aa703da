import { Form, Link, useActionData, useLoaderData, useLocation, type MetaFunction } from "react-router";
import { ReportForm, type ReportFailure } from "~/components/moderation/report-form";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { REPORT_TARGET_NAMES } from "~/schemas/report";
import { useIsPending } from "~/utils/remix";
import type { loader } from "./report-page.server";
import { withUnreadTitle } from "~/utils/unread-title";

export { loader, action } from "./report-page.server";

/** The report form as a page: what the Report link opens without JavaScript (the dialog's twin). */
export default function ReportPage() {
  const { target, back } = useLoaderData<typeof loader>();
  const data = useActionData<ReportFailure>();
  const busy = useIsPending({ intent: "report" });
  const location = useLocation();
  return (
    <div className="mx-auto max-w-lg">
      <section className="card p-6" aria-labelledby="report-title">
        <h1 id="report-title" className="text-xl font-bold text-bark-900">
          Report this {REPORT_TARGET_NAMES[target.targetType]}
        </h1>
        <p className="mt-1 text-sm text-stone-600">
          <Link to={target.href} className="font-semibold hover:underline">
            {target.label}
          </Link>
        </p>
        <p className="mt-2 text-sm text-stone-600">
          Tell the moderators what is wrong. The member you report is not told who reported them.
        </p>
        <div className="mt-4">
          <ReportForm
            form={{
              Form,
              action: `${location.pathname}${location.search}`,
              data,
              busy,
              cancel: (
                <Link to={back} className="btn-secondary">
                  Cancel
                </Link>
              ),
            }}
          />
        </div>
      </section>
    </div>
  );
}

export const meta: MetaFunction = withUnreadTitle(() => [{ title: "Report | Whitetail Pulse" }]);

export const ErrorBoundary = GeneralErrorBoundary;

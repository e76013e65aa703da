import { Link, useLocation, useNavigate, useRouteLoaderData } from "react-router";
import { Suspense, useEffect, type ReactNode } from "react";
import { useDialogForm } from "~/components/ui/dialog-form-state";
import { lazyPart } from "~/components/ui/lazy-part";
import type { ReportDialogProps } from "./report-dialog";
import type { ReportTarget } from "~/schemas/report-options";
import { importAgain } from "~/utils/import-again";

/**
 * The Report action (CONTRACT.md §8 "Pages") on a post, comment, profile or club. Without JavaScript
 * it is a link to the report page (/report?type=…&id=…&from=…), which comes back here with a toast;
 * with JavaScript the same form opens in a dialog and posts to that page's action (DialogForm).
 */

export const reportHref = (type: ReportTarget, id: number, from: string) =>
  `/report?${new URLSearchParams({ type, id: String(id), from }).toString()}`;

/** Where the dialog's code did not arrive (no signal, a deploy that replaced it): the report page. */
function GoToReportPage({ action }: ReportDialogProps) {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(action);
  }, [action, navigate]);
  return null;
}

/**
 * The dialog, fetched when a member first opens it: the Report action sits on every post card, and
 * the feed's first load must not carry the dialog's form code (ADR 0046's budget; dialog-form-state.ts).
 */
const ReportDialog = lazyPart<ReportDialogProps>(
  importAgain(
    () => import("./report-dialog"),
    (m) => m.ReportDialog,
  ),
  GoToReportPage,
);

export function ReportLink({
  type,
  id,
  className = "tap text-sm text-stone-500 hover:text-stone-800 hover:underline",
  children = "Report",
}: {
  type: ReportTarget;
  id: number;
  className?: string;
  children?: ReactNode;
}) {
  const location = useLocation();
  const signedIn = Boolean(useRouteLoaderData<{ user?: { id: number } | null }>("root")?.user);
  const dialog = useDialogForm(`report-${type}-${id}`);
  const href = reportHref(type, id, `${location.pathname}${location.search}`);
  if (!signedIn) {
    return (
      <Link to={href} className={className} data-testid="report-link">
        {children}
      </Link>
    );
  }
  return (
    <>
      <Link to={href} className={className} data-testid="report-link" {...dialog.triggerProps}>
        {children}
      </Link>
      {dialog.open ? (
        <Suspense fallback={null}>
          <ReportDialog dialog={dialog} type={type} action={href} />
        </Suspense>
      ) : null}
    </>
  );
}

import { DialogForm } from "~/components/ui/dialog-form";
import type { DialogFormState } from "~/components/ui/dialog-form-state";
import { REPORT_TARGET_NAMES, type ReportTarget } from "~/schemas/report-options";
import { ReportForm, type ReportFailure } from "./report-form";

export type ReportDialogProps = { dialog: DialogFormState; type: ReportTarget; action: string };

/** The Report action's dialog (report.tsx loads it on first open): the report page's form, in a dialog. */
export function ReportDialog({ dialog, type, action }: ReportDialogProps) {
  return (
    <DialogForm<ReportFailure>
      dialog={dialog}
      inline={false}
      title={`Report this ${REPORT_TARGET_NAMES[type]}`}
      description="Tell the moderators what is wrong. The member you report is not told who reported them."
      action={action}
      intent="report"
    >
      {(form) => <ReportForm form={form} />}
    </DialogForm>
  );
}

import type { DialogFormBag } from "./dialog-form";

/**
 * The end of an edit or report form: Cancel, then the submit button with its `intent`, which says
 * `busyLabel` while the form posts. `disabled` defaults to the busy state. (A module of its own: the
 * forms that use it are fetched when opened, and the pages' first loads stay as they were.)
 */
export function FormActions({
  form,
  intent,
  label,
  busyLabel,
  busy = form.busy,
  disabled = busy,
  className = "flex justify-end gap-3",
}: {
  form: Pick<DialogFormBag<unknown>, "busy" | "cancel">;
  intent: string;
  label: string;
  busyLabel: string;
  busy?: boolean;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <div className={className}>
      {form.cancel}
      <button type="submit" name="intent" value={intent} className="btn-primary" disabled={disabled}>
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}

import type { Toast } from "~/utils/toast";

/** What a toast says (its title, the line below, and its link), in the card or its plain stand-in. */
export function ToastText({ toast }: { toast: Toast }) {
  return (
    <div className="flex-1">
      <p className="font-semibold">{toast.title}</p>
      {toast.description ? <p className="mt-1 text-sm">{toast.description}</p> : null}
      {toast.action ? (
        <a href={toast.action.href} className="mt-2 inline-block text-sm font-semibold underline">
          {toast.action.label}
        </a>
      ) : null}
    </div>
  );
}

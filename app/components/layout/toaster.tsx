import { useEffect, useState } from "react";
import type { Toast } from "~/utils/toast";

type Shown = Toast & { key: number };

let listeners: Array<(toast: Toast) => void> = [];
/** Show a toast from the browser (clipboard, optimistic actions). One is visible at a time. */
export function showToast(toast: Toast) {
  for (const listener of listeners) listener(toast);
}

let counter = 0;

/**
 * Shows the toast the server flashed (it is in the HTML, so it works without JavaScript) or the
 * latest one shown from the browser. Only one is visible: a new one replaces the old.
 */
export function Toaster({ serverToast }: { serverToast: (Toast & { id?: string }) | null }) {
  const [toast, setToast] = useState<Shown | null>(serverToast ? { ...serverToast, key: counter++ } : null);

  useEffect(() => {
    if (serverToast) setToast({ ...serverToast, key: counter++ });
  }, [serverToast]);

  useEffect(() => {
    const listener = (t: Toast) => setToast({ ...t, key: counter++ });
    listeners.push(listener);
    return () => {
      listeners = listeners.filter((l) => l !== listener);
    };
  }, []);

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), 6000);
    return () => clearTimeout(timer);
  }, [toast]);

  if (!toast) return null;
  const error = toast.type === "error";
  return (
    <div className="pointer-events-none fixed inset-x-0 top-16 z-50 flex justify-center px-4 sm:justify-end">
      <div
        key={toast.key}
        role={error ? "alert" : "status"}
        data-testid="toast"
        className={`pointer-events-auto w-full max-w-sm rounded-lg border p-4 shadow-lg ${
          error ? "border-red-300 bg-red-50 text-red-900" : "border-field-500 bg-white text-stone-900"
        }`}
      >
        <div className="flex items-start gap-3">
          <div className="flex-1">
            <p className="font-semibold">{toast.title}</p>
            {toast.description ? <p className="mt-1 text-sm">{toast.description}</p> : null}
          </div>
          <button type="button" onClick={() => setToast(null)} className="text-stone-500 hover:text-stone-800" aria-label="Dismiss">
            ×
          </button>
        </div>
      </div>
    </div>
  );
}

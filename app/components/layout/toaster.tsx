import { Suspense, useEffect, useState } from "react";
import { lazyPart } from "~/components/ui/lazy-part";
import { useHydrated } from "~/utils/hydrated";
import { onToast, showToast, type Toast } from "~/utils/toast";

export { showToast };

/** A toast the server flashed carries an id, so the same one is never shown twice (an error page). */
export type ServerToast = Toast & { id?: string };
type Shown = ServerToast & { key: number };

/**
 * The card itself (placement beside the controls, swipe to dismiss) is fetched when a toast is first
 * shown or right after hydration, whichever comes first (hydration keeps the server's card until
 * then): a page without a toast does not carry it in its first load (docs/decisions/0044). When the
 * card's file cannot be fetched, the toast still shows, as a plain card (docs/decisions/0045).
 */
const loadToastCard = () => import("./toast-card");
type CardProps = { toast: Toast; id: string; onDismiss?: () => void };
const ToastCard = lazyPart<CardProps>(() => loadToastCard().then((m) => m.ToastCard), PlainToastCard);

function PlainToastCard({ toast, onDismiss }: CardProps) {
  return (
    <section
      aria-label="Message"
      className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4"
      data-testid="toast-region"
    >
      <div
        role={toast.type === "error" ? "alert" : "status"}
        data-testid="toast"
        className="pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border border-stone-300 bg-white p-4 text-stone-900 shadow-lg"
      >
        <div className="flex-1">
          <p className="font-semibold">{toast.title}</p>
          {toast.description ? <p className="mt-1 text-sm">{toast.description}</p> : null}
          {toast.action ? (
            <a href={toast.action.href} className="mt-2 inline-block text-sm font-semibold underline">
              {toast.action.label}
            </a>
          ) : null}
        </div>
        {onDismiss ? (
          <button type="button" onClick={onDismiss} className="-m-2 p-2 text-lg leading-none text-stone-500" aria-label="Dismiss">
            ×
          </button>
        ) : null}
      </div>
    </section>
  );
}

let counter = 0;
/** Ids of server toasts already shown in this browser tab (filled only in the browser). */
const shownIds = new Set<string>();
const isFresh = (toast: ServerToast | null): toast is ServerToast => Boolean(toast && !(toast.id && shownIds.has(toast.id)));

/**
 * Shows the toast the server flashed (it is in the HTML, so it works without JavaScript) or the
 * latest one shown from the browser. Only one is visible: a new one replaces the old. It sits at the
 * bottom of the window, away from the top bar's menu and the page's first buttons.
 */
export function Toaster({ serverToast }: { serverToast: ServerToast | null }) {
  const [toast, setToast] = useState<Shown | null>(isFresh(serverToast) ? { ...serverToast, key: counter++ } : null);

  useEffect(() => {
    if (!isFresh(serverToast)) return;
    if (serverToast.id) shownIds.add(serverToast.id);
    // Hydration: the toast from the HTML is already up; keep it (and its timer) as it is.
    setToast((current) => (current?.id && current.id === serverToast.id ? current : { ...serverToast, key: counter++ }));
  }, [serverToast]);

  useEffect(() => onToast((t) => setToast({ ...t, key: counter++ })), []);
  // Fetched once the page is up, so a toast about a send that met no signal still has its card.
  useEffect(() => void loadToastCard().catch(() => undefined), []);

  useEffect(() => {
    if (!toast || toast.sticky) return;
    const timer = setTimeout(() => setToast(null), 6000);
    return () => clearTimeout(timer);
  }, [toast]);

  if (!toast) return null;
  return (
    <Suspense fallback={null}>
      <ToastCard key={toast.key} toast={toast} id="flash" onDismiss={() => setToast(null)} />
    </Suspense>
  );
}

/**
 * A toast a page shows from its own answer (a failed form): with JavaScript through `showToast`,
 * without it in the HTML, looking and behaving the same.
 */
export function PageToast({ toast }: { toast: Toast | null }) {
  const hydrated = useHydrated();
  useEffect(() => {
    if (hydrated && toast) showToast(toast);
  }, [hydrated, toast]);
  if (hydrated || !toast) return null;
  return (
    <Suspense fallback={null}>
      <ToastCard toast={toast} id="page" />
    </Suspense>
  );
}

import { useEffect, useRef, useState, type PointerEvent, type RefObject } from "react";
import { useHydrated } from "~/utils/hydrated";
import type { Toast } from "~/utils/toast";
import { clearTop, controlBoxes } from "./toast-placement";

/**
 * One toast; it never lies over a control (docs/decisions/0029-toasts-beside-controls.md). Without
 * JavaScript it is part of the page, between the top bar and the content, pushing the page down.
 * With JavaScript it floats near the bottom of the window, in the lowest place where it covers no
 * button, link or field, and moves when the page scrolls or changes under it.
 *
 * Its × is the label of a checkbox that hides it (CSS), so it closes without JavaScript; without
 * JavaScript it also fades out by itself after a while (CSS, paused under the pointer). With
 * JavaScript it can be swiped sideways off the screen on a phone. The floating region lets clicks
 * through; only the card itself takes them.
 */
export function ToastCard({ toast, id, onDismiss }: { toast: Toast; id: string; onDismiss?: () => void }) {
  const error = toast.type === "error";
  const swipe = useSwipe(onDismiss);
  const hydrated = useHydrated();
  const card = useRef<HTMLDivElement>(null);
  const top = useClearPlace(card, hydrated);
  const checkbox = `toast-dismiss-${id}`;
  const region = hydrated
    ? `pointer-events-none fixed inset-x-0 z-50 flex justify-center px-4 sm:justify-end ${top === null ? "bottom-4" : ""}`
    : "mx-auto flex max-w-6xl justify-center px-4 pt-4 sm:justify-start";
  return (
    // A labelled landmark: the card's dismiss box sits beside it, which axe's "region" rule wants inside one.
    <section aria-label="Message" className={region} style={hydrated && top !== null ? { top } : undefined} data-testid="toast-region">
      <input
        type="checkbox"
        id={checkbox}
        className="peer sr-only"
        onChange={(event) => {
          if (event.currentTarget.checked) onDismiss?.();
        }}
      />
      <div
        ref={card}
        role={error ? "alert" : "status"}
        data-testid="toast"
        {...swipe}
        className={`toast-card pointer-events-auto w-full max-w-sm touch-pan-y select-none rounded-lg border p-4 shadow-lg peer-checked:hidden peer-focus-visible:ring-2 peer-focus-visible:ring-blaze-500 ${
          error ? "border-red-300 bg-red-50 text-red-900" : "border-field-500 bg-white text-stone-900"
        }`}
      >
        <div className="flex items-start gap-3">
          <div className="flex-1">
            <p className="font-semibold">{toast.title}</p>
            {toast.description ? <p className="mt-1 text-sm">{toast.description}</p> : null}
            {toast.action ? (
              <a href={toast.action.href} className="mt-2 inline-block text-sm font-semibold underline">
                {toast.action.label}
              </a>
            ) : null}
          </div>
          <label
            htmlFor={checkbox}
            title="Dismiss"
            className="-m-2 cursor-pointer p-2 text-lg leading-none text-stone-500 hover:text-stone-800"
          >
            <span aria-hidden="true">×</span>
            <span className="sr-only">Dismiss</span>
          </label>
        </div>
      </div>
    </section>
  );
}

/**
 * The window y where the card covers no control (`clearTop`), measured after hydration and again
 * whenever the page scrolls, resizes or changes under it; null until measured (the card then sits
 * at the bottom).
 */
function useClearPlace(card: RefObject<HTMLDivElement>, active: boolean): number | null {
  const [top, setTop] = useState<number | null>(null);
  useEffect(() => {
    if (!active) return;
    let frame = 0;
    const place = () => {
      frame = 0;
      const element = card.current;
      if (!element) return;
      const r = element.getBoundingClientRect();
      const header = document.querySelector("body > header")?.getBoundingClientRect().bottom ?? 0;
      const min = Math.max(0, header) + 8;
      const max = window.innerHeight - 16 - r.height;
      const y = clearTop(r.height, r, controlBoxes(element), min, max);
      setTop(Math.round(y ?? max));
    };
    const schedule = () => {
      frame ||= requestAnimationFrame(place);
    };
    place();
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    // A form that resets, a list that grows, a menu that opens: the page changes without scrolling.
    const observer = new MutationObserver(schedule);
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["open", "class", "style"] });
    return () => {
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
      observer.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [card, active]);
  return top;
}

/** Drag the card sideways; past a third of its width it is dismissed, otherwise it springs back. */
function useSwipe(onDismiss?: () => void) {
  const start = useRef<{ x: number; pointer: number } | null>(null);
  if (!onDismiss) return {};
  const move = (event: PointerEvent<HTMLDivElement>, dx: number) => {
    event.currentTarget.style.transform = dx ? `translateX(${dx}px)` : "";
    event.currentTarget.style.opacity = dx ? String(Math.max(0.2, 1 - Math.abs(dx) / event.currentTarget.offsetWidth)) : "";
  };
  return {
    onPointerDown(event: PointerEvent<HTMLDivElement>) {
      if ((event.target as HTMLElement).closest("label, a, button")) return;
      start.current = { x: event.clientX, pointer: event.pointerId };
      event.currentTarget.setPointerCapture?.(event.pointerId);
    },
    onPointerMove(event: PointerEvent<HTMLDivElement>) {
      if (start.current?.pointer === event.pointerId) move(event, event.clientX - start.current.x);
    },
    onPointerUp(event: PointerEvent<HTMLDivElement>) {
      if (start.current?.pointer !== event.pointerId) return;
      const dx = event.clientX - start.current.x;
      start.current = null;
      if (Math.abs(dx) > event.currentTarget.offsetWidth / 3) onDismiss();
      else move(event, 0);
    },
    onPointerCancel(event: PointerEvent<HTMLDivElement>) {
      start.current = null;
      move(event, 0);
    },
  };
}

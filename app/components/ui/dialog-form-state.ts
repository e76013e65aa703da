import { useCallback, useRef, useState, type MouseEvent, type MutableRefObject } from "react";
import { importAgain } from "~/utils/import-again";

/**
 * The state half of DialogForm (dialog-form.tsx): whether its dialog is open, and the props of the
 * trigger link that opens it. Apart from DialogForm so that a page which only shows triggers (a feed
 * card loads its dialogs on demand) ships this small hook and not the forms' machinery.
 */

/** The dialog itself (Radix): downloaded when a dialog first opens, or earlier by `preloadDialog`. */
export const loadDialog = importAgain(() => import("./dialog"));

export type DialogFormState = {
  /** The query parameter that shows the inline twin: `edit` for `?edit=1`. */
  param: string;
  open: boolean;
  close: () => void;
  /** Spread on the trigger link: with JavaScript a plain click opens the dialog instead of navigating. */
  triggerProps: { onClick: (event: MouseEvent) => void; onMouseEnter: () => void; onFocus: () => void };
  /** The element whose click opened the dialog (or that a menu names instead): focus returns there on close. */
  trigger: MutableRefObject<HTMLElement | null>;
};

/**
 * Start downloading the dialog (Radix) before it is needed, say when a menu holding triggers opens.
 * A failed download is tried again, and met by a stand-in, when the dialog opens (ADR 0045).
 */
export const preloadDialog = () => void loadDialog().catch(() => undefined);

export function useDialogForm(param: string): DialogFormState {
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLElement | null>(null);
  const close = useCallback(() => setOpen(false), []);
  const onClick = useCallback((event: MouseEvent) => {
    // A click that asks for a new tab or window keeps the link's own behaviour.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    trigger.current = event.currentTarget instanceof HTMLElement ? event.currentTarget : null;
    setOpen(true);
  }, []);
  return { param, open, close, trigger, triggerProps: { onClick, onMouseEnter: preloadDialog, onFocus: preloadDialog } };
}

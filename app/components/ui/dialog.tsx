import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";

/**
 * The app's one modal: a Radix dialog with an overlay, a title, a description and the body below.
 * Content keeps role="dialog" unless "alertdialog" is asked for (a confirm-before-delete). Set
 * `descriptionHidden` when the title says enough on screen but screen readers still need the line.
 */
export function ModalDialog({
  open,
  onClose,
  title,
  description,
  descriptionHidden = false,
  role,
  onCloseAutoFocus,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description: string;
  descriptionHidden?: boolean;
  role?: "dialog" | "alertdialog";
  onCloseAutoFocus?: (event: Event) => void;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? null : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content
          role={role ?? "dialog"}
          onCloseAutoFocus={onCloseAutoFocus}
          className="fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl"
        >
          <Dialog.Title className="text-lg font-bold text-bark-900">{title}</Dialog.Title>
          <Dialog.Description className={descriptionHidden ? "sr-only" : "mt-2 text-sm text-stone-600"}>{description}</Dialog.Description>
          <div className="mt-4">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

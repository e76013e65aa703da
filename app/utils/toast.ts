export type Toast = {
  title: string;
  description?: string;
  type?: "success" | "error" | "info";
  /** A link the toast offers, e.g. "Sign in" after a send met an ended session. */
  action?: { label: string; href: string };
  /** Stays until dismissed, for what the member must read: why this device was signed out (ux-3 U7). */
  sticky?: boolean;
};

let listeners: Array<(toast: Toast) => void> = [];

/** Show a toast from the browser (clipboard, optimistic actions, a failed send). One is visible at a time. */
export function showToast(toast: Toast) {
  for (const listener of listeners) listener(toast);
}

/** The Toaster listens here; returns the unsubscribe. */
export function onToast(listener: (toast: Toast) => void): () => void {
  listeners.push(listener);
  return () => {
    listeners = listeners.filter((l) => l !== listener);
  };
}

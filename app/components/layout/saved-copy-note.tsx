import { useLocation } from "react-router";
import { useSyncExternalStore } from "react";
import { SAVED_COPY_BADGE_CLASS, savedCopyText } from "~/offline/saved-pages";
import { savedCopyOf, subscribeSavedCopies } from "~/offline/service-worker";

const notSaved = () => null;

/**
 * "Saved copy from 5 minutes ago": shown when the page on screen came from the service worker's
 * saved copies (no signal, or a stalled one; docs/decisions/0033-service-worker-saved-pages.md).
 * A quiet status line pinned to the bottom-left corner: it moves nothing on the page, clicks pass
 * through it, and screen readers hear it once (a live region that is always there, empty when the
 * page is fresh). Toasts sit above it.
 */
export function SavedCopyNote() {
  const location = useLocation();
  const page = location.pathname + location.search;
  // Hydration draws what the server drew (no note: React's "server snapshot"), then the note; read
  // during hydration, it made a saved copy not hydrate as sent (ux-3 U18, React #418).
  const savedAt = useSyncExternalStore(subscribeSavedCopies, () => savedCopyOf(page), notSaved);
  return (
    <p role="status" data-testid="saved-copy-note" className="pointer-events-none fixed bottom-2 left-2 z-40 m-0 max-w-[calc(100%-1rem)]">
      {savedAt !== null ? <span className={SAVED_COPY_BADGE_CLASS}>{savedCopyText(savedAt, Date.now())}</span> : null}
    </p>
  );
}

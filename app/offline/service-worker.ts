import { ASSETS_PATH } from "~/utils/assets-path";
import { DATA_PART, DOCUMENT_PART, oldestSaved, type SavedCopyMessage, type SavePageMessage } from "./saved-pages";

declare global {
  interface Window {
    __reactRouterManifest?: { version?: string };
  }
}

/**
 * Registers /sw.js at start-up (SPEC.md §1). The build version rides in the script URL, so every
 * deploy installs a new worker, which takes control at once (skipWaiting + clients.claim). When
 * the worker that takes control belongs to another build than the code this page runs, the page
 * reloads once to run the new build; a page that already runs that build (it registered the
 * worker itself) does not reload, so there is never a second reload.
 */
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  const version = window.__reactRouterManifest?.version ?? "dev";
  let reloading = false;
  // The first page of a visit loads before any worker controls it, so the worker never saw it:
  // once one takes control, it is asked to save this page too (one more request, once).
  let unsaved = !navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    const controller = navigator.serviceWorker.controller;
    const scriptURL = controller?.scriptURL;
    if (!scriptURL || reloading) return;
    const workerVersion = new URL(scriptURL).searchParams.get("v");
    if (unsaved) controller.postMessage(savePageMessage());
    unsaved = false;
    if (workerVersion === version) return;
    reloading = true;
    window.location.reload();
  });
  navigator.serviceWorker.addEventListener("message", (event: MessageEvent<SavedCopyMessage | null>) => {
    if (event.data?.type === "saved-copy") noteSavedCopy(event.data);
  });
  // Was this document drawn from a saved copy? The worker answers only when it was.
  void navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller?.postMessage({ type: "saved-copy?" }));
  const register = () => {
    navigator.serviceWorker.register(`/sw.js?v=${encodeURIComponent(version)}`, { scope: "/" }).catch((error) => {
      console.warn("Service worker registration failed", error);
    });
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

/** This page's address and the build files it loaded, for the worker to save. */
function savePageMessage(): SavePageMessage {
  const assets = performance
    .getEntriesByType("resource")
    .map((entry) => entry.name)
    .filter((name) => name.startsWith(`${location.origin}${ASSETS_PATH}`));
  return { type: "save-page", page: location.pathname + location.search, assets };
}

/**
 * Which pages on screen came from the service worker's saved copies (app/sw/): page address → the
 * part (the document, the page's data for every route, `data`, or for some of them, their ids:
 * `root,routes/post.$id`) → when it was saved, or null when it came from the network. Read by the
 * "saved copy from … ago" note (components/layout/saved-copy-note.tsx).
 */
const savedParts = new Map<string, Map<string, number | null>>();
const listeners = new Set<() => void>();

function noteSavedCopy({ page, part, savedAt }: SavedCopyMessage) {
  const parts = savedParts.get(page) ?? new Map<string, number | null>();
  // The page's data for every route (single fetch) replaces what was said of some of its routes.
  if (part === DATA_PART) for (const other of parts.keys()) if (other !== DOCUMENT_PART) parts.delete(other);
  parts.set(part, savedAt);
  savedParts.set(page, parts);
  for (const listener of listeners) listener();
}

/** For useSyncExternalStore: call `listener` when what the worker said changes. */
export function subscribeSavedCopies(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** When the oldest saved part of `page` (path and query) was saved, or null if it is all fresh. */
export function savedCopyOf(page: string): number | null {
  return oldestSaved(savedParts.get(page));
}

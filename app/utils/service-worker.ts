declare global {
  interface Window {
    __remixManifest?: { version?: string };
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
  const version = window.__remixManifest?.version ?? "dev";
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    const scriptURL = navigator.serviceWorker.controller?.scriptURL;
    if (!scriptURL || reloading) return;
    const workerVersion = new URL(scriptURL).searchParams.get("v");
    if (workerVersion === version) return;
    reloading = true;
    window.location.reload();
  });
  const register = () => {
    navigator.serviceWorker.register(`/sw.js?v=${encodeURIComponent(version)}`, { scope: "/" }).catch((error) => {
      console.warn("Service worker registration failed", error);
    });
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

declare global {
  interface Window {
    __remixManifest?: { version?: string };
  }
}

const RELOADED_KEY = "sw-reloaded-for";

/**
 * Registers /sw.js at start-up (SPEC.md §1). The build version rides in the script URL, so every
 * deploy installs a new worker; when an updated worker takes control of a page that already had
 * one, the page reloads once so it runs the new build's code.
 */
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  const hadController = Boolean(navigator.serviceWorker.controller);
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // The first install of a worker is not an update: nothing to reload for.
    if (!hadController || reloading) return;
    const worker = navigator.serviceWorker.controller?.scriptURL ?? "";
    // Once per new worker, even if the browser fires the event again after the reload.
    if (sessionStorage.getItem(RELOADED_KEY) === worker) return;
    sessionStorage.setItem(RELOADED_KEY, worker);
    reloading = true;
    window.location.reload();
  });
  const version = window.__remixManifest?.version ?? "dev";
  const register = () => {
    navigator.serviceWorker.register(`/sw.js?v=${encodeURIComponent(version)}`, { scope: "/" }).catch((error) => {
      console.warn("Service worker registration failed", error);
    });
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

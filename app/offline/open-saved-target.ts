import { useEffect } from "react";
import { useNavigate } from "react-router";
import { OPEN_SAVED_TARGET } from "./saved-pages";

/**
 * Opening a page from its saved data offline (docs/decisions/0071, 0082): the worker serves another
 * page's saved document with a script that puts that page's address back in the address bar, hides
 * the page and names the address asked for in `window[OPEN_SAVED_TARGET]`. Once the app has
 * hydrated on it, this navigates there (React Router's `navigate`, replacing the history entry; the
 * saved data answers the loaders) and shows the page when the navigation is over, however it ended.
 */
export function useOpenSavedTarget(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const opening = window as unknown as Record<string, unknown>;
    const target = opening[OPEN_SAVED_TARGET];
    if (typeof target !== "string") return;
    delete opening[OPEN_SAVED_TARGET];
    const show = () => {
      document.documentElement.style.visibility = "";
    };
    // Only an address of this site's own, as the worker wrote it.
    if (!target.startsWith("/") || target.startsWith("//")) return show();
    void Promise.resolve(navigate(target, { replace: true })).then(show, show);
  }, [navigate]);
}

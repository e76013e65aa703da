import { useSyncExternalStore } from "react";

const never = () => () => undefined;

/**
 * False during the server render and while React hydrates what the server drew, true once React
 * runs in the browser. Components use it to swap a no-JavaScript fallback (an inline form, a plain
 * text field) for its enhanced version without a hydration mismatch.
 *
 * A part hydrated later (a form whose code is fetched on demand, ADR 0044) is hydrated as the
 * server drew it too, then swapped: React reads the server's value (false) while it hydrates and
 * the browser's (true) from then on. A part first drawn after hydration is enhanced at once.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}

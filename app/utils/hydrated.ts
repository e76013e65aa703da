import { useEffect, useState } from "react";

let hydrated = false;

/**
 * False during the server render and the first browser render, true once React runs in the
 * browser. Components use it to swap a no-JavaScript fallback (an inline form, a plain text field)
 * for its enhanced version without a hydration mismatch.
 */
export function useHydrated(): boolean {
  const [value, setValue] = useState(hydrated);
  useEffect(() => {
    hydrated = true;
    setValue(true);
  }, []);
  return value;
}

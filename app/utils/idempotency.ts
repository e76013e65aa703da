import { useRouteLoaderData } from "react-router";
import { useEffect, useId, useState } from "react";

/**
 * The browser half of idempotency keys (CONTRACT.md §6, docs/decisions/0030-idempotency-keys.md):
 * every form that creates something carries a hidden `idempotencyKey`. The key is fresh for each
 * rendered form and stays the same until a send of it succeeds, so a resend after a lost reply
 * (the browser's own, or the member pressing the button again) is answered as the first send.
 */
export const IDEMPOTENCY_FIELD = "idempotencyKey";

let listeners: Array<(key: string) => void> = [];
let mountedOnce = false;

/** A random key made in the browser (crypto.getRandomValues works on plain http too). */
function freshKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A send with this form succeeded (clientAction helper): forms holding its key take a new one. */
export function markKeyUsed(form: FormData | null | undefined): void {
  const key = form?.get(IDEMPOTENCY_FIELD);
  if (typeof key === "string" && key) for (const listener of listeners) listener(key);
}

/**
 * This form's key. Rendered on the server (and at hydration) it is the root loader's random
 * `formKey` plus the form's `useId` (two forms on a page never share one); a form that appears after
 * hydration makes its own. Without a signed-in member there is no key (nothing to replay to).
 */
export function useIdempotencyKey(): string {
  const serverKey = useRouteLoaderData<{ formKey?: string | null }>("root")?.formKey;
  const id = useId();
  const [key, setKey] = useState(() => (mountedOnce ? freshKey() : serverKey ? `${serverKey}${id}` : ""));
  useEffect(() => {
    mountedOnce = true;
    const listener = (used: string) => {
      if (used === key) setKey(freshKey());
    };
    listeners.push(listener);
    return () => {
      listeners = listeners.filter((l) => l !== listener);
    };
  }, [key]);
  return key;
}

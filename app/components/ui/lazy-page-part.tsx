import { createElement, lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from "react";
import { useHydrated } from "~/utils/hydrated";
import { lazyPart } from "./lazy-part";

/**
 * Parts kept as the server drew them and not hydrated yet. `<html data-parts="hydrating">` marks a
 * page with any: tests wait for it to go before they use what the parts enhance.
 */
let unhydrated = 0;
function partWaits() {
  unhydrated += 1;
  document.documentElement.dataset.parts = "hydrating";
}
function partHydrated() {
  unhydrated -= 1;
  if (unhydrated === 0) delete document.documentElement.dataset.parts;
}

/** How long a part kept as the server drew it waits before it asks again for its code. */
const RETRY_MS = [2_000, 10_000, 30_000, 60_000, 120_000];

/**
 * lazyPart for a page's main form, which the server draws whole and which works without its code
 * (docs/decisions/0046). Apart from lazyPart so that the pages without such a form do not load this.
 *
 * - While React hydrates, the part waits on a promise that settles only when its code is here, so
 *   React leaves it as the server drew it: a plain form that posts without the code, keeping what
 *   the member types into it.
 * - If the code does not come, nothing replaces the server's form. The part asks again when the
 *   browser is back online, or after a while (RETRY_MS), and hydrates in place when the code comes.
 * - Drawn later in the browser (a client-side visit), there is no server form to keep: it is a
 *   lazyPart, whose failure draws `Fallback`, and `loading` shows until the code is here.
 *
 * The member came to the page for this form, so in the browser its code is asked for at once, as
 * the module that makes the part runs: it is on its way before React starts hydrating.
 */
export function lazyPagePart<P extends object>(
  load: () => Promise<ComponentType<P>>,
  Fallback: ComponentType<P>,
  loading: ReactNode = null,
): ComponentType<P> {
  const inBrowser = lazyPart(load, Fallback);
  // Asked for at once in the browser; hydration's first try waits on this same request.
  let early = typeof document === "undefined" ? null : load();
  early?.catch(() => undefined);

  /** The part, telling the page when it has hydrated (the first instance only counts). */
  const hydratedOnce = (Part: ComponentType<P>): ComponentType<P> => {
    let counted = false;
    return function HydratedPart(props: P) {
      useEffect(() => {
        if (counted) return;
        counted = true;
        partHydrated();
      }, []);
      return createElement(Part, props);
    };
  };

  // What hydration waits on: the code, asked for again while it does not come. React.lazy types
  // its props as PropsWithRef<P>, which TypeScript cannot match to a generic P; these take no ref.
  let hydrating: ComponentType<P> | null = null;
  const forHydration = () =>
    (hydrating ??= lazy<ComponentType<P>>(
      () =>
        new Promise((resolve) => {
          // The server draws the part as it is (its code is there); the browser counts it.
          if (typeof document === "undefined") {
            void load().then((component) => resolve({ default: component }));
            return;
          }
          partWaits();
          const tryAt = (retry: number) => {
            const attempt = early ?? load();
            early = null;
            void attempt.then(
              (component) => resolve({ default: hydratedOnce(component) }),
              () => {
                const wait = RETRY_MS[retry];
                if (wait === undefined) return;
                const again = () => {
                  window.removeEventListener("online", again);
                  clearTimeout(timer);
                  tryAt(retry + 1);
                };
                const timer = setTimeout(again, wait);
                window.addEventListener("online", again);
              },
            );
          };
          tryAt(0);
        }),
    ) as unknown as ComponentType<P>);

  function Chosen(props: P) {
    const hydrated = useHydrated();
    const [Part] = useState(() => (hydrated ? inBrowser : forHydration()));
    return createElement(Part, props);
  }
  return function LazyPagePart(props: P) {
    return <Suspense fallback={loading}>{createElement(Chosen, props)}</Suspense>;
  };
}

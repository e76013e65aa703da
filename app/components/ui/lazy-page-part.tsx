import { createElement, lazy, useEffect, useState, type ComponentType } from "react";
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
 *   lazyPart, whose failure draws `Fallback`.
 *
 * `preload()` asks for the code at once, for a page whose main part this is.
 */
export function lazyPagePart<P extends object>(
  load: () => Promise<ComponentType<P>>,
  Fallback: ComponentType<P>,
): ComponentType<P> & { preload: () => void } {
  const inBrowser = lazyPart(load, Fallback);

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
          const tryAt = (retry: number) =>
            load().then(
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
          tryAt(0);
        }),
    ) as unknown as ComponentType<P>);

  function LazyPagePart(props: P) {
    const hydrated = useHydrated();
    const [Part] = useState(() => (hydrated ? inBrowser : forHydration()));
    return createElement(Part, props);
  }
  LazyPagePart.preload = () => {
    load().catch(() => undefined);
  };
  return LazyPagePart;
}

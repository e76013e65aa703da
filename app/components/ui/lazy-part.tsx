import { createElement, lazy, useEffect, useState, type ComponentType } from "react";
import { useHydrated } from "~/utils/hydrated";

type Options = {
  /**
   * The part is the main form of a page the server draws whole (docs/decisions/0046). While its code
   * is on the way, hydration leaves the server's form as it is: a plain form that posts to the
   * server, with what the member types in it. If the code does not arrive then, the server's form
   * stays (no stand-in replaces it) and the code is asked for again when the signal comes back.
   * Drawn later in the browser (a client-side visit), a failure draws `Fallback` as usual.
   */
  keepServerDraw?: boolean;
};

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

/** How many times a part kept as the server drew it asks again for its code, and after how long. */
const RETRY_MS = [2_000, 10_000, 30_000, 60_000, 120_000];

/**
 * React.lazy for a part of a page whose code is fetched on demand (docs/decisions/0044), made safe
 * for a weak link (docs/decisions/0045). When the part's file does not arrive (no signal, a request
 * cut or refused, a deploy that replaced it), plain React.lazy throws to the route's error page,
 * which wipes the page and whatever the member had typed in it. A lazy part draws `Fallback`, with
 * the same props, instead.
 *
 * A part drawn anew after a failure (the next toast, the dialog opened again) asks for its file
 * again; one already on screen keeps what it drew, so a fallback holding a form is never swapped
 * out from under the member.
 */
export function lazyPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
  Fallback: ComponentType<P>,
  { keepServerDraw = false }: Options = {},
): ComponentType<P> & { preload: () => void } {
  // React.lazy types its props as PropsWithRef<P>, which TypeScript cannot match to a generic P;
  // these parts take no ref.
  const attempt = () =>
    lazy<ComponentType<P>>(() =>
      load().then(
        (component) => ({ default: component }),
        () => ({ default: Missing }),
      ),
    ) as unknown as ComponentType<P>;
  let current = attempt();

  function Missing(props: P) {
    // Later draws try again (this one stays as it is).
    useEffect(() => {
      current = attempt();
    }, []);
    return createElement(Fallback, props);
  }

  // What hydration waits on: the code, asked for again while it does not come. A promise that has
  // not settled keeps React's boundary as the server drew it.
  let hydrating: ComponentType<P> | null = null;
  const forHydration = () =>
    (hydrating ??= lazy<ComponentType<P>>(
      () =>
        new Promise((resolve) => {
          if (typeof document !== "undefined") partWaits();
          const tryAt = (retry: number) =>
            load().then(
              (component) => resolve({ default: hydratedOnce(component) }),
              () => {
                // Parts drawn later in the browser start afresh.
                current = attempt();
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

  /** The part, telling the page when it has hydrated (the first instance only counts). */
  function hydratedOnce(Part: ComponentType<P>): ComponentType<P> {
    let counted = typeof document === "undefined";
    return function HydratedPart(props: P) {
      useEffect(() => {
        if (counted) return;
        counted = true;
        partHydrated();
      }, []);
      return createElement(Part, props);
    };
  }

  function LazyPart(props: P) {
    const hydrated = useHydrated();
    const [Part] = useState(() => (keepServerDraw && !hydrated ? forHydration() : current));
    return createElement(Part, props);
  }
  // Asked for early (a page whose main part this is): the file is on its way before React draws.
  LazyPart.preload = () => {
    load().catch(() => undefined);
  };
  return LazyPart;
}

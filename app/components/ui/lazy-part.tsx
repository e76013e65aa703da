import { createElement, lazy, useEffect, useState, type ComponentType } from "react";

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
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>, Fallback: ComponentType<P>): ComponentType<P> {
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

  return function LazyPart(props: P) {
    const [Part] = useState(() => current);
    return createElement(Part, props);
  };
}

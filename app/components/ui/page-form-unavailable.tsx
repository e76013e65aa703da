import { useLocation } from "react-router";

/**
 * What a page shows in place of its main form when the form's code did not arrive on a visit made in
 * the browser (lazyPart's fallback, docs/decisions/0046): why, and a link that loads the page afresh,
 * where the server draws the same form as a plain one that works without that code.
 */
export function PageFormUnavailable() {
  const { pathname, search } = useLocation();
  return (
    <div role="alert" className="card space-y-2 p-5 text-sm text-stone-700">
      <p>This form could not be loaded over this connection.</p>
      <p>
        <a href={pathname + search} className="font-semibold text-field-700 underline hover:text-field-600">
          Open the page again
        </a>{" "}
        to use its plain version.
      </p>
    </div>
  );
}

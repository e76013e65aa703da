import { parse, type Submission } from "@conform-to/react";
import { useCallback, useEffect, useRef } from "react";
import type { $ZodType, input, output } from "zod/v4/core";

/**
 * A form's browser validator, loaded after hydration (docs/decisions/0044): the schema (zod/mini)
 * and `parseInBrowser` come in their own chunk, requested once the page has hydrated, so zod is not
 * part of any page's first load. Until they arrive a submit goes to the server, whose action answers
 * with the same messages (ADR 0038), so nothing is lost; from then on the form shows SPEC.md §5's
 * messages before sending, as before. `<html data-validators="ready">` marks a page whose forms'
 * validators have all arrived.
 *
 * ```tsx
 * const validate = useBrowserValidation(() => import("~/schemas/auth").then((m) => m.loginSchema));
 * useForm({ constraint: CONSTRAINTS.login, onValidate: validate, … });
 * ```
 */

type Validate<S extends $ZodType> = (context: { formData: FormData }) => Submission<input<S>, string[], output<S>>;

let waiting = 0;

export function useBrowserValidation<S extends $ZodType>(load: () => Promise<S>): Validate<S> {
  const loaded = useRef<{ schema: S; parse: typeof import("./browser-parse").parseInBrowser } | null>(null);
  const loadRef = useRef(load);
  useEffect(() => {
    let live = true;
    waiting += 1;
    delete document.documentElement.dataset.validators;
    Promise.all([loadRef.current(), import("./browser-parse")])
      .then(([schema, { parseInBrowser }]) => {
        if (live) loaded.current = { schema, parse: parseInBrowser };
      })
      // A chunk that could not be fetched (the signal dropped): the server still checks every send.
      .catch(() => undefined)
      .finally(() => {
        waiting -= 1;
        if (waiting === 0) document.documentElement.dataset.validators = "ready";
      });
    return () => {
      live = false;
    };
  }, []);
  return useCallback(({ formData }) => {
    const ready = loaded.current;
    if (ready) return ready.parse(formData, { schema: ready.schema });
    // Not here yet: the form goes as it is, and the server answers.
    return parse(formData, { resolve: (value) => ({ value: value as output<S> }) }) as Submission<input<S>, string[], output<S>>;
  }, []);
}

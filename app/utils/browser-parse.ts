import { parse, type Submission } from "@conform-to/react";
import { safeParse, type $ZodType, type input, type output } from "zod/v4/core";

/**
 * Conform's `onValidate` in the browser (docs/decisions/0038-light-browser-validation.md): the same
 * zod/mini schemas as the server, checked without `@conform-to/zod`, whose form-value coercion
 * imports classic zod (about 95 KB gz, and a `new Function` probe the CSP reports). The server's
 * actions keep `parseWithZod` and stay the authority; this gives the same messages before submit.
 *
 * The coercion is Conform's default as it applies to these schemas: an empty field (or an empty
 * file input) is absent, except a field whose schema starts with a preprocess, which gets the raw
 * value as Conform hands it (every such preprocess here reads "" itself).
 */

type Def = { type: string; in?: $ZodType; out?: $ZodType; shape?: Record<string, $ZodType> };
const defOf = (schema: $ZodType) => schema._zod.def as unknown as Def;

const isPreprocess = (schema: $ZodType) => {
  const def = defOf(schema);
  return def.type === "pipe" && def.in !== undefined && defOf(def.in).type === "transform";
};

/** The object's fields, looking through a preprocess in front of it (the edit-club schema). */
function shapeOf(schema: $ZodType): Record<string, $ZodType> | undefined {
  const def = defOf(schema);
  if (def.type === "object") return def.shape;
  if (def.type === "pipe" && def.out) return shapeOf(def.out);
  return undefined;
}

function withoutEmpty(value: unknown): unknown {
  if (value === "") return undefined;
  if (typeof File !== "undefined" && value instanceof File) return value.name === "" && value.size === 0 ? undefined : value;
  if (Array.isArray(value)) return value.map(withoutEmpty);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutEmpty(v)]));
  return value;
}

function coerce(schema: $ZodType, payload: Record<string, unknown>): Record<string, unknown> {
  const shape = shapeOf(schema) ?? {};
  return Object.fromEntries(
    Object.entries(payload).map(([name, value]) => [name, shape[name] && isPreprocess(shape[name]) ? value : withoutEmpty(value)]),
  );
}

/** A field's name as Conform writes it: `a.b[0]`. */
const fieldName = (path: PropertyKey[]) =>
  path.reduce<string>((name, key) => (typeof key === "number" ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key)), "");

export function parseInBrowser<S extends $ZodType>(
  formData: FormData | URLSearchParams,
  { schema }: { schema: S },
): Submission<input<S>, string[], output<S>> {
  return parse(formData, {
    resolve(payload) {
      const result = safeParse(schema, coerce(schema, payload));
      if (result.success) return { value: result.data };
      const error: Record<string, string[]> = {};
      for (const issue of result.error.issues) (error[fieldName(issue.path)] ??= []).push(issue.message);
      return { error };
    },
  }) as Submission<input<S>, string[], output<S>>;
}

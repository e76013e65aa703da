import type { ReactNode } from "react";

/** A labelled form field with its errors, wired for screen readers. */
export function Field({
  id,
  label,
  errors,
  hint,
  children,
}: {
  id: string;
  label: ReactNode;
  errors?: string[] | null;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-stone-500">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
  );
}

export function FieldErrors({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="field-error" role="alert">
      {errors.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

/** A form's own message (not a field's), above the form: a titled alert. */
export function FormAlert({ title, errors, id }: { title: string; errors?: string[] | null; id: string }) {
  if (!errors?.length) return null;
  return (
    <div id={id} role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
      <p className="font-semibold">{title}</p>
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

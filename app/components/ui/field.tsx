import { useEffect, useRef, type ReactNode } from "react";

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
    // Not a <ul role="alert">: the role took the list's away, leaving its items orphans (axe:
    // aria-allowed-role and a serious listitem violation on every form's error, ux-3's refusals).
    <div id={id} className="field-error" role="alert">
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

/**
 * A form's own refusal (not a field's) at the head of a long form, brought into view and focused
 * when a reply (`reply`: a new object per answer) brings one: on a phone the member is at the foot of
 * the form, by its button, and saw nothing happen (ux-3 U1). Without JavaScript the refused page is
 * drawn anew and opens at its top, where this is.
 */
export function FormRefusal({ id, errors, reply }: { id?: string; errors?: string[] | null; reply: unknown }) {
  const ref = useRef<HTMLDivElement>(null);
  const shown = Boolean(errors?.length);
  useEffect(() => {
    if (!shown || !reply) return;
    ref.current?.scrollIntoView({ block: "center" });
    ref.current?.focus({ preventScroll: true });
  }, [reply, shown]);
  if (!shown) return null;
  return (
    <div ref={ref} tabIndex={-1} className="scroll-mt-20 outline-none">
      <FieldErrors id={id} errors={errors} />
    </div>
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

import { getInputProps, getTextareaProps, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { useEffect } from "react";
import { Field } from "~/components/ui/field";
import { showToast } from "~/components/layout/toaster";

/** A text field of a form whose schema is `Form` (Edit Profile's, or Settings' which adds the email). */
type TextField<Form extends Record<string, unknown>> = FieldMetadata<string | null | undefined, Form, string[]>;

/**
 * The member's profile fields, shared by Edit Profile (profile page) and Settings › Profile, which
 * adds the email between the name and the bio. SPEC.md §5's rules come from the forms' schemas.
 */
export function ProfileFields<Form extends Record<string, unknown>>({
  fields,
}: {
  fields: { displayName: TextField<Form>; bio: TextField<Form>; location: TextField<Form>; email?: TextField<Form> };
}) {
  return (
    <>
      <Field id={fields.displayName.id} label="Display name" errors={fields.displayName.errors}>
        <input {...getInputProps(fields.displayName, { type: "text" })} autoComplete="name" className="input" />
      </Field>
      {fields.email ? (
        <Field id={fields.email.id} label="Email" errors={fields.email.errors}>
          <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" className="input" />
        </Field>
      ) : null}
      <Field id={fields.bio.id} label="Bio" errors={fields.bio.errors}>
        <textarea {...getTextareaProps(fields.bio)} rows={4} className="input" placeholder="Tell the community about your hunting" />
      </Field>
      <Field id={fields.location.id} label="Location" errors={fields.location.errors}>
        <input
          {...getInputProps(fields.location, { type: "text" })}
          placeholder="City, State"
          autoComplete="address-level2"
          className="input"
        />
      </Field>
    </>
  );
}

/** A failed profile or password form: an alert that works without JavaScript and, with it, the toast. */
export function FailureAlert({ title, result, message }: { title: string; result?: SubmissionResult<string[]>; message?: string }) {
  const failed = result?.status === "error";
  const text = message ?? "Please check the highlighted fields.";
  useEffect(() => {
    if (failed) showToast({ title, description: text, type: "error" });
  }, [result, failed, title, text]);
  if (!failed) return null;
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
      <p className="font-semibold">{title}</p>
      <p>{text}</p>
    </div>
  );
}

import { getInputProps, getTextareaProps, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { useMemo } from "react";
import { Field } from "~/components/ui/field";
import { PageToast } from "~/components/layout/toaster";

/** A text field of a form whose schema is `Form` (Edit Profile's, or Settings' which adds the email). */
type TextField<Form extends Record<string, unknown>> = FieldMetadata<string | null | undefined, Form, string[]>;

/**
 * The member's profile fields, shared by Edit Profile (profile page) and Settings › Profile, which
 * adds the email between the name and the bio. SPEC.md §5's rules come from the forms' schemas.
 */
export function ProfileFields<Form extends Record<string, unknown>>({
  fields,
  withEmail = false,
}: {
  fields: { displayName: TextField<Form>; bio: TextField<Form>; location: TextField<Form>; email?: TextField<Form> };
  /** Settings only: Conform's `fields` answers any name, so the email is asked for, never inferred. */
  withEmail?: boolean;
}) {
  return (
    <>
      <Field id={fields.displayName.id} label="Display name" errors={fields.displayName.errors}>
        <input {...getInputProps(fields.displayName, { type: "text" })} autoComplete="name" className="input" />
      </Field>
      {withEmail && fields.email ? (
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

/**
 * A failed profile or password form: SPEC.md §8's toast titled 'Error', with the server's message
 * or the form's fallback ('Failed to update profile'); the fields show their own messages.
 */
export function FailureAlert({ fallback, result }: { fallback: string; result?: SubmissionResult<string[]> }) {
  const toast = useMemo(() => {
    if (result?.status !== "error") return null;
    return { title: "Error", description: result.error?.[""]?.[0] ?? fallback, type: "error" as const };
  }, [result, fallback]);
  return <PageToast toast={toast} />;
}

/** New password typed twice: Settings › Change password and the "Forgot password?" link's form. */
export function NewPasswordFields<Form extends Record<string, unknown>>({
  fields,
}: {
  fields: { newPassword: FieldMetadata<string, Form, string[]>; confirmPassword: FieldMetadata<string, Form, string[]> };
}) {
  return (
    <>
      <Field id={fields.newPassword.id} label="New password" errors={fields.newPassword.errors} hint="At least 6 characters">
        <input {...getInputProps(fields.newPassword, { type: "password" })} autoComplete="new-password" className="input" />
      </Field>
      <Field id={fields.confirmPassword.id} label="Confirm new password" errors={fields.confirmPassword.errors}>
        <input {...getInputProps(fields.confirmPassword, { type: "password" })} autoComplete="new-password" className="input" />
      </Field>
    </>
  );
}

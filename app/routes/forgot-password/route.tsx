import type { MetaFunction } from "react-router";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { useBrowserValidation } from "~/utils/browser-validation";
import { CONSTRAINTS } from "~/schemas/constraints";
import { Form, Link, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Field, FormAlert } from "~/components/ui/field";
import { APP_NAME, pageMeta } from "~/utils/brand";
import { useIsPending } from "~/utils/remix";
import type { loader, action } from "./reset-request.server";
import { withUnreadTitle } from "~/utils/unread-title";

export { loader, action } from "./reset-request.server";

/**
 * "Forgot password?" (docs/decisions/0028-password-reset.md): where the operator configured SMTP, a
 * member names their account and gets a one-time link by mail; the answer is the same whether or
 * not an account matched. Without SMTP the page says so: the site's operator prints links.
 */
export default function ForgotPasswordPage() {
  const { byMail, sent } = useLoaderData<typeof loader>();
  return (
    <section className="card mx-auto my-4 max-w-md space-y-4 p-6">
      <h1 className="text-2xl font-bold">Forgot your password?</h1>
      {byMail ? <RequestForm sent={sent} /> : <AskOperator />}
      <p className="text-sm">
        <Link to="/auth" className="tap font-semibold text-field-700 hover:underline">
          ← Back to sign in
        </Link>
      </p>
    </section>
  );
}

function RequestForm({ sent }: { sent: boolean }) {
  const data = useActionData<typeof action>();
  const lastResult = data && "result" in data ? data.result : undefined;
  const busy = useIsPending();
  const [form, fields] = useForm({
    id: "forgot-password",
    lastResult,
    constraint: CONSTRAINTS.forgotPassword,
    shouldValidate: "onBlur",
    onValidate: useBrowserValidation(() => import("~/schemas/auth").then((m) => m.forgotPasswordSchema)),
  });
  return (
    <>
      {sent ? (
        <p role="status" data-testid="reset-sent" className="rounded-md border border-field-500 bg-field-600/5 p-3 text-sm text-bark-900">
          If an account matches, a reset link is on its way to the email address it uses. The link works for one hour, once. Nothing there
          after a few minutes? Check the spam folder, or ask again.
        </p>
      ) : (
        <p className="text-sm text-stone-600">Give your username or email and we&apos;ll mail you a link to choose a new password.</p>
      )}
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormAlert id={form.errorId} title="Could not send a link" errors={form.errors} />
        <Field id={fields.identifier.id} label="Username or email" errors={fields.identifier.errors}>
          <input {...getInputProps(fields.identifier, { type: "text" })} autoComplete="username" autoCapitalize="none" className="input" />
        </Field>
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "Sending..." : "Send reset link"}
        </button>
      </Form>
    </>
  );
}

function AskOperator() {
  return (
    <div data-testid="ask-operator" className="space-y-2 text-sm text-stone-700">
      <p>This site does not send email, so a reset link cannot be mailed to you.</p>
      <p>
        Ask the person who runs {APP_NAME} here for a password reset link for your username. It works for one hour, once, and lets you
        choose a new password.
      </p>
    </div>
  );
}

export const meta: MetaFunction = withUnreadTitle(() => pageMeta("Forgot password", `Get a link to choose a new ${APP_NAME} password.`));

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

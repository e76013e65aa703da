import type { MetaFunction } from "react-router";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useBrowserValidation } from "~/utils/browser-validation";
import { CONSTRAINTS } from "~/schemas/constraints";
import { Form, Link, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { NewPasswordFields } from "~/components/profile/fields";
import { FormAlert } from "~/components/ui/field";
import { RESET_LINK_INVALID } from "~/schemas/messages";
import { APP_NAME, pageMeta } from "~/utils/brand";
import { useIsPending } from "~/utils/remix";
import type { loader, action } from "./password-reset-page.server";
import { withUnreadTitle } from "~/utils/unread-title";

export { loader, action } from "./password-reset-page.server";
// What its loader or action answers `no-store` (one viewer's own) stays so in its `.data` answer (ADR 0079).
export { keepNoStore as headers } from "~/web/cache-control.server";

/**
 * A "Forgot password?" link (docs/decisions/0028-password-reset.md). GET shows the new-password form
 * and changes nothing; an unknown, used or expired link gets a page that says so and offers a new
 * one. The POST sets the password, ends every session of the member and signs this device in.
 */
export const handle = { hideAuthActions: true };

export default function ResetPasswordPage() {
  const { username } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const invalid = !username || (data && "invalid" in data);
  return (
    <section className="card mx-auto my-4 max-w-md space-y-4 p-6">
      {invalid ? <InvalidLink /> : <NewPasswordForm username={username} result={data && "result" in data ? data.result : undefined} />}
    </section>
  );
}

function InvalidLink() {
  return (
    <div data-testid="reset-invalid" className="space-y-3">
      <h1 className="text-2xl font-bold">This link no longer works</h1>
      <p className="text-sm text-stone-700">
        {RESET_LINK_INVALID} Reset links work for one hour, once; a newer link replaces an older one.
      </p>
      <Link to="/forgot-password" className="btn-primary inline-block">
        Ask for a new link
      </Link>
    </div>
  );
}

function NewPasswordForm({ username, result }: { username: string; result?: SubmissionResult<string[]> }) {
  const busy = useIsPending();
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult: result,
    constraint: CONSTRAINTS.passwordReset,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: useBrowserValidation(() => import("~/schemas/profile").then((m) => m.passwordResetSchema)),
  });
  return (
    <>
      <h1 className="text-2xl font-bold">Choose a new password</h1>
      <p className="text-sm text-stone-600">
        For <strong>{username}</strong>. Setting it signs you out on every other device.
      </p>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormAlert id={form.errorId} title="Password not changed" errors={form.errors} />
        {/* Lets a password manager file the new password under the right account. */}
        <input type="text" name="username" value={username} autoComplete="username" readOnly hidden />
        <NewPasswordFields fields={fields} />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "Saving..." : "Set new password"}
        </button>
      </Form>
    </>
  );
}

export const meta: MetaFunction = withUnreadTitle(() => pageMeta("Choose a new password", `Set a new ${APP_NAME} password.`));

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

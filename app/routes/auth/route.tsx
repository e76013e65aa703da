import type { MetaFunction } from "react-router";
import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useBrowserValidation } from "~/utils/browser-validation";
import { CONSTRAINTS } from "~/schemas/constraints";
import { LinkTabs } from "~/components/ui/link-tabs";
import { Form, Link, useActionData, useLoaderData } from "react-router";
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { PageToast } from "~/components/layout/toaster";
import { FieldErrors, Field, FormAlert } from "~/components/ui/field";
import { APP_NAME, pageMeta } from "~/utils/brand";
import { useIsPending } from "~/utils/remix";
import { signInHref } from "~/utils/urls";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import type { loader, action, Mode } from "./sign-in-page.server";
import { withUnreadTitle } from "~/utils/unread-title";

export { loader, action } from "./sign-in-page.server";
// What its loader or action answers `no-store` (one viewer's own) stays so in its `.data` answer (ADR 0079).
export { keepNoStore as headers } from "~/web/cache-control.server";

/** The two tabs: links without JavaScript, Radix tabs with it. */
const TABS: [Mode, string][] = [
  ["login", "Sign In"],
  ["register", "Join Now"],
];

export default function AuthPage() {
  const { mode, redirectTo, inviteCode, inviteClub, inviteFull } = useLoaderData<typeof loader>();
  const tabHref = (m: Mode) => signInHref(redirectTo, m, inviteCode);

  return (
    <div className="grid gap-10 py-4 md:grid-cols-2 md:items-start">
      <section className="rounded-xl bg-bark-900 p-6 text-bark-50 md:p-8">
        <h1 className="text-3xl font-bold">The hunter's pulse of whitetail intelligence</h1>
        <p className="mt-4 text-bark-100">
          Join {APP_NAME}: trade scouting reports, trail-camera finds and rut observations with hunters who live for the whitetail.
        </p>
        <ul className="mt-6 list-disc space-y-3 pl-5 text-sm marker:text-blaze-500">
          <li>Share stories, articles, videos and podcasts from the stand</li>
          <li>Learn bow and rifle tactics from members across the country</li>
          <li>Start or join hunting clubs, public or private, with invite links</li>
          <li>Built for phones at the edge of coverage: fast even on one bar</li>
        </ul>
      </section>

      <section className="card order-first p-6 md:order-none">
        <LinkTabs
          id="auth"
          label="Sign in or join"
          value={mode}
          tabs={TABS.map(([value, label]) => ({ value, label, href: tabHref(value) }))}
          listClassName="mb-6 grid grid-cols-2 rounded-lg bg-stone-100 p-1"
          tabClassName="rounded-md py-2 text-center max-sm:py-3 text-sm font-semibold data-[state=active]:bg-white data-[state=active]:shadow"
        >
          {mode === "login" ? (
            <LoginForm redirectTo={redirectTo} />
          ) : (
            <RegisterForm redirectTo={redirectTo} inviteCode={inviteCode} inviteClub={inviteClub} inviteFull={inviteFull} />
          )}
        </LinkTabs>
      </section>
    </div>
  );
}

function useResult(intent: Mode) {
  const data = useActionData<typeof action>();
  return data && "intent" in data && data.intent === intent ? data.result : undefined;
}

/** A failed submission never sends the password back; with JavaScript, clear the field too. */
function useClearedOnResult(result: unknown) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (result && ref.current) ref.current.value = "";
  }, [result]);
  return ref;
}

/**
 * SPEC.md §8: a failed sign-in or registration is a toast titled 'Login failed' / 'Registration
 * failed' with the server's text, the one message of the failure (issue 31 N5: no second box above
 * the form; a field's own message stays under it). Without JavaScript the toast is part of the page
 * above the content. With it, every failed attempt shows its own: the server's answer, or the first
 * message the browser's check found (`blocked` counts those), so an older text never stays up.
 */
function FailureToast({
  title,
  result,
  blocked,
}: {
  title: string;
  result?: SubmissionResult<string[]>;
  blocked: { count: number; errors: Record<string, string[] | undefined> };
}) {
  const server = useMemo(() => (result?.status === "error" && result.error ? failure(title, result.error) : null), [result, title]);
  const { count, errors } = blocked;
  // Made once per stopped attempt, from the errors of that attempt's render.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const browser = useMemo(() => (count ? failure(title, errors) : null), [count, title]);
  // Each shows its toast when it changes; the newer replaces the older (one toast at a time).
  return (
    <>
      <PageToast toast={server} />
      <PageToast toast={browser} />
    </>
  );
}

function failure(title: string, errors: Record<string, string[] | null | undefined>) {
  const text = errors[""]?.[0] ?? Object.values(errors).find((e) => e?.length)?.[0];
  return { title, description: text ?? "Please check the highlighted fields.", type: "error" as const };
}

/**
 * Conform checks a field when it loses focus by submitting the form with a button of this name (its
 * "validate" intent), and always stops that submit: it is a check, not an attempt to sign in.
 */
const CONFORM_INTENT = "__intent__";

/**
 * Counts the submits the browser's check stopped (Conform prevents them), so FailureToast can
 * show the current reason. Wraps the form's own onSubmit. Conform's own field checks are not
 * attempts: counting them flashed "Login failed" while a right password was on its way.
 */
function useBlockedSubmits(onSubmit: (event: FormEvent<HTMLFormElement>) => void, errors: Record<string, string[] | undefined>) {
  const [count, setCount] = useState(0);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    onSubmit(event);
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (event.defaultPrevented && submitter?.getAttribute("name") !== CONFORM_INTENT) setCount((n) => n + 1);
  };
  return { submit, blocked: { count, errors } };
}

/** The sign-in's refusal was a suspension: its reason and end, said where it stays (ux-3 U7). */
function useSuspension(result: SubmissionResult<string[]> | undefined): string | null {
  const data = useActionData<typeof action>();
  const suspended = Boolean(data && "suspended" in data && data.suspended);
  return suspended ? (result?.error?.[""]?.[0] ?? null) : null;
}

function LoginForm({ redirectTo }: { redirectTo: string }) {
  const lastResult = useResult("login");
  const suspension = useSuspension(lastResult);
  const busy = useIsPending({ intent: "login" });
  const password = useClearedOnResult(lastResult);
  const [form, fields] = useForm({
    id: "login",
    lastResult,
    constraint: CONSTRAINTS.login,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: useBrowserValidation(() => import("~/schemas/auth").then((m) => m.loginSchema)),
  });
  const { onSubmit, ...formProps } = getFormProps(form);
  const { submit, blocked } = useBlockedSubmits(onSubmit, form.allErrors);
  return (
    <>
      <FailureToast title="Login failed" result={suspension ? undefined : lastResult} blocked={blocked} />
      <Form method="post" {...formProps} aria-describedby={undefined} onSubmit={submit} className="space-y-4">
        {suspension ? (
          <div data-testid="suspension-notice">
            <FormAlert id="login-suspension" title="Account suspended" errors={[suspension]} />
          </div>
        ) : null}
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field id={fields.username.id} label="Username" errors={fields.username.errors}>
          <input {...getInputProps(fields.username, { type: "text" })} autoComplete="username" autoCapitalize="none" className="input" />
        </Field>
        <Field id={fields.password.id} label="Password" errors={fields.password.errors}>
          <input
            ref={password}
            {...getInputProps(fields.password, { type: "password" })}
            autoComplete="current-password"
            className="input"
          />
        </Field>
        <p className="-mt-2 text-right text-sm">
          <Link to="/forgot-password" className="tap font-semibold text-field-700 underline-offset-2 hover:underline">
            Forgot password?
          </Link>
        </p>
        <button type="submit" name="intent" value="login" className="btn-primary w-full" disabled={busy}>
          {busy ? "Signing in..." : "Sign In"}
        </button>
      </Form>
    </>
  );
}

function RegisterForm({
  redirectTo,
  inviteCode,
  inviteClub,
  inviteFull,
}: {
  redirectTo: string;
  inviteCode: string;
  inviteClub: string | null;
  inviteFull: boolean;
}) {
  const lastResult = useResult("register");
  const data = useActionData<typeof action>();
  const busy = useIsPending({ intent: "register" });
  const password = useClearedOnResult(lastResult && passwordRefused(lastResult));
  const stored = useStoredInvite();
  const [form, fields] = useForm({
    id: "register",
    lastResult,
    constraint: CONSTRAINTS.register,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: useBrowserValidation(() => import("~/schemas/auth").then((m) => m.registerSchema)),
  });
  // The URL's code (works without JavaScript), else the one the invite page stored (SPEC.md §7).
  const code = inviteCode || (fields.inviteCode.initialValue as string | undefined) || stored.code;
  const club = inviteCode ? inviteClub : code === stored.code ? stored.club : null;
  // The invite's club is full (when the page was drawn, or when the form was sent): the account can
  // still be made, without the club, from the same form and what was typed in it (issue 31 N1).
  const withoutClub = Boolean(code) && (inviteFull || Boolean(data && "withoutClub" in data && data.withoutClub));
  useEffect(() => {
    if (!withoutClub) return;
    window.sessionStorage.removeItem("inviteCode");
    window.sessionStorage.removeItem("inviteClub");
  }, [withoutClub]);
  const { onSubmit, ...formProps } = getFormProps(form);
  const { submit, blocked } = useBlockedSubmits(onSubmit, form.allErrors);

  return (
    <>
      <FailureToast title="Registration failed" result={lastResult} blocked={blocked} />
      <Form method="post" {...formProps} aria-describedby={undefined} onSubmit={submit} className="space-y-4">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <input type="hidden" name="inviteCode" value={code} />
        {withoutClub ? (
          <div role="status" className="rounded-md border border-stone-300 bg-stone-50 p-3 text-sm text-stone-800" data-testid="club-full">
            <input type="hidden" name="withoutClub" value="1" />
            <strong className="block font-semibold">{club ? `${club} is full` : "The club is full"}</strong>
            Nobody can join it until someone leaves. You can still create your account now, without the club.
          </div>
        ) : club ? (
          <p className="rounded-md border border-field-500 bg-field-600/5 p-3 text-sm text-bark-900" data-testid="joining-club">
            You&apos;re joining <strong>{club}</strong>
          </p>
        ) : null}
        <FieldErrors errors={fields.inviteCode.errors} />
        <Field id={fields.username.id} label="Username" errors={fields.username.errors}>
          <input {...getInputProps(fields.username, { type: "text" })} autoComplete="username" autoCapitalize="none" className="input" />
        </Field>
        <Field id={fields.displayName.id} label="Display name" errors={fields.displayName.errors}>
          <input {...getInputProps(fields.displayName, { type: "text" })} autoComplete="name" className="input" />
        </Field>
        <Field id={fields.email.id} label="Email" errors={fields.email.errors}>
          <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" className="input" />
        </Field>
        <Field id={fields.password.id} label="Password" errors={fields.password.errors}>
          <input ref={password} {...getInputProps(fields.password, { type: "password" })} autoComplete="new-password" className="input" />
        </Field>
        <Field id={fields.location.id} label="Location (optional)" errors={fields.location.errors} hint="City, State">
          <input {...getInputProps(fields.location, { type: "text" })} autoComplete="address-level2" className="input" />
        </Field>
        <Field id={fields.bio.id} label="Bio (optional)" errors={fields.bio.errors}>
          <textarea {...getTextareaProps(fields.bio)} rows={3} className="input" placeholder="Tell the community about your hunting" />
        </Field>
        <button type="submit" name="intent" value="register" className="btn-primary w-full" disabled={busy}>
          {busy ? "Creating account..." : withoutClub ? "Sign up without joining" : "Join Now"}
        </button>
      </Form>
    </>
  );
}

/** Only a refused password is cleared: a taken username or email keeps what was typed. */
function passwordRefused(result: SubmissionResult<string[]>): boolean {
  return Boolean(result.error?.password?.length);
}

/** The invite code (and club name) the invite page keeps in session storage, read once in the browser. */
function useStoredInvite() {
  const [stored, setStored] = useState({ code: "", club: null as string | null });
  useEffect(() => {
    setStored({ code: window.sessionStorage.getItem("inviteCode") ?? "", club: window.sessionStorage.getItem("inviteClub") });
  }, []);
  return stored;
}

export const meta: MetaFunction<typeof loader> = withUnreadTitle<typeof loader>(({ data }) =>
  data?.mode === "register"
    ? pageMeta("Join", `Create your ${APP_NAME} account: post, comment, follow hunters and join clubs.`)
    : pageMeta("Sign in", `Sign in to ${APP_NAME}.`),
);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

import type { MetaFunction } from "react-router";
import { getFormProps, getInputProps, useForm, type FieldMetadata } from "@conform-to/react";
import { useBrowserValidation } from "~/utils/browser-validation";
import { CONSTRAINTS } from "~/schemas/constraints";
import { lazy, Suspense, useState } from "react";
import { Form, Link, useActionData, useLoaderData, useLocation } from "react-router";
import { AvatarUpload } from "~/components/profile/avatar-upload";
import { FailureAlert, NewPasswordFields, ProfileFields } from "~/components/profile/fields";
import { Avatar } from "~/components/ui/avatar";
import { Field } from "~/components/ui/field";
import { SessionList } from "~/components/profile/session-list";
import { DataSaverSettings } from "~/components/settings/data-saver";
import { SIGN_IN } from "~/schemas/messages";
import { pageMeta } from "~/utils/brand";
import { useIsPending } from "~/utils/remix";
import { signInHref } from "~/utils/urls";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { PrivacySettings } from "~/components/settings/privacy";
import { NotificationSettingsForm } from "~/components/settings/notifications";
import { PushSettings } from "~/components/settings/push-device";
import { BlockedMembers } from "~/components/settings/blocked-members";
import { TABS } from "./settings-tabs";
import type { loader, action } from "./settings-page.server";
import { withUnreadTitle } from "~/utils/unread-title";

export { loader, action } from "./settings-page.server";
// What its loader or action answers `no-store` (one viewer's own) stays so in its `.data` answer (ADR 0079).
export { keepNoStore as headers } from "~/web/cache-control.server";

/**
 * Two parts of one tab each, drawn by the server (plain forms, JavaScript or not) with their code
 * fetched apart and hydrated when it comes (React keeps a Suspense boundary's server HTML until
 * then), so /settings' first load stays within its 120 KB budget (tests/e2e/first-load-js.spec.ts):
 * Profile's home county (issue 45) and Notifications' private feed addresses with their Copy buttons.
 */
const HomeCountySettings = lazy(() => import("~/components/settings/home-county").then((m) => ({ default: m.HomeCountySettings })));
const FeedTokenSettings = lazy(() => import("~/components/settings/feed-token").then((m) => ({ default: m.FeedTokenSettings })));

export default function SettingsPage() {
  const { user, tab } = useLoaderData<typeof loader>();
  const freshFormKey = useKeyKeptThroughRefusals(useResult("change-password") !== undefined);
  if (!user) return <AccessDenied />;

  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="mb-6 text-2xl font-bold text-bark-900">Settings</h1>
      <div className="grid grid-cols-1 gap-6 md:grid-cols-[12rem_minmax(0,1fr)]">
        <nav aria-label="Settings sections" className="flex gap-1 overflow-x-auto md:flex-col">
          {TABS.map((t) => (
            <Link
              key={t.id}
              to={`/settings?tab=${t.id}`}
              aria-current={tab === t.id ? "page" : undefined}
              preventScrollReset
              className={`whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium max-sm:py-3 ${
                tab === t.id ? "bg-white text-bark-900 shadow-sm" : "text-stone-600 hover:bg-stone-100"
              }`}
            >
              {t.label}
            </Link>
          ))}
        </nav>
        <section className="card p-6" aria-labelledby="settings-section-title">
          {tab === "profile" ? <ProfileSettings /> : null}
          {tab === "security" ? <SecuritySettings key={freshFormKey} /> : null}
          {tab === "notifications" ? <NotificationsTab /> : null}
          {tab === "privacy" ? <PrivacyTab /> : null}
        </section>
      </div>
    </div>
  );
}

function PrivacyTab() {
  const data = useLoaderData<typeof loader>();
  return (
    <PrivacySettings clubs={"ownedClubs" in data ? data.ownedClubs : []} result={useResult("delete-account")}>
      <DataSaverSettings
        on={"dataSaver" in data && data.dataSaver}
        browserAsks={"browserAsksDataSaver" in data && data.browserAsksDataSaver}
        blurGraphic={!("blurGraphic" in data) || data.blurGraphic}
        action="/settings?tab=privacy"
      />
      {"blocked" in data && data.blocked ? <BlockedMembers {...data.blocked} action="/settings?tab=privacy" /> : null}
    </PrivacySettings>
  );
}

function NotificationsTab() {
  const data = useLoaderData<typeof loader>();
  const tab = "notifications" in data ? data.notifications : null;
  if (!tab) return null;
  return (
    <NotificationSettingsForm
      settings={tab.settings}
      choices={tab.choices}
      clubs={tab.clubs}
      pushDevice={<PushSettings pushOn={tab.settings.push} here={tab.pushDevices.here} elsewhere={tab.pushDevices.elsewhere} />}
    >
      <Suspense fallback={null}>
        <FeedTokenSettings {...tab.feedToken} />
      </Suspense>
    </NotificationSettingsForm>
  );
}

function AccessDenied() {
  return (
    <div className="card mx-auto mt-10 max-w-lg p-8 text-center">
      <h1 className="text-2xl font-bold text-bark-900">Access Denied</h1>
      <p className="mt-3 text-stone-600">{SIGN_IN.settings}</p>
      <Link to={signInHref("/settings")} className="btn-primary mt-6">
        Sign In
      </Link>
    </div>
  );
}

/**
 * A key for the password form that starts it afresh on a new page (the redirect after "Password
 * updated"), with JavaScript too, but not for a refusal, nor for the page's data reloading after one
 * (any fetcher's send, the outbox's, reloads it, and that reload drops the refusal): a key that moved
 * then drew the form anew under the member's fingers, wiping what they had typed since (the
 * profiles.spec flake; with React Router 7 a reload after the refusal wiped all three fields).
 */
function useKeyKeptThroughRefusals(refused: boolean): string {
  const { key } = useLocation();
  // `form`: the form's key; `at`: the address (its history key) the form was last drawn at.
  const [kept, setKept] = useState({ form: key, at: key });
  if (kept.at === key) return kept.form;
  // Another address: the refusal's own (keep the form), or a new page (a fresh form).
  const next = refused ? { form: kept.form, at: key } : { form: key, at: key };
  setKept(next);
  return next.form;
}

function useResult(intent: "update-profile" | "change-password" | "delete-account") {
  const data = useActionData<typeof action>();
  return data && "intent" in data && data.intent === intent ? data.result : undefined;
}

function ProfileSettings() {
  const loaded = useLoaderData<typeof loader>();
  const { user } = loaded;
  const homeCounty = "homeCounty" in loaded ? loaded.homeCounty : null;
  const lastResult = useResult("update-profile");
  const busy = useIsPending({ intent: "update-profile" });
  const [form, fields] = useForm({
    id: "settings-profile",
    lastResult,
    defaultValue: { displayName: user!.displayName, email: user!.email, bio: user!.bio ?? "", location: user!.location ?? "" },
    constraint: CONSTRAINTS.settingsProfile,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: useBrowserValidation(() => import("~/schemas/profile").then((m) => m.settingsProfileSchema)),
  });
  if (!user) return null;

  return (
    <div className="space-y-5">
      <h2 id="settings-section-title" className="text-lg font-semibold text-bark-900">
        Profile
      </h2>
      <div className="flex flex-wrap items-center gap-4">
        <Avatar src={user.avatar} name={user.displayName} size={64} />
        <AvatarUpload action="/settings" returnTo="/settings?tab=profile" label="Change Avatar" variant="button" />
      </div>
      <Form method="post" action="/settings?tab=profile" {...getFormProps(form)} className="space-y-4">
        <FailureAlert fallback="Failed to update profile" result={lastResult} />
        <ProfileFields fields={fields} withEmail />
        <CurrentPasswordField field={fields.currentPassword} />
        <button type="submit" name="intent" value="update-profile" className="btn-primary" disabled={busy}>
          {busy ? "Saving..." : "Save Changes"}
        </button>
      </Form>
      {homeCounty ? (
        <Suspense fallback={null}>
          <HomeCountySettings picker={homeCounty} />
        </Suspense>
      ) : null}
    </div>
  );
}

/**
 * Asked for only when the email changes (security-2 N4), and always on the form, so it is there with
 * JavaScript off too. Its name stays "Current password": the hint says when it is needed.
 */
function CurrentPasswordField({ field }: { field: FieldMetadata<string | undefined> }) {
  const hint = `${field.id}-hint`;
  return (
    <Field id={field.id} label="Current password" errors={field.errors} hint="Needed only to change your email.">
      <input
        {...getInputProps(field, { type: "password" })}
        aria-describedby={field.errors?.length ? `${hint} ${field.errorId}` : hint}
        autoComplete="current-password"
        className="input"
      />
    </Field>
  );
}

function SecuritySettings() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useResult("change-password");
  const busy = useIsPending({ intent: "change-password" });
  const [form, fields] = useForm({
    id: "change-password",
    lastResult,
    constraint: CONSTRAINTS.passwordChange,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: useBrowserValidation(() => import("~/schemas/profile").then((m) => m.passwordChangeSchema)),
  });

  return (
    <div className="space-y-5">
      <h2 id="settings-section-title" className="text-lg font-semibold text-bark-900">
        Change password
      </h2>
      <Form method="post" action="/settings?tab=security" {...getFormProps(form)} className="max-w-md space-y-4">
        <FailureAlert fallback="Failed to update password" result={lastResult} />
        <Field id={fields.currentPassword.id} label="Current password" errors={fields.currentPassword.errors}>
          <input {...getInputProps(fields.currentPassword, { type: "password" })} autoComplete="current-password" className="input" />
        </Field>
        <NewPasswordFields fields={fields} />
        <p className="text-sm text-stone-500">Changing your password signs you out on every other device.</p>
        <button type="submit" name="intent" value="change-password" className="btn-primary" disabled={busy}>
          {busy ? "Updating..." : "Update Password"}
        </button>
      </Form>
      <SessionList sessions={"sessions" in data ? data.sessions : []} action="/settings?tab=security" />
    </div>
  );
}

export const meta: MetaFunction = withUnreadTitle(() => pageMeta("Settings", "Your profile, password and signed-in devices."));

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useBrowserValidation } from "~/utils/browser-validation";
import { CONSTRAINTS } from "~/schemas/constraints";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { AvatarUpload } from "~/components/profile/avatar-upload";
import { FailureAlert, NewPasswordFields, ProfileFields } from "~/components/profile/fields";
import { Avatar } from "~/components/ui/avatar";
import { Field } from "~/components/ui/field";
import { SessionList } from "~/components/profile/session-list";
import { DataSaverSettings } from "~/components/settings/data-saver";
import { changePassword, updateProfile } from "~/models/profile.server";
import { setDataSaver } from "~/models/data-saver.server";
import { endSession, endSessions, listSessions, SESSION_NOT_FOUND } from "~/models/session.server";
import { SIGN_IN } from "~/schemas/messages";
import { passwordChangeSchema, settingsProfileSchema } from "~/schemas/forms.server";
import { handleAvatarUpload, isMultipart } from "~/web/avatar-upload.server";
import { NO_STORE } from "~/web/cache-control.server";
import { pageMeta } from "~/utils/brand";
import { badRequest, unauthorized } from "~/utils/errors";
import { useIsPending } from "~/utils/remix";
import { signInHref } from "~/utils/urls";
import { formReply, withPageErrors } from "~/web/page-errors.server";
import { idParam } from "~/web/params.server";
import { commitUserSession, getSignedIn, type SessionUser, type SignedIn } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { readFormData } from "~/web/request-body.server";
import { saveDataRequested } from "~/web/data-saver.server";
import type { ActiveSession, OwnedClubFate } from "~/schemas/shapes";
import { PrivacySettings } from "~/components/settings/privacy";
import { clubsOnAccountDeletion } from "~/models/account.server";
import { deleteAccountAction } from "~/web/account-deletion.server";

const TABS = [
  { id: "profile", label: "Profile" },
  { id: "security", label: "Security" },
  { id: "notifications", label: "Notifications" },
  { id: "privacy", label: "Privacy" },
] as const;
type Tab = (typeof TABS)[number]["id"];
const tabOf = (value: string | null): Tab => TABS.find((t) => t.id === value)?.id ?? "profile";

const PASSWORD_FIELDS = ["currentPassword", "newPassword", "confirmPassword"] as const;

/** Signed-out visitors get 'Access Denied' (with a sign-in link) rather than a redirect. */
export async function loader({ request }: LoaderFunctionArgs) {
  const signedIn = await getSignedIn(request);
  const tab = tabOf(new URL(request.url).searchParams.get("tab"));
  // The member's email is on the page (cache-control.server.ts).
  if (!signedIn) return json({ user: null, tab }, { status: 401, ...NO_STORE });
  const { user, sessionId } = signedIn;
  const sessions: ActiveSession[] = tab === "security" ? listSessions(user, sessionId) : [];
  const ownedClubs: OwnedClubFate[] = tab === "privacy" ? clubsOnAccountDeletion(user) : [];
  const privacy = { dataSaver: signedIn.dataSaver, browserAsksDataSaver: saveDataRequested(request), ownedClubs };
  return json({ user, tab, sessions, ...privacy }, NO_STORE);
}

export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request }) => {
    const signedIn = await getSignedIn(request);
    if (!signedIn) throw unauthorized(SIGN_IN.settings);
    const actor = signedIn.user;
    if (isMultipart(request)) return handleAvatarUpload(request, actor, actor.username, "/settings?tab=profile");
    const formData = await readFormData(request);
    const intent = formData.get("intent");
    if (intent === "update-profile") return updateProfileAction(actor, formData);
    if (intent === "change-password") return changePasswordAction(actor, request, formData);
    if (intent === "delete-account") return deleteAccountAction(actor, request, formData);
    if (intent === "end-session" || intent === "end-other-sessions") return endSessionsAction(signedIn, intent, formData);
    if (intent === "data-saver") return dataSaverAction(actor, formData);
    throw badRequest("Unknown action");
  });
}

async function updateProfileAction(actor: SessionUser, formData: FormData) {
  const submission = parseWithZod(formData, { schema: settingsProfileSchema });
  const reply = { data: { intent: "update-profile" } } as const;
  if (submission.status !== "success") return formReply(submission, reply);
  try {
    updateProfile(actor, actor.username, {
      ...submission.value,
      bio: submission.value.bio ?? null,
      location: submission.value.location ?? null,
    });
  } catch (error) {
    return formReply(submission, { ...reply, error });
  }
  return redirectWithToast("/settings?tab=profile", {
    title: "Profile updated",
    description: "Your profile has been updated successfully.",
  });
}

async function changePasswordAction(actor: SessionUser, request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: passwordChangeSchema });
  const reply = { hideFields: PASSWORD_FIELDS, data: { intent: "change-password" } } as const;
  if (submission.status !== "success") return formReply(submission, reply);
  try {
    await changePassword(actor, submission.value);
  } catch (error) {
    return formReply(submission, { ...reply, error });
  }
  // Every session of the member ended with the old password; this device gets a fresh one.
  return redirectWithToast(
    "/settings?tab=security",
    { title: "Password updated", description: "Your password has been changed. Other devices have been signed out." },
    { headers: { "Set-Cookie": await commitUserSession(actor, request) } },
  );
}

/** Sign out one other device (only the member's own: anyone else's is 404), or all the others. */
async function endSessionsAction({ user, sessionId }: SignedIn, intent: "end-session" | "end-other-sessions", formData: FormData) {
  if (intent === "end-other-sessions") {
    const ended = endSessions(user, { except: sessionId });
    const description = ended === 1 ? "1 other device has been signed out." : `${ended} other devices have been signed out.`;
    return redirectWithToast("/settings?tab=security", { title: "Signed out", description });
  }
  const target = formData.get("sessionId");
  const id = idParam(typeof target === "string" ? target : undefined, SESSION_NOT_FOUND);
  // This device signs out through the avatar menu's Log out, which also drops the cookie.
  if (id === sessionId) throw badRequest("Use Log out to sign out of this device");
  endSession(user, id);
  return redirectWithToast("/settings?tab=security", { title: "Signed out", description: "That device has been signed out." });
}

/** Settings › Privacy › Data saver: the checkbox sends "on", or nothing when it is cleared. */
function dataSaverAction(actor: SessionUser, formData: FormData) {
  const on = formData.get("dataSaver") === "on";
  setDataSaver(actor, on);
  return redirectWithToast("/settings?tab=privacy", {
    title: on ? "Data saver on" : "Data saver off",
    description: on ? "Pictures now wait for a tap." : "Pictures load as usual.",
  });
}

export default function SettingsPage() {
  const { user, tab } = useLoaderData<typeof loader>();
  const location = useLocation();
  if (!user) return <AccessDenied />;

  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="mb-6 text-2xl font-bold text-bark-900">Settings</h1>
      <div className="grid gap-6 md:grid-cols-[12rem_1fr]">
        <nav aria-label="Settings sections" className="flex gap-1 overflow-x-auto md:flex-col">
          {TABS.map((t) => (
            <Link
              key={t.id}
              to={`/settings?tab=${t.id}`}
              aria-current={tab === t.id ? "page" : undefined}
              preventScrollReset
              className={`whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium ${
                tab === t.id ? "bg-white text-bark-900 shadow-sm" : "text-stone-600 hover:bg-stone-100"
              }`}
            >
              {t.label}
            </Link>
          ))}
        </nav>
        <section className="card p-6" aria-labelledby="settings-section-title">
          {tab === "profile" ? <ProfileSettings /> : null}
          {/* A new page (the redirect after "Password updated") starts the password form afresh, with JavaScript too. */}
          {tab === "security" ? <SecuritySettings key={location.key} /> : null}
          {tab === "notifications" ? (
            <ComingSoon title="Notifications" text="Notification settings will be available in a future update." />
          ) : null}
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
        action="/settings?tab=privacy"
      />
    </PrivacySettings>
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

function ComingSoon({ title, text }: { title: string; text: string }) {
  return (
    <>
      <h2 id="settings-section-title" className="text-lg font-semibold text-bark-900">
        {title}
      </h2>
      <p className="mt-2 text-stone-600">{text}</p>
    </>
  );
}

function useResult(intent: "update-profile" | "change-password" | "delete-account") {
  const data = useActionData<typeof action>();
  return data && "intent" in data && data.intent === intent ? data.result : undefined;
}

function ProfileSettings() {
  const { user } = useLoaderData<typeof loader>();
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
        <button type="submit" name="intent" value="update-profile" className="btn-primary" disabled={busy}>
          {busy ? "Saving..." : "Save Changes"}
        </button>
      </Form>
    </div>
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

export const meta: MetaFunction = () => pageMeta("Settings", "Your profile, password and signed-in devices.");

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

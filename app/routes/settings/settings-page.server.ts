import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "react-router";
import { changePassword, updateProfile } from "~/models/members/profile.server";
import { setDataSaver } from "~/models/members/data-saver.server";
import { setBlurGraphic } from "~/models/members/graphic-photos.server";
import { endSession, endSessions, listSessions, SESSION_NOT_FOUND } from "~/models/members/session.server";
import { passwordChangeSchema, settingsProfileSchema } from "~/schemas/forms.server";
import { handleAvatarUpload, isMultipart } from "~/web/avatar-upload.server";
import { NO_STORE } from "~/web/cache-control.server";
import { formReply, withPageErrors } from "~/web/page-errors.server";
import { idParam } from "~/web/params.server";
import { commitUserSession, getSignedIn, type SessionUser, type SignedIn } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";
import { readFormData } from "~/web/request-body.server";
import { saveDataRequested } from "~/web/data-saver.server";
import { clubsOnAccountDeletion } from "~/models/members/account.server";
import { deleteAccountAction } from "~/web/account-deletion.server";
import { SIGN_IN } from "~/schemas/messages";
import { badRequest, invalid, unauthorized } from "~/utils/errors";
import type { ActiveSession, OwnedClubFate } from "~/schemas/shapes";
import { blockedMembersOf, unblockAction } from "./blocked-members.server";
import { tabOf } from "./settings-tabs";
import {
  clubPostChoices,
  notificationSettingsOf,
  settingsKindsFor,
  updateNotificationSettings,
} from "~/models/notifications/notification-settings.server";
import {
  EMAIL_CHOICES,
  NOTIFICATION_KIND_LABELS,
  NOTIFICATION_KIND_NAMES,
  notificationSettingsSchema,
} from "~/schemas/notification-settings";
import { pushDevicesOf, unsubscribeElsewhere } from "~/models/notifications/push.server";
import { loadFeedTokenPanel } from "~/web/atom-feed.server";
import { zodFieldErrors } from "~/utils/validation";
import { getHomeCounty, setHomeCounty } from "~/models/places/home-county.server";
import { countyPickerData } from "~/web/county-picker.server";

/** /settings' server side: each tab's data and each form's action (route.tsx re-exports it, docs/decisions/0045). */

const PASSWORD_FIELDS = ["currentPassword", "newPassword", "confirmPassword"] as const;

/** Signed-out visitors get 'Access Denied' (with a sign-in link) rather than a redirect. */
export async function loader({ request }: LoaderFunctionArgs) {
  const signedIn = await getSignedIn(request);
  const tab = tabOf(new URL(request.url).searchParams.get("tab"));
  // The member's email is on the page (cache-control.server.ts).
  if (!signedIn) return data({ user: null, tab }, { status: 401, ...NO_STORE });
  const { user, sessionId } = signedIn;
  const sessions: ActiveSession[] = tab === "security" ? await listSessions(user, sessionId) : [];
  const ownedClubs: OwnedClubFate[] = tab === "privacy" ? await clubsOnAccountDeletion(user) : [];
  const blocked = tab === "privacy" ? await blockedMembersOf(user, new URL(request.url)) : null;
  const privacy = {
    dataSaver: signedIn.dataSaver,
    blurGraphic: signedIn.blurGraphic,
    browserAsksDataSaver: saveDataRequested(request),
    ownedClubs,
    blocked,
  };
  const notifications = tab === "notifications" ? await notificationsTab(request, signedIn) : null;
  const homeCounty = tab === "profile" ? await homeCountyTab(request, user) : null;
  return data({ user, tab, sessions, ...privacy, notifications, homeCounty }, NO_STORE);
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
    if (intent === "data-saver") return dataSaverAction(signedIn, formData);
    if (intent === "notification-settings") return notificationSettingsAction(actor, formData);
    if (intent === "push-off-elsewhere") return pushOffElsewhereAction(signedIn);
    if (intent === "unblock") return unblockAction(actor, formData);
    if (intent === "home-county") return homeCountyAction(actor, formData);
    throw badRequest("Unknown action");
  });
}

async function updateProfileAction(actor: SessionUser, formData: FormData) {
  const submission = parseWithZod(formData, { schema: settingsProfileSchema });
  // The current password (asked for when the email changes) is never sent back into the page.
  const reply = { hideFields: ["currentPassword"], data: { intent: "update-profile" } } as const;
  if (submission.status !== "success") return formReply(submission, reply);
  try {
    await updateProfile(actor, actor.username, {
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
    const ended = await endSessions(user, { except: sessionId });
    const description = ended === 1 ? "1 other device has been signed out." : `${ended} other devices have been signed out.`;
    return redirectWithToast("/settings?tab=security", { title: "Signed out", description });
  }
  const target = formData.get("sessionId");
  const id = idParam(typeof target === "string" ? target : undefined, SESSION_NOT_FOUND);
  // This device signs out through the avatar menu's Log out, which also drops the cookie.
  if (id === sessionId) throw badRequest("Use Log out to sign out of this device");
  await endSession(user, id);
  return redirectWithToast("/settings?tab=security", { title: "Signed out", description: "That device has been signed out." });
}

/**
 * Settings › Privacy › Data saver, with "Blur graphic photos" (CONTRACT.md §14) in the same form: each
 * checkbox sends "on", or nothing when it is cleared. The toast tells what changed.
 */
async function dataSaverAction(signedIn: SignedIn, formData: FormData) {
  const on = formData.get("dataSaver") === "on";
  const blur = formData.get("blurGraphic") === "on";
  await setDataSaver(signedIn.user, on);
  await setBlurGraphic(signedIn.user, blur);
  if (blur !== signedIn.blurGraphic && on === signedIn.dataSaver) {
    return redirectWithToast("/settings?tab=privacy", {
      title: blur ? "Graphic photos blurred" : "Graphic photos shown",
      description: blur ? "Graphic photos now wait behind “Show photo”." : "Graphic photos show like any other.",
    });
  }
  return redirectWithToast("/settings?tab=privacy", {
    title: on ? "Data saver on" : "Data saver off",
    description: on ? "Pictures now wait for a tap." : "Pictures load as usual.",
  });
}

/**
 * Settings › Notifications: the member's choices, their clubs, the devices push goes to (this one's
 * session and how many others) and the private-club feed piece.
 */
async function notificationsTab(request: Request, { user, sessionId }: SignedIn) {
  const [settings, clubs, feedToken, kinds, pushDevices] = await Promise.all([
    notificationSettingsOf(user.id),
    clubPostChoices(user.id),
    loadFeedTokenPanel(request, user),
    settingsKindsFor(user),
    pushDevicesOf(user.id, sessionId),
  ]);
  const choices = {
    kinds: NOTIFICATION_KIND_NAMES.filter((kind) => kinds.includes(kind)).map((name) => ({ name, label: NOTIFICATION_KIND_LABELS[name] })),
    email: EMAIL_CHOICES.map((choice) => ({ ...choice })),
  };
  return { settings, choices, clubs: clubs.map(({ id, name }) => ({ id, name })), feedToken, pushDevices };
}

/**
 * The Notifications form: a checkbox sends "on" or nothing, so every kind and club is read as checked
 * or not; the email choice must be one of the four. Push is not on it (ux-3 U17): it is turned on and
 * off per device (push-toggle.tsx, POST/DELETE /api/push/subscriptions), so saving leaves it as it is.
 */
async function notificationSettingsAction(actor: SessionUser, formData: FormData) {
  const kinds = await settingsKindsFor(actor);
  const inApp = Object.fromEntries(
    NOTIFICATION_KIND_NAMES.filter((kind) => kinds.includes(kind)).map((kind) => [kind, formData.get(`inApp.${kind}`) === "on"]),
  );
  const parsed = notificationSettingsSchema.safeParse({
    inApp,
    email: formData.get("email") ?? undefined,
    clubPosts: formData.getAll("clubPosts").map(Number),
  });
  if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
  await updateNotificationSettings(actor, { ...parsed.data, clubPosts: parsed.data.clubPosts ?? [] });
  return redirectWithToast("/settings?tab=notifications", {
    title: "Notification settings saved",
    description: "You will hear of what you chose, the way you chose.",
  });
}

/** Settings › Notifications › Push: stop push on every device but this one (a plain form: it works without JavaScript). */
async function pushOffElsewhereAction({ user, sessionId }: SignedIn) {
  const gone = await unsubscribeElsewhere(user, sessionId);
  return redirectWithToast("/settings?tab=notifications", {
    title: "Push turned off on your other devices",
    description: gone === 1 ? "1 device will get no more push notifications." : `${gone} devices will get no more push notifications.`,
  });
}

/** Settings › Profile › Home county: the member's county (or none) and the picker (`?homeState=` for its second step). */
async function homeCountyTab(request: Request, user: SessionUser) {
  const county = await getHomeCounty(user);
  return {
    county: county ? { fips: county.fips, name: county.name, state: county.state, stateName: county.stateName } : null,
    ...countyPickerData(new URL(request.url).searchParams.get("homeState"), county),
  };
}

/** Save (`homeCounty`, a FIPS code from the picker) or clear (empty) the home county the hunt-day page opens on. */
async function homeCountyAction(actor: SessionUser, formData: FormData) {
  const fips = String(formData.get("homeCounty") ?? "").trim();
  const county = await setHomeCounty(actor, fips === "" ? null : fips);
  return redirectWithToast("/settings?tab=profile", {
    title: county ? "Home county saved" : "Home county removed",
    description: county ? `Hunt day opens on ${county.name}, ${county.stateName}.` : "Hunt day will ask for a county.",
  });
}

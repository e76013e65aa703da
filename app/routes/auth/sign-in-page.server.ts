import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from "react-router";
import { signUpWithInvite } from "~/models/members/auth.server";
import { getClub } from "~/models/clubs/club.server";
import { CLUB_FULL } from "~/models/clubs/club-membership.server";
import { getInvite } from "~/models/clubs/invite.server";
import { loginSchema, registerSchema, safeRedirect } from "~/schemas/forms.server";
import { authenticateForm } from "~/web/authenticator.server";
import { clientAddress } from "~/web/params.server";
import { readFormData } from "~/web/request-body.server";
import { formReply, withPageErrors } from "~/web/page-errors.server";
import { getSessionUser, redirectSignedIn } from "~/web/session.server";
import { badRequest, isAppError } from "~/utils/errors";
import { APP_NAME } from "~/utils/brand";

/** /auth's server side: sign in and join (route.tsx re-exports it, docs/decisions/0045). */

export type Mode = "login" | "register";

const modeOf = (value: string | null): Mode => (value === "register" ? "register" : "login");

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (await getSessionUser(request)) throw redirect(safeRedirect(url.searchParams.get("redirectTo")));
  const inviteCode = url.searchParams.get("inviteCode") ?? "";
  return data({
    mode: modeOf(url.searchParams.get("mode")),
    redirectTo: safeRedirect(url.searchParams.get("redirectTo"), ""),
    inviteCode,
    // "You're joining <club>": a code that no longer works names nothing (registering says why).
    ...(inviteCode ? await inviteClub(inviteCode) : { inviteClub: null, inviteFull: false }),
  });
}

export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request }) => {
    // Read once, capped; sign-in hands remix-auth a request rebuilt from this form.
    const formData = await readFormData(request);
    const intent = formData.get("intent");
    const redirectTo = safeRedirect(formData.get("redirectTo"));
    if (intent === "login") return loginAction(request, formData, redirectTo);
    if (intent === "register") return registerAction(request, formData, redirectTo);
    throw badRequest("Unknown action");
  });
}

/** The invite's club by name, and whether it is full (then the form offers an account without it: issue 31 N1). */
async function inviteClub(code: string): Promise<{ inviteClub: string | null; inviteFull: boolean }> {
  try {
    const { club } = await getInvite(code);
    return { inviteClub: club.name, inviteFull: club.memberLimit !== null && club.memberCount >= club.memberLimit };
  } catch (error) {
    if (isAppError(error) && error.status === 404) return { inviteClub: null, inviteFull: false };
    throw error;
  }
}

/** The invite's club filled up (CONTRACT.md §2: 409 'Club is full'); no account was made. */
const isClubFull = (error: unknown) => isAppError(error) && error.status === 409 && error.message === CLUB_FULL;

async function loginAction(request: Request, formData: FormData, redirectTo: string) {
  const submission = parseWithZod(formData, { schema: loginSchema });
  const reply = { hideFields: ["password"], data: { intent: "login" } } as const;
  if (submission.status !== "success") return formReply(submission, reply);
  let user;
  try {
    user = await authenticateForm(request, formData);
  } catch (error) {
    // A suspension (403) is said as a notice that stays above the form, not a passing toast (ux-3 U7).
    const suspended = isAppError(error) && error.status === 403;
    return formReply(submission, { ...reply, data: { intent: "login", suspended }, error, signInFailure: true });
  }
  return redirectSignedIn(user, request, redirectTo, { title: "Welcome back!", description: "You've been successfully logged in." });
}

async function registerAction(request: Request, formData: FormData, redirectTo: string) {
  const submission = parseWithZod(formData, { schema: registerSchema });
  // A taken username or email keeps the typed password: it comes back only in this answer to the
  // member's own post, never stored by the browser or a proxy (docs/decisions/0025).
  // `withoutClub`: the member chose to make the account without the invite's club, which is full
  // (the form offers it then, keeping everything typed); it stays chosen through later failures.
  const withoutClub = formData.get("withoutClub") === "1";
  const reply = {
    hideFields: submission.status === "error" && submission.error?.password ? ["password"] : [],
    data: { intent: "register", withoutClub },
  } as const;
  if (submission.status !== "success") return noStore(formReply(submission, reply));
  // Registration through an invite (the invite page's link, or the code it stored): the account
  // joins the club in the same transaction, and a bad code or a full club creates nothing.
  let signedUp;
  try {
    signedUp = await signUpWithInvite(submission.value, clientAddress(request), withoutClub ? null : submission.value.inviteCode);
  } catch (error) {
    return noStore(formReply(submission, { ...reply, data: { intent: "register", withoutClub: withoutClub || isClubFull(error) }, error }));
  }
  const { user, clubId } = signedUp;
  // `joined=1`: the club page removes the stored invite code from session storage.
  const target = clubId ? `/clubs/${clubId}?joined=1` : redirectTo;
  return redirectSignedIn(user, request, target, {
    title: `Welcome to ${APP_NAME}`,
    description: clubId
      ? `Your account has been created and you joined ${(await getClub(user, clubId)).name}.`
      : "Your account has been created successfully.",
  });
}

function noStore<D>(answer: ReturnType<typeof data<D>>) {
  const headers = new Headers(answer.init?.headers);
  headers.set("Cache-Control", "no-store");
  return data(answer.data, { ...answer.init, headers });
}

import type { MetaFunction } from "react-router";
import { Form, Link, useActionData, useLoaderData, useSubmit } from "react-router";
import { useEffect, useRef } from "react";
import { InviteTerms } from "~/components/club/invite-terms";
import { Avatar } from "~/components/ui/avatar";
import { ErrorPanel, GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { pageMeta } from "~/utils/brand";
import { INVITE_INVALID } from "~/schemas/messages";
import { useIsPending } from "~/utils/remix";
import { signInHref } from "~/utils/urls";
import type { loader, action } from "./invite-page.server";
import { withUnreadTitle } from "~/utils/unread-title";

export { loader, action } from "./invite-page.server";
// What its loader or action answers `no-store` (one viewer's own) stays so in its `.data` answer (ADR 0079).
export { keepNoStore as headers } from "~/web/cache-control.server";

const INVALID_TITLE = "Invalid Invite";

export default function InvitePage() {
  const { invite, code, viewer, full } = useLoaderData<typeof loader>();
  if (!invite) {
    return (
      <ErrorPanel title={INVALID_TITLE}>
        <span className="block">{INVITE_INVALID}</span>
        <Link to="/clubs" className="btn-primary mt-6">
          Browse Clubs
        </Link>
      </ErrorPanel>
    );
  }
  return (
    <div className="card mx-auto mt-6 max-w-lg p-8 text-center" data-testid="invite">
      <p className="text-sm uppercase tracking-wide text-stone-500">You're invited to join</p>
      <div className="mt-4 flex justify-center">
        <Avatar src={invite.club.avatar} name={invite.club.name} size={80} />
      </div>
      <h1 className="mt-4 text-2xl font-bold text-bark-900">{invite.club.name}</h1>
      {invite.club.description ? <p className="mt-2 whitespace-pre-line break-words text-stone-700">{invite.club.description}</p> : null}
      <p className="mt-4 text-sm text-stone-500" data-testid="invite-details">
        <InviteTerms invite={invite} remaining="remaining" />
      </p>
      <div className="mt-6">
        {full ? (
          <ClubFull clubId={invite.clubId} limit={invite.club.memberLimit} signedIn={viewer !== "signed-out"} code={code} />
        ) : viewer === "signed-out" ? (
          <SignedOutChoices code={code} club={invite.club.name} />
        ) : (
          <JoinNow />
        )}
      </div>
    </div>
  );
}

/**
 * Sign up: the code travels in the URL (always) and, with JavaScript, in session storage under
 * `inviteCode` (SPEC.md §2). Sign in: back here afterwards, where the member can join.
 */
function SignedOutChoices({ code, club }: { code: string; club: string }) {
  const registerHref = signInHref(null, "register", code);
  const loginHref = signInHref(`/join/${code}`);
  return (
    <div className="flex flex-col items-center gap-3">
      <Link to={registerHref} className="btn-primary w-full" onClick={() => storeInvite(code, club)}>
        Sign Up &amp; Join Club
      </Link>
      <Link to={loginHref} className="tap text-sm font-medium text-field-700 hover:underline">
        Already have an account? Sign In
      </Link>
    </div>
  );
}

/**
 * A full club (issue 31 N1): said before anything is asked, with no join to try. A newcomer can
 * still make an account, without the club (and without a code the invite page may have stored
 * earlier); a member can look at the club. The invite works again once someone leaves.
 */
function ClubFull({ clubId, limit, signedIn, code }: { clubId: number; limit: number | null; signedIn: boolean; code: string }) {
  return (
    <div className="space-y-4" data-testid="invite-full">
      <p role="status" className="rounded-md border border-stone-300 bg-stone-50 p-3 text-sm text-stone-800">
        <strong className="block font-semibold">This club is full</strong>
        It has reached its limit of {limit} members, so nobody can join until someone leaves.
      </p>
      {signedIn ? (
        <Link to={`/clubs/${clubId}`} className="btn-primary w-full">
          View Club
        </Link>
      ) : (
        <div className="flex flex-col items-center gap-3">
          <Link to={signInHref(null, "register")} className="btn-primary w-full" onClick={forgetInvite}>
            Sign up without joining
          </Link>
          <Link to={signInHref(`/join/${code}`)} className="tap text-sm font-medium text-field-700 hover:underline">
            Already have an account? Sign In
          </Link>
        </div>
      )}
    </div>
  );
}

function forgetInvite() {
  window.sessionStorage.removeItem("inviteCode");
  window.sessionStorage.removeItem("inviteClub");
}

/** The register page joins this club however the visitor reaches it, and names it ("You're joining …"). */
function storeInvite(code: string, club: string) {
  window.sessionStorage.setItem("inviteCode", code);
  window.sessionStorage.setItem("inviteClub", club);
}

/** Signed in: join by POST, sent once on load when JavaScript runs; the button is the fallback. */
function JoinNow() {
  const actionData = useActionData<typeof action>();
  const submit = useSubmit();
  const started = useRef(false);
  const busy = useIsPending({ intent: "join" });
  const error = actionData && "error" in actionData ? actionData.error : null;

  useEffect(() => {
    if (started.current || error) return;
    started.current = true;
    void submit({ intent: "join" }, { method: "post" });
  }, [error, submit]);

  return (
    <div className="space-y-4">
      {error ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <Form method="post">
        <button type="submit" name="intent" value="join" className="btn-primary w-full" disabled={busy}>
          {busy ? "Joining..." : "Join Club"}
        </button>
      </Form>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = withUnreadTitle<typeof loader>(({ data }) =>
  data?.invite ? pageMeta(`Join ${data.invite.club.name}`, `You are invited to join ${data.invite.club.name}.`) : pageMeta(INVALID_TITLE),
);

export const ErrorBoundary = GeneralErrorBoundary;

import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "react-router";
import type { MouseEvent } from "react";
import { CopyButton } from "~/components/ui/copy-button";
import { lazyPagePart } from "~/components/ui/lazy-page-part";
import { PageFormUnavailable } from "~/components/ui/page-form-unavailable";
import { APP_NAME } from "~/utils/brand";
import { InviteTerms } from "./invite-terms";
import type { ClubInvite } from "~/schemas/shapes";
import { importAgain } from "~/utils/import-again";

export type ClubRef = { id: number; name: string };
type InviteFormProps = { club: ClubRef; lastResult: SubmissionResult<string[]> | undefined };

/**
 * SPEC.md §5 Invite form. Its code (Conform) is not part of the tab's first load: hydration keeps the
 * server's form, which posts without it, until it arrives (docs/decisions/0046).
 */
export const InviteForm = lazyPagePart<InviteFormProps>(
  importAgain(
    () => import("./invite-form"),
    (m) => m.InviteForm,
  ),
  PageFormUnavailable,
);

/** The club's active invites, each with its link and terms, and Revoke for whoever may. */
export function InviteList({ club, invites, origin }: { club: ClubRef; invites: ClubInvite[]; origin: string }) {
  return (
    <section aria-labelledby="active-invites" className="space-y-3">
      <h2 id="active-invites" className="text-lg font-bold text-bark-900">
        Active invites
      </h2>
      {invites.length === 0 ? (
        <p className="text-sm text-stone-600">No active invites. Generate one above.</p>
      ) : (
        <ul className="card divide-y divide-stone-100">
          {invites.map((invite) => (
            <li key={invite.id} className="flex flex-wrap items-center gap-3 p-4" data-testid="active-invite">
              <div className="min-w-0 flex-1">
                <p className="truncate font-mono text-sm text-bark-900">
                  {origin}/join/{invite.inviteCode}
                </p>
                <p className="text-xs text-stone-500">
                  <InviteTerms invite={invite} /> · by {invite.createdBy.displayName}
                </p>
              </div>
              {invite.canRevoke ? (
                <Form method="post" action={`/clubs/${club.id}/invites`} preventScrollReset>
                  <input type="hidden" name="inviteId" value={invite.id} />
                  <button type="submit" name="intent" value="revoke" className="btn-ghost text-red-700">
                    Revoke
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The link just made: copy it (JavaScript) or select it (without), share it with the device's
 * share sheet, falling back to a link that starts a social post. 'Generate New' resets the view.
 */
export function GeneratedInvite({ club, invite, origin }: { club: ClubRef; invite: ClubInvite; origin: string }) {
  const link = `${origin}/join/${invite.inviteCode}`;
  const text = `Join ${club.name} on ${APP_NAME}`;
  const socialHref = `https://twitter.com/intent/tweet?${new URLSearchParams({ text, url: link })}`;

  const share = (event: MouseEvent<HTMLAnchorElement>) => {
    if (typeof navigator.share !== "function") return; // the social-post link opens instead
    event.preventDefault();
    navigator.share({ title: club.name, text, url: link }).catch(() => undefined);
  };

  return (
    <section className="card space-y-4 p-5" aria-labelledby="generated-title" data-testid="generated-invite">
      <h2 id="generated-title" className="text-lg font-bold text-bark-900">
        Invite link ready
      </h2>
      <div>
        <label htmlFor="invite-link" className="label">
          Invite link
        </label>
        <div className="flex gap-2">
          <input id="invite-link" readOnly value={link} className="input font-mono" onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={link} copied={{ title: "Link copied", description: "The invite link is on your clipboard." }} />
        </div>
        <p className="mt-1 text-xs text-stone-500">
          <InviteTerms invite={invite} />
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <a href={socialHref} target="_blank" rel="noopener noreferrer" onClick={share} className="btn-primary">
          Share
        </a>
        <Link to={`/clubs/${club.id}/invites`} className="btn-secondary" preventScrollReset>
          Generate New
        </Link>
      </div>
    </section>
  );
}

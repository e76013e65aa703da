import { Form, Link } from "react-router";
import { useDialogForm } from "~/components/ui/dialog-form-state";
import { PeopleIcon, PinIcon, PrivacyIcon } from "~/components/ui/icons";
import { useIsPending } from "~/utils/remix";
import type { Club } from "~/schemas/shapes";
import { ClubImage } from "./image";
import { ClubJoinDialog } from "./join-dialog";
import { isClubFull, memberCountText } from "./member-count";

/**
 * SPEC.md §2 club card. The button follows the caller's state: View Club (member), Request Pending
 * (disabled), Club full (disabled), Re-apply (after a rejection), Request to Join (private: the club
 * page's message dialog in place with JavaScript, its inline form on the club page without) or Join Club (public: a plain form post to the club page, which works without
 * JavaScript). A visitor's Request to Join posts at once, which answers with the sign-in notice.
 */
export function ClubCard({ club, redirectTo, signedIn }: { club: Club; redirectTo: string; signedIn: boolean }) {
  const joining = useIsPending({ intent: "join", formAction: `/clubs/${club.id}` });
  const join = useDialogForm("join");
  return (
    <article className="card flex flex-col overflow-hidden" data-testid="club-card" aria-labelledby={`club-${club.id}-name`}>
      <Link to={`/clubs/${club.id}`} tabIndex={-1} aria-hidden="true">
        <ClubImage club={club} className="h-32 w-full" />
      </Link>
      <div className="flex flex-1 flex-col p-4">
        <h2 id={`club-${club.id}-name`} className="flex items-center gap-2 text-lg font-bold text-bark-900">
          <Link to={`/clubs/${club.id}`} className="tap-pad truncate hover:underline">
            {club.name}
          </Link>
          <span className="shrink-0 text-stone-500">
            <PrivacyIcon isPrivate={club.isPrivate} />
          </span>
        </h2>
        {club.creator ? <p className="text-xs text-stone-500">by {club.creator.displayName}</p> : null}
        {club.description ? <p className="mt-2 line-clamp-2 text-sm text-stone-700">{club.description}</p> : null}
        <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-stone-600">
          <span data-testid="member-count" className="inline-flex items-center gap-1">
            <PeopleIcon className="h-3.5 w-3.5" /> {memberCountText(club)}
          </span>
          {club.location ? (
            <span className="inline-flex items-center gap-1">
              <PinIcon className="h-3.5 w-3.5" /> {club.location}
            </span>
          ) : null}
        </p>
        {club.tags.length ? (
          <ul className="mt-2 flex flex-wrap gap-1" aria-label="Tags">
            {club.tags.slice(0, 3).map((tag) => (
              <li key={tag} className="badge bg-field-600/10 text-field-700">
                {tag}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="mt-auto pt-4">
          {club.isMember ? (
            <Link to={`/clubs/${club.id}`} className="btn-secondary w-full">
              View Club
            </Link>
          ) : club.requestStatus === "pending" ? (
            <button type="button" className="btn-secondary w-full" disabled>
              Request Pending
            </button>
          ) : isClubFull(club) ? (
            <button type="button" className="btn-secondary w-full" disabled>
              Club full
            </button>
          ) : club.isPrivate && signedIn ? (
            <>
              <Link to={`/clubs/${club.id}?join=1`} {...join.triggerProps} className="btn-primary w-full">
                {club.requestStatus === "rejected" ? "Re-apply" : "Request to Join"}
              </Link>
              <ClubJoinDialog club={club} dialog={join} inline={false} redirectTo={redirectTo} />
            </>
          ) : (
            <Form method="post" action={`/clubs/${club.id}`} preventScrollReset>
              <input type="hidden" name="redirectTo" value={redirectTo} />
              <button type="submit" name="intent" value="join" className="btn-primary w-full" disabled={joining}>
                {joining ? "Joining..." : club.isPrivate ? "Request to Join" : "Join Club"}
              </button>
            </Form>
          )}
        </div>
      </div>
    </article>
  );
}

/** One placeholder card while the list loads (SPEC.md: six of them). */
export function ClubCardSkeleton() {
  return (
    <div className="card animate-pulse overflow-hidden" aria-hidden="true" data-testid="club-skeleton">
      <div className="h-32 bg-stone-200" />
      <div className="space-y-2 p-4">
        <div className="h-5 w-2/3 rounded bg-stone-200" />
        <div className="h-3 w-1/3 rounded bg-stone-200" />
        <div className="h-3 w-full rounded bg-stone-200" />
        <div className="h-3 w-5/6 rounded bg-stone-200" />
        <div className="h-9 w-full rounded bg-stone-200" />
      </div>
    </div>
  );
}

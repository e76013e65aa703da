import { Form, Link } from "react-router";
import { ReportLink } from "~/components/moderation/report";
import { RelativeTime } from "~/components/ui/relative-time";
import type { DialogFormState } from "~/components/ui/dialog-form-state";
import { PeopleIcon, PinIcon, PrivacyIcon } from "~/components/ui/icons";
import { useIsPending } from "~/utils/remix";
import { isClubFull, memberCountText } from "./member-count";
import { ClubImage } from "./image";
import type { Club } from "~/schemas/shapes";

export type ClubDialogs = { join: DialogFormState; edit: DialogFormState; delete: DialogFormState; leave: DialogFormState };

/** The club page's banner: image, name, privacy, creator, age, description, counts, tags and the buttons. */
export function ClubHeader({ club, dialogs, signedIn }: { club: Club; dialogs: ClubDialogs; signedIn: boolean }) {
  return (
    <section className="card overflow-hidden" aria-labelledby="club-name">
      <ClubImage club={club} className="h-32 w-full sm:h-56" />
      <div className="space-y-3 p-5 sm:p-6">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <h1 id="club-name" className="flex items-center gap-2 text-3xl font-bold text-bark-900">
              <span className="break-words">{club.name}</span>
              <span className="text-stone-500">
                <PrivacyIcon isPrivate={club.isPrivate} className="h-6 w-6" />
              </span>
            </h1>
            <p className="text-sm text-stone-600">
              {club.isPrivate ? "Private club" : "Public club"}
              {club.creator ? <> · Created by {club.creator.displayName}</> : null} · <RelativeTime iso={club.createdAt} />
            </p>
          </div>
          <div className="flex flex-col items-end gap-2">
            <ClubButtons club={club} dialogs={dialogs} signedIn={signedIn} />
            {club.userRole === "owner" ? null : <ReportLink type="club" id={club.id} />}
          </div>
        </div>
        {club.description ? <p className="whitespace-pre-line break-words text-stone-800">{club.description}</p> : null}
        <p className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-stone-600">
          <span data-testid="club-member-count" className="inline-flex items-center gap-1">
            <PeopleIcon /> {memberCountText(club)}
          </span>
          {club.location ? (
            <span className="inline-flex items-center gap-1">
              <PinIcon /> {club.location}
            </span>
          ) : null}
        </p>
        {club.tags.length ? (
          <ul className="flex flex-wrap gap-1" aria-label="Tags">
            {club.tags.map((tag) => (
              <li key={tag} className="badge bg-field-600/10 text-field-700">
                {tag}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </section>
  );
}

/**
 * SPEC.md §2 buttons by state: owner / member / pending / everyone else. The dialogs' triggers are
 * links to their no-JavaScript twins (`?edit=1`, `?delete=1`, `?join=1`, `?leave=1`). Leaving asks first
 * (issue 14, beyond SPEC #2): from a private club it means requesting to join again and waiting.
 */
function ClubButtons({ club, dialogs, signedIn }: { club: Club; dialogs: ClubDialogs; signedIn: boolean }) {
  const here = `/clubs/${club.id}`;

  if (club.userRole === "owner") {
    return (
      <div className="flex gap-2">
        <Link to={`${here}?edit=1`} {...dialogs.edit.triggerProps} className="btn-secondary" preventScrollReset>
          Edit Club
        </Link>
        <Link to={`${here}?delete=1`} {...dialogs.delete.triggerProps} className="btn-danger" preventScrollReset>
          Delete Club
        </Link>
      </div>
    );
  }
  if (club.isMember) {
    return (
      <Link to={`${here}?leave=1`} {...dialogs.leave.triggerProps} className="btn-secondary" preventScrollReset>
        Leave Club
      </Link>
    );
  }
  if (club.requestStatus === "pending") {
    return (
      <button type="button" className="btn-secondary" disabled>
        Request Pending
      </button>
    );
  }
  if (isClubFull(club)) {
    return (
      <button type="button" className="btn-secondary" disabled>
        Club full
      </button>
    );
  }
  // A visitor is told to sign in before writing a request (SPEC.md §8 sign-in notice on join): the
  // button posts the join at once, which answers with the sign-in page and brings them back here.
  if (club.isPrivate && signedIn) {
    return (
      <Link to={`${here}?join=1`} {...dialogs.join.triggerProps} className="btn-primary" preventScrollReset>
        {club.requestStatus === "rejected" ? "Re-apply" : "Request to Join"}
      </Link>
    );
  }
  const label = club.isPrivate ? "Request to Join" : "Join Club";
  return <IntentButton action={here} intent="join" label={label} busyLabel="Joining..." className="btn-primary" />;
}

/** A form that is one button: posts its intent, and says so while it is on its way. */
function IntentButton({
  action,
  intent,
  label,
  busyLabel,
  className,
}: {
  action: string;
  intent: string;
  label: string;
  busyLabel: string;
  className: string;
}) {
  const busy = useIsPending({ intent });
  return (
    <Form method="post" action={action} preventScrollReset>
      <button type="submit" name="intent" value={intent} className={className} disabled={busy}>
        {busy ? busyLabel : label}
      </button>
    </Form>
  );
}

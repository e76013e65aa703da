import { Form, Link, useLoaderData, useNavigation } from "react-router";
import { RelativeTime } from "~/components/ui/relative-time";
import { Avatar } from "~/components/ui/avatar";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import type { clubMembersLoader as loader } from "../club-pages.server";

export { clubMembersLoader as loader, clubPageAction as action } from "../club-pages.server";

type Member = ReturnType<typeof useLoaderData<typeof loader>>["members"][number];
type ClubRole = Member["role"];

/** What the viewer may do to this member (CONTRACT.md §8 "Club staff"). */
function staffPowers(viewerRole: ClubRole | null, viewerId: number | null, m: Member) {
  const staff = viewerRole === "owner" || viewerRole === "admin";
  return {
    setRole: viewerRole === "owner" && m.role !== "owner",
    remove: staff && m.role !== "owner" && m.id !== viewerId && (viewerRole === "owner" || m.role !== "admin"),
  };
}

export default function ClubMembersTab() {
  const { clubId, members, viewerId, viewerRole, confirmRemove } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className="space-y-4">
      {confirmRemove && staffPowers(viewerRole, viewerId, confirmRemove).remove ? (
        <ConfirmRemove clubId={clubId} member={confirmRemove} busy={busy} />
      ) : null}
      <ul className="card divide-y divide-stone-100" aria-label="Members">
        {members.map((m) => {
          const can = staffPowers(viewerRole, viewerId, m);
          return (
            <li key={m.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center" data-testid="club-member">
              <div className="flex min-w-0 flex-1 items-center gap-3">
                <Avatar src={m.avatar} name={m.displayName} size={40} />
                <div className="min-w-0 flex-1">
                  <p className="flex items-center gap-2">
                    <Link to={`/profile/${m.username}`} className="tap-pad truncate font-semibold text-bark-900 hover:underline">
                      {m.displayName}
                    </Link>
                    {m.role === "owner" ? <span className="badge bg-blaze-500/10 text-blaze-600">Owner</span> : null}
                    {m.role === "admin" ? <span className="badge bg-field-600/10 text-field-700">Admin</span> : null}
                  </p>
                  <p className="text-sm text-stone-500">
                    @{m.username} · Joined <RelativeTime iso={m.joinedAt} />
                  </p>
                </div>
              </div>
              {can.setRole || can.remove ? (
                // One layout for every row: on a phone the actions stack (a longer label wrapped one
                // row's Remove under its role button and left another's beside it, ux-3 U16).
                <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
                  {can.setRole ? (
                    <Form method="post" action={`/clubs/${clubId}/members`} preventScrollReset>
                      <input type="hidden" name="username" value={m.username} />
                      <input type="hidden" name="role" value={m.role === "admin" ? "member" : "admin"} />
                      <button
                        type="submit"
                        name="intent"
                        value="set-role"
                        className="btn-secondary"
                        disabled={busy}
                        aria-label={`${m.role === "admin" ? "Remove admin role" : "Make admin"}: ${m.displayName}`}
                      >
                        {m.role === "admin" ? "Remove admin role" : "Make admin"}
                      </button>
                    </Form>
                  ) : null}
                  {can.remove ? (
                    <Link
                      to={`?${new URLSearchParams({ remove: m.username })}`}
                      preventScrollReset
                      className="btn-ghost text-red-700"
                      aria-label={`Remove from club: ${m.displayName}`}
                    >
                      Remove from club
                    </Link>
                  ) : null}
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/**
 * The second step of Remove from club (`?remove=<username>`), the same with JavaScript or without:
 * nothing changes until the member confirms with a post; Cancel goes back to the list.
 */
function ConfirmRemove({ clubId, member, busy }: { clubId: number; member: Member; busy: boolean }) {
  return (
    <section
      role="alertdialog"
      aria-labelledby="confirm-remove-title"
      aria-describedby="confirm-remove-text"
      className="card border border-red-200 p-4"
    >
      <h2 id="confirm-remove-title" className="font-semibold text-bark-900">
        Remove {member.displayName} from the club?
      </h2>
      <p id="confirm-remove-text" className="mt-1 text-sm text-stone-600">
        @{member.username} loses access to the club&apos;s members-only posts. Their posts stay. They can ask to join again.
      </p>
      <Form method="post" action={`/clubs/${clubId}/members`} className="mt-3 flex gap-2">
        <input type="hidden" name="username" value={member.username} />
        <button type="submit" name="intent" value="remove-member" className="btn-primary bg-red-700 hover:bg-red-800" disabled={busy}>
          Remove
        </button>
        <Link to="." preventScrollReset className="btn-secondary">
          Cancel
        </Link>
      </Form>
    </section>
  );
}

// After a send from the club's header that did not arrive (or waits in the outbox), nothing is
// fetched again: with no signal the fetch would fail and the page be reloaded (ADR 0034).
export { shouldRevalidate } from "~/offline/client-action";

export const ErrorBoundary = GeneralErrorBoundary;

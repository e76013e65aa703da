import { Link, useLoaderData } from "@remix-run/react";
import { RelativeTime } from "~/components/ui/relative-time";
import { Avatar } from "~/components/ui/avatar";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import type { clubMembersLoader as loader } from "./clubs.$id/club-pages.server";

export { clubMembersLoader as loader } from "./clubs.$id/club-pages.server";

export default function ClubMembersTab() {
  const { members } = useLoaderData<typeof loader>();
  return (
    <ul className="card divide-y divide-stone-100" aria-label="Members">
      {members.map((m) => (
        <li key={m.id} className="flex items-center gap-3 p-4" data-testid="club-member">
          <Avatar src={m.avatar} name={m.displayName} size={40} />
          <div className="min-w-0 flex-1">
            <p className="flex items-center gap-2">
              <Link to={`/profile/${m.username}`} className="truncate font-semibold text-bark-900 hover:underline">
                {m.displayName}
              </Link>
              {m.role === "owner" ? <span className="badge bg-blaze-500/10 text-blaze-600">Owner</span> : null}
              {m.role === "admin" ? <span className="badge bg-field-600/10 text-field-700">Admin</span> : null}
            </p>
            <p className="text-sm text-stone-500">
              @{m.username} · Joined <RelativeTime iso={m.joinedAt} />
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}

// After a send from the club's header that did not arrive (or waits in the outbox), nothing is
// fetched again: with no signal the fetch would fail and the page be reloaded (ADR 0034).
export { shouldRevalidate } from "~/utils/client-action";

export const ErrorBoundary = GeneralErrorBoundary;

import { Link } from "react-router";
import { Avatar } from "~/components/ui/avatar";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { ProfileErrorPanel, ProfileNotFound } from "./error-panels";
import type { FollowListEntry, Profile } from "~/schemas/shapes";

/**
 * /profile/{username}/followers and /following: the member's header, the two lists as tabs (links),
 * and one keyset page of members with a 'More' link.
 */
export function FollowList({
  profile,
  which,
  users,
  nextCursor,
  firstPage,
}: {
  profile: Pick<Profile, "username" | "displayName" | "avatar" | "followersCount" | "followingCount">;
  which: "followers" | "following";
  users: FollowListEntry[];
  nextCursor: string | null;
  firstPage: boolean;
}) {
  const base = `/profile/${profile.username}`;
  const heading = which === "followers" ? `People following ${profile.displayName}` : `People ${profile.displayName} follows`;
  const empty = which === "followers" ? `No one follows ${profile.displayName} yet.` : `${profile.displayName} isn't following anyone yet.`;
  const tab = (to: "followers" | "following", label: string, count: number) => (
    <Link
      to={`${base}/${to}`}
      aria-current={which === to ? "page" : undefined}
      className={`rounded-md px-3 py-2 text-sm font-semibold ${which === to ? "bg-white shadow" : "text-stone-600 hover:text-stone-900"}`}
    >
      {label} <span className="text-stone-500">{count}</span>
    </Link>
  );

  return (
    <div className="mx-auto max-w-2xl space-y-4">
      <Link to={base} className="flex items-center gap-3 text-bark-900 hover:underline">
        <Avatar src={profile.avatar} name={profile.displayName} size={40} />
        <span>
          <span className="block font-semibold">{profile.displayName}</span>
          <span className="block text-sm text-stone-500">@{profile.username}</span>
        </span>
      </Link>
      <nav className="inline-flex gap-1 rounded-lg bg-stone-100 p-1" aria-label="Followers and following">
        {tab("followers", "Followers", profile.followersCount)}
        {tab("following", "Following", profile.followingCount)}
      </nav>
      <h1 className="sr-only">{heading}</h1>
      {users.length === 0 ? (
        <p className="card p-6 text-center text-stone-600">{firstPage ? empty : "No more members."}</p>
      ) : (
        <ul className="card divide-y divide-stone-100" data-testid="follow-list">
          {users.map((u) => (
            <li key={u.id} className="flex items-start gap-3 p-4">
              <Avatar src={u.avatar} name={u.displayName} size={44} />
              <div className="min-w-0 flex-1">
                <Link to={`/profile/${u.username}`} className="font-semibold text-bark-900 hover:underline">
                  {u.displayName}
                </Link>
                <p className="text-sm text-stone-500">@{u.username}</p>
                {u.bio ? <p className="mt-1 line-clamp-2 text-sm text-stone-700">{u.bio}</p> : null}
              </div>
              {u.isFollowing ? <span className="badge bg-field-600/10 text-field-700">Following</span> : null}
            </li>
          ))}
        </ul>
      )}
      <div className="flex justify-between">
        {firstPage ? (
          <span />
        ) : (
          <Link to={`${base}/${which}`} className="btn-ghost">
            Back to the start
          </Link>
        )}
        {nextCursor ? (
          <Link to={`${base}/${which}?${new URLSearchParams({ cursor: nextCursor })}`} className="btn-secondary">
            More
          </Link>
        ) : null}
      </div>
    </div>
  );
}

/** The ErrorBoundary of both list routes: an unknown member, or a failure loading the list. */
export function FollowListErrorBoundary() {
  const snag = () => (
    <ProfileErrorPanel title="Something went wrong">We hit a snag loading this list. Please try again in a moment.</ProfileErrorPanel>
  );
  return (
    <GeneralErrorBoundary statusHandlers={{ 404: () => <ProfileNotFound /> }} defaultStatusHandler={snag} unexpectedErrorHandler={snag} />
  );
}

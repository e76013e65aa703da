import type { MetaFunction } from "react-router";
import { ReportLink } from "~/components/moderation/report";
import { Form, Link, useActionData, useFetcher, useLoaderData, useLocation, useRouteLoaderData } from "react-router";
import { Suspense, useEffect } from "react";
import { showToast } from "~/components/layout/toaster";
import { PostCard } from "~/components/post/card";
import { ProfileErrorPanel, ProfileNotFound } from "~/components/profile/error-panels";
import { PinIcon } from "~/components/ui/icons";
import { Avatar } from "~/components/ui/avatar";
import { DeleteConfirmForm, DialogForm, FormUnavailable } from "~/components/ui/dialog-form";
import { lazyPart } from "~/components/ui/lazy-part";
import { useDialogForm } from "~/components/ui/dialog-form-state";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { RelativeTime } from "~/components/ui/relative-time";
import { PROFILE_NOT_FOUND } from "~/schemas/messages";
import { atomAlternate, memberFeedPath } from "~/utils/feed-links";
import type { RouteHandle } from "~/root";
import { APP_NAME, pageMeta } from "~/utils/brand";
import { ignoreSearchParams } from "~/utils/remix";
import { useWaiting, WAITING_TEXT } from "~/components/ui/outbox-note";
import { failedToast, keepPageOnFailure } from "~/offline/client-action";
import type { loader, action } from "./profile-actions.server";
import { importAgain } from "~/utils/import-again";
import { withUnreadTitle } from "~/utils/unread-title";

/** The edit form (Conform, the avatar upload) is fetched when it is shown (docs/decisions/0044); if it cannot be, the dialog says so (0045). */
const EditProfileForm = lazyPart(
  importAgain(
    () => import("~/components/profile/edit-form"),
    (m) => m.EditProfileForm,
  ),
  FormUnavailable,
);

/** /profile/{username}: the member, their posts, Follow, and (for the member) Edit Profile. */
export { loader, action } from "./profile-actions.server";
// What its loader or action answers `no-store` (one viewer's own) stays so in its `.data` answer (ADR 0079).
export { keepNoStore as headers } from "~/web/cache-control.server";

/** Opening or closing the edit dialog (?edit=1) needs no new data. */
/** With JavaScript a failed follow or profile edit keeps the page and says so (SPEC.md §8). */
const FOLLOW_INTENTS = ["follow", "unfollow"];

export const clientAction = keepPageOnFailure({
  failed: failedToast(),
  // With no signal a follow waits in the outbox; the button shows it as waiting.
  outbox: { label: (form) => (form.get("intent") === "unfollow" ? "Unfollow" : "Follow") },
});

export const shouldRevalidate = ignoreSearchParams(["edit"]);

/** The member's feed, shown at the page's foot (root's RouteHandle). */
export const handle: RouteHandle = {
  feed: (data) => {
    const profile = (data as { profile?: { username: string } } | undefined)?.profile;
    return profile ? memberFeedPath(profile.username) : null;
  },
};

export default function ProfilePage() {
  const { profile, isOwner, viewerId, posts, nextCursor, firstPage, blocked, cannotFollow } = useLoaderData<typeof loader>();
  // Without JavaScript a refused Follow (the member blocked the viewer since the page opened) comes
  // back as this page with the reason; with it, the button's toast says it.
  const refused = useActionData<typeof action>();
  const location = useLocation();
  const base = `/profile/${profile.username}`;
  const olderHref = nextCursor ? `${base}?${new URLSearchParams({ cursor: nextCursor })}` : null;

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <section className="card p-6" aria-labelledby="profile-name">
        <div className="flex flex-col gap-5 sm:flex-row sm:items-start">
          <Avatar src={profile.avatar} name={profile.displayName} size={96} />
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0">
                <h1 id="profile-name" className="truncate text-2xl font-bold text-bark-900">
                  {profile.displayName}
                </h1>
                <p className="text-stone-500">@{profile.username}</p>
              </div>
              {isOwner ? (
                <EditProfile />
              ) : viewerId === null ? (
                // The same form: its action answers a visitor with sign-in and the "Sign in required" notice.
                <FollowButton username={profile.username} following={false} visitor />
              ) : blocked ? null : cannotFollow ? (
                <p className="text-sm text-stone-600" data-testid="blocked-by-note">
                  {cannotFollow}
                </p>
              ) : (
                <FollowButton username={profile.username} following={profile.isFollowing} />
              )}
            </div>
            {refused && "error" in refused ? (
              <p role="alert" className="mt-2 text-sm text-red-700">
                {refused.error}
              </p>
            ) : null}
            <StaffLink username={profile.username} />
            {isOwner ? null : (
              <ReportLink type="user" id={profile.id} className="tap mt-1 inline-block text-sm text-stone-500 hover:underline" />
            )}
            {isOwner || viewerId === null ? null : <BlockControl />}
            {profile.bio ? <p className="mt-3 whitespace-pre-line break-words text-stone-800">{profile.bio}</p> : null}
            <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-stone-500">
              {profile.location ? (
                <span className="inline-flex items-center gap-1">
                  <PinIcon />
                  {profile.location}
                </span>
              ) : null}
              <span>
                Joined <RelativeTime iso={profile.createdAt} />
              </span>
            </p>
            <FollowCounts />
          </div>
        </div>
      </section>

      <section aria-labelledby="profile-posts" className="space-y-4">
        <h2 id="profile-posts" className="text-lg font-semibold text-bark-900">
          Posts
        </h2>
        {posts.length === 0 ? (
          <p className="card p-6 text-center text-stone-600">
            {blocked
              ? `You blocked ${profile.displayName}: their posts are hidden from you.`
              : firstPage
                ? isOwner
                  ? "You haven't posted anything yet."
                  : `${profile.displayName} hasn't posted anything yet.`
                : "No older posts."}
          </p>
        ) : (
          posts.map((post) => (
            <PostCard key={post.id} post={post} viewerId={viewerId} redirectTo={`${location.pathname}${location.search}`} />
          ))
        )}
        <nav className="flex justify-between" aria-label="Posts pages">
          {firstPage ? (
            <span />
          ) : (
            <Link to={base} className="btn-ghost">
              Newest posts
            </Link>
          )}
          {olderHref ? (
            <Link to={olderHref} className="btn-secondary">
              Older posts
            </Link>
          ) : null}
        </nav>
      </section>
    </div>
  );
}

/** Posts, Followers and Following; the follower count follows the optimistic (or waiting) Follow button. */
function FollowCounts() {
  const { profile, viewerId } = useLoaderData<typeof loader>();
  const fetcher = useFetcher<typeof action>({ key: `follow-${profile.username}` });
  const waiting = useWaiting(`/profile/${profile.username}`, FOLLOW_INTENTS);
  const pending = viewerId === null ? null : (fetcher.formData?.get("intent") ?? waiting?.intent);
  let followers = profile.followersCount;
  if (pending === "follow" && !profile.isFollowing) followers += 1;
  if (pending === "unfollow" && profile.isFollowing) followers = Math.max(0, followers - 1);
  const base = `/profile/${profile.username}`;
  return (
    // One baseline for the three, and a space inside each link on a phone too, where `tap` makes
    // it a flex box that drops the space between the number and its word (ux-3 U14: "0Followers").
    <ul className="mt-4 flex items-baseline gap-6 text-sm" aria-label="Counts">
      <li>
        <strong className="font-semibold text-bark-900" data-testid="posts-count">
          {profile.postsCount}
        </strong>{" "}
        <span className="text-stone-500">Posts</span>
      </li>
      <li>
        <Link to={`${base}/followers`} className="tap gap-1 hover:underline">
          <strong className="font-semibold text-bark-900" data-testid="followers-count">
            {followers}
          </strong>{" "}
          <span className="text-stone-500">Followers</span>
        </Link>
      </li>
      <li>
        <Link to={`${base}/following`} className="tap gap-1 hover:underline">
          <strong className="font-semibold text-bark-900" data-testid="following-count">
            {profile.followingCount}
          </strong>{" "}
          <span className="text-stone-500">Following</span>
        </Link>
      </li>
    </ul>
  );
}

/** A form; with JavaScript the button flips at once (optimistic) and the server's answer settles it. */
function FollowButton({ username, following, visitor = false }: { username: string; following: boolean; visitor?: boolean }) {
  const fetcher = useFetcher<typeof action>({ key: `follow-${username}` });
  // A visitor's Follow is answered with the sign-in page: nothing to show in advance.
  // A follow that waits in the outbox for a signal (ADR 0034) shows as done, marked waiting.
  const waiting = useWaiting(`/profile/${username}`, FOLLOW_INTENTS);
  const pending = visitor ? null : (fetcher.formData?.get("intent") ?? waiting?.intent);
  const shown = pending === "follow" ? true : pending === "unfollow" ? false : following;

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data && "error" in fetcher.data) {
      showToast({ title: "Error", description: fetcher.data.error, type: "error" });
    }
  }, [fetcher.state, fetcher.data]);

  return (
    <fetcher.Form method="post">
      <button
        type="submit"
        name="intent"
        value={shown ? "unfollow" : "follow"}
        aria-pressed={shown}
        className={shown ? "btn-secondary group min-w-28" : "btn-primary min-w-28"}
      >
        {shown ? "Following" : "Follow"}
        {waiting ? <span className="sr-only">, {WAITING_TEXT}</span> : null}
      </button>
      {waiting ? (
        <span className="ml-2 text-xs text-stone-500" data-testid="follow-waiting">
          waiting
        </span>
      ) : null}
    </fetcher.Form>
  );
}

/**
 * Block (CONTRACT.md §8 "Blocks"): a link to ?block=1 whose confirmation shows inline without
 * JavaScript and in a dialog with it; once blocked, Unblock is a plain form.
 */
function BlockControl() {
  const { profile, blocked } = useLoaderData<typeof loader>();
  const dialog = useDialogForm("block");
  const href = `/profile/${profile.username}`;
  if (blocked) {
    return (
      <Form method="post" action={href} className="mt-2 flex flex-wrap items-center gap-3 text-sm">
        <span className="text-stone-700" data-testid="blocked-note">
          You blocked this member.
        </span>
        <button type="submit" name="intent" value="unblock" className="btn-secondary">
          Unblock
        </button>
      </Form>
    );
  }
  return (
    <>
      <Link
        to="?block=1"
        {...dialog.triggerProps}
        preventScrollReset
        className="tap mt-1 ml-4 inline-block text-sm text-stone-500 hover:underline"
        aria-haspopup="dialog"
      >
        Block
      </Link>
      <DialogForm<typeof action>
        dialog={dialog}
        title={`Block ${profile.displayName}?`}
        description="You won't see their posts or comments, follows between you end, and they can't follow you, comment on your posts or notify you. You can unblock them any time in Settings › Privacy."
        role="alertdialog"
        action={href}
        intent="block"
        className="mt-4 w-full basis-full"
      >
        {(form) => <DeleteConfirmForm form={form} intent="block" label="Block" busyLabel="Blocking..." />}
      </DialogForm>
    </>
  );
}

/**
 * 'Edit Profile': a link to ?edit=1, where the page shows the form inline without JavaScript; with
 * it the same form opens in a dialog in place (one DialogForm).
 */
function EditProfile() {
  const { profile } = useLoaderData<typeof loader>();
  const edit = useDialogForm("edit");
  return (
    <>
      <Link to="?edit=1" {...edit.triggerProps} preventScrollReset className="btn-secondary" aria-haspopup="dialog">
        Edit Profile
      </Link>
      <DialogForm<typeof action>
        dialog={edit}
        title="Edit Profile"
        description="Update your photo, display name, bio and location."
        action={`/profile/${profile.username}`}
        intent="update-profile"
        className="mt-4 w-full basis-full"
      >
        {(form) => (
          <Suspense fallback={null}>
            <EditProfileForm
              profile={profile}
              form={form}
              lastResult={form.data && "intent" in form.data && form.data.intent === "update-profile" ? form.data.result : undefined}
            />
          </Suspense>
        )}
      </DialogForm>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = withUnreadTitle<typeof loader>(({ data }) =>
  data
    ? [
        ...pageMeta(
          `${data.profile.displayName} (@${data.profile.username})`,
          data.profile.bio || `${data.profile.displayName} on ${APP_NAME}`,
        ),
        // The member's Atom feed (issue 26).
        atomAlternate(memberFeedPath(data.profile.username), `Posts by ${data.profile.displayName}`),
      ]
    : pageMeta(PROFILE_NOT_FOUND),
);

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{ 404: () => <ProfileNotFound /> }}
      defaultStatusHandler={({ error, message }) => (
        <ProfileErrorPanel title={error.status === 403 ? "Access Denied" : "Something went wrong"}>
          {message ?? "We hit a snag loading this profile. Please try again in a moment."}
        </ProfileErrorPanel>
      )}
      unexpectedErrorHandler={() => (
        <ProfileErrorPanel title="Something went wrong">
          We hit a snag loading this profile. Please try again in a moment.
        </ProfileErrorPanel>
      )}
    />
  );
}

/** Site staff (moderators, admins) get the member's staff page: status, suspend, recent decisions. */
function StaffLink({ username }: { username: string }) {
  const role = useRouteLoaderData<{ user?: { role?: string } | null }>("root")?.user?.role;
  if (role !== "moderator" && role !== "admin") return null;
  return (
    <p className="mt-2 text-sm">
      <Link to={`/moderation/members/${username}`} className="tap font-semibold text-field-700 underline">
        Moderate this member
      </Link>
    </p>
  );
}

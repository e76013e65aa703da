import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  Link,
  useActionData,
  useFetcher,
  useLoaderData,
  useLocation,
  useNavigate,
  useNavigation,
  useRouteError,
  useSearchParams,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { useEffect, useRef } from "react";
import { AvatarUpload } from "~/components/profile/avatar-upload";
import { PostCard } from "~/components/post/card";
import { RelativeTime } from "~/components/post/meta";
import { showToast } from "~/components/layout/toaster";
import { PinIcon } from "~/components/ui/icons";
import { FailureAlert, ProfileFields } from "~/components/profile/fields";
import { Avatar } from "~/components/ui/avatar";
import { ModalDialog } from "~/components/ui/dialog";
import { followUser, unfollowUser } from "~/models/follow.server";
import { listFeed } from "~/models/post.server";
import { getProfile, updateProfile } from "~/models/profile.server";
import { profileSchema } from "~/schemas/profile";
import { handleAvatarUpload, isMultipart } from "~/web/avatar-upload.server";
import { APP_NAME } from "~/utils/brand";
import { isAppError } from "~/utils/errors";
import { useHydrated } from "~/utils/hydrated";
import { pageAction } from "~/web/page-action";
import { replyWithError } from "~/web/page-errors.server";
import { isScriptRequest } from "~/web/params.server";
import { getSessionUser, loginRedirectUrl } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";

const PAGE_SIZE = 10;

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? [
        { title: `${data.profile.displayName} (@${data.profile.username}) · ${APP_NAME}` },
        { name: "description", content: data.profile.bio ?? `${data.profile.displayName} on ${APP_NAME}` },
      ]
    : [{ title: `Profile Not Found · ${APP_NAME}` }];

/** Domain errors a loader meets (an unknown member) become the ErrorBoundary's status. */
function toResponse(error: unknown): never {
  if (isAppError(error)) throw json({ message: error.message }, { status: error.status });
  throw error;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const actor = await getSessionUser(request);
  const url = new URL(request.url);
  let profile;
  try {
    profile = getProfile(actor, params.username ?? "");
  } catch (error) {
    toResponse(error);
  }
  // One address per member: /profile/RidgeRunner → /profile/ridgerunner.
  if (profile.username !== params.username) {
    throw redirect(`/profile/${encodeURIComponent(profile.username)}${url.search}`);
  }
  const cursor = url.searchParams.get("cursor") ?? undefined;
  const page = await listFeed(actor, { authorId: profile.id, cursor, limit: PAGE_SIZE }).catch(toResponse);
  return json(
    {
      profile,
      viewerId: actor?.id ?? null,
      isOwner: actor?.id === profile.id,
      posts: page.posts,
      nextCursor: page.nextCursor,
      firstPage: !cursor,
      signInUrl: loginRedirectUrl(request),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** Opening or closing the edit dialog (?edit=1) needs no new data. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname) {
    const strip = (u: URL) => {
      const p = new URLSearchParams(u.search);
      p.delete("edit");
      return p.toString();
    };
    if (strip(currentUrl) === strip(nextUrl)) return false;
  }
  return defaultShouldRevalidate;
};

type ActionData =
  | { intent: "update-profile"; result: SubmissionResult<string[]> }
  | { intent: "follow" | "unfollow"; following: boolean; followersCount: number }
  | { error: string; fieldErrors?: Record<string, string[]> };

export const action = pageAction(async ({ request, params }) => {
  const actor = await getSessionUser(request);
  const username = params.username ?? "";
  const profilePath = `/profile/${encodeURIComponent(username)}`;

  // The avatar form is the only multipart one.
  if (isMultipart(request)) return handleAvatarUpload(request, actor, username, `${profilePath}?edit=1`);

  const formData = await request.formData();
  const intent = formData.get("intent");

  if (intent === "follow" || intent === "unfollow") {
    const state = intent === "follow" ? followUser(actor, username) : unfollowUser(actor, username);
    if (isScriptRequest(request)) return json<ActionData>({ intent, ...state });
    const { displayName } = getProfile(actor, username);
    return redirectWithToast(
      profilePath,
      state.following
        ? { title: "Following", description: `You're now following ${displayName}.` }
        : { title: "Unfollowed", description: `You're no longer following ${displayName}.` },
    );
  }

  if (intent === "update-profile") {
    const submission = parseWithZod(formData, { schema: profileSchema });
    if (submission.status !== "success") {
      return json<ActionData>({ intent, result: submission.reply() }, { status: 400 });
    }
    try {
      // Every field is on the form: an emptied bio or location is cleared.
      updateProfile(actor, username, {
        displayName: submission.value.displayName,
        bio: submission.value.bio ?? null,
        location: submission.value.location ?? null,
      });
    } catch (error) {
      const reply = replyWithError(submission, error);
      return json<ActionData>({ intent, result: (await reply.json()) as SubmissionResult<string[]> }, { status: reply.status });
    }
    return redirectWithToast(profilePath, { title: "Profile updated", description: "Your profile has been updated successfully." });
  }

  return json<ActionData>({ error: "Unknown action" }, { status: 400 });
});

export default function ProfilePage() {
  const { profile, isOwner, viewerId, posts, nextCursor, firstPage, signInUrl } = useLoaderData<typeof loader>();
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
                <Link to={signInUrl} className="btn-primary">
                  Follow
                </Link>
              ) : (
                <FollowButton username={profile.username} following={profile.isFollowing} />
              )}
            </div>
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
            {firstPage ? (isOwner ? "You haven't posted anything yet." : `${profile.displayName} hasn't posted anything yet.`) : "No older posts."}
          </p>
        ) : (
          posts.map((post) => <PostCard key={post.id} post={post} viewerId={viewerId} redirectTo={`${location.pathname}${location.search}`} />)
        )}
        <nav className="flex justify-between" aria-label="Posts pages">
          {firstPage ? <span /> : (
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

/** Posts, Followers and Following; the follower count follows the optimistic Follow button. */
function FollowCounts() {
  const { profile } = useLoaderData<typeof loader>();
  const fetcher = useFetcher<ActionData>({ key: `follow-${profile.username}` });
  const pending = fetcher.formData?.get("intent");
  let followers = profile.followersCount;
  if (pending === "follow" && !profile.isFollowing) followers += 1;
  if (pending === "unfollow" && profile.isFollowing) followers = Math.max(0, followers - 1);
  const base = `/profile/${profile.username}`;
  return (
    <ul className="mt-4 flex gap-6 text-sm" aria-label="Counts">
      <li>
        <strong className="font-semibold text-bark-900" data-testid="posts-count">
          {profile.postsCount}
        </strong>{" "}
        <span className="text-stone-500">Posts</span>
      </li>
      <li>
        <Link to={`${base}/followers`} className="hover:underline">
          <strong className="font-semibold text-bark-900" data-testid="followers-count">
            {followers}
          </strong>{" "}
          <span className="text-stone-500">Followers</span>
        </Link>
      </li>
      <li>
        <Link to={`${base}/following`} className="hover:underline">
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
function FollowButton({ username, following }: { username: string; following: boolean }) {
  const fetcher = useFetcher<ActionData>({ key: `follow-${username}` });
  const pending = fetcher.formData?.get("intent");
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
      </button>
    </fetcher.Form>
  );
}

/**
 * 'Edit Profile': a link to ?edit=1. Without JavaScript that page shows the form inline; with it the
 * same form opens in a Radix dialog, and closing it goes back to the plain profile URL.
 */
function EditProfile() {
  const { profile } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const triggerRef = useRef<HTMLAnchorElement>(null);
  const open = params.get("edit") === "1";
  const closedHref = `/profile/${profile.username}`;

  return (
    <>
      <Link ref={triggerRef} to="?edit=1" preventScrollReset className="btn-secondary" aria-haspopup="dialog">
        Edit Profile
      </Link>
      {!open ? null : hydrated ? (
        <ModalDialog
          open
          onClose={() => navigate(closedHref, { replace: true, preventScrollReset: true })}
          title="Edit Profile"
          description="Update your photo, display name, bio and location."
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            triggerRef.current?.focus();
          }}
        >
          <EditProfileForm cancelHref={closedHref} />
        </ModalDialog>
      ) : (
        <section aria-labelledby="edit-profile-title" className="card mt-4 w-full basis-full p-5">
          <h2 id="edit-profile-title" className="text-xl font-bold text-bark-900">
            Edit Profile
          </h2>
          <div className="mt-4">
            <EditProfileForm cancelHref={closedHref} />
          </div>
        </section>
      )}
    </>
  );
}

function EditProfileForm({ cancelHref }: { cancelHref: string }) {
  const { profile } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const lastResult = actionData && "intent" in actionData && actionData.intent === "update-profile" ? actionData.result : undefined;
  const busy = useNavigation().formData?.get("intent") === "update-profile";
  const [form, fields] = useForm({
    id: "edit-profile",
    lastResult,
    defaultValue: { displayName: profile.displayName, bio: profile.bio ?? "", location: profile.location ?? "" },
    constraint: getZodConstraint(profileSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profileSchema }),
  });
  return (
    <div className="space-y-4">
      <div className="flex items-center gap-4">
        <div className="relative">
          <Avatar src={profile.avatar} name={profile.displayName} size={72} />
          <div className="absolute -bottom-1 -right-1">
            <AvatarUpload action={`/profile/${profile.username}`} returnTo={`/profile/${profile.username}?edit=1`} label="Change photo" />
          </div>
        </div>
        <p className="text-sm text-stone-500">JPEG, PNG, WebP or GIF, up to 50MB. Location data is removed.</p>
      </div>

      <Form method="post" action={`/profile/${profile.username}?edit=1`} {...getFormProps(form)} className="space-y-4">
        <FailureAlert title="Failed to update profile" result={lastResult} message={form.errors?.[0]} />
        <ProfileFields fields={fields} />
        <div className="flex justify-end gap-2">
          <Link to={cancelHref} replace preventScrollReset className="btn-ghost">
            Cancel
          </Link>
          <button type="submit" name="intent" value="update-profile" className="btn-primary" disabled={busy}>
            {busy ? "Saving..." : "Save Changes"}
          </button>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error) ? (error.data as { message?: string } | null)?.message : undefined;
  return (
    <div className="card mx-auto mt-10 max-w-lg p-8 text-center">
      <h1 className="text-2xl font-bold text-bark-900">
        {status === 404 ? "Profile Not Found" : status === 403 ? "Access Denied" : "Something went wrong"}
      </h1>
      <p className="mt-3 text-stone-600">
        {status === 404
          ? "The member you're looking for doesn't exist."
          : message ?? "We hit a snag loading this profile. Please try again in a moment."}
      </p>
      <Link to="/" className="btn-primary mt-6">
        Back to the feed
      </Link>
    </div>
  );
}

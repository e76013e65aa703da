import { json, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { FollowList } from "~/components/follow-list";
import { listFollowers } from "~/models/follow.server";
import { getProfile } from "~/models/profile.server";
import { APP_NAME } from "~/utils/brand";
import { isAppError } from "~/utils/errors";
import { getSessionUser } from "~/utils/session.server";

/** /profile/{username}/followers (outside the profile page's layout: the file name ends the segment with _). */
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Followers · ${data.profile.displayName} · ${APP_NAME}` : `Profile Not Found · ${APP_NAME}` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const actor = await getSessionUser(request);
  const url = new URL(request.url);
  try {
    const profile = getProfile(actor, params.username ?? "");
    if (profile.username !== params.username) {
      throw redirect(`/profile/${encodeURIComponent(profile.username)}/followers${url.search}`);
    }
    const cursor = url.searchParams.get("cursor");
    const page = listFollowers(actor, profile.username, { cursor });
    return json({ profile, ...page, firstPage: !cursor }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    if (isAppError(error)) throw json({ message: error.message }, { status: error.status });
    throw error;
  }
}

export default function FollowersPage() {
  const { profile, users, nextCursor, firstPage } = useLoaderData<typeof loader>();
  return <FollowList profile={profile} which="followers" users={users} nextCursor={nextCursor} firstPage={firstPage} />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div className="card mx-auto mt-10 max-w-lg p-8 text-center">
      <h1 className="text-2xl font-bold text-bark-900">{notFound ? "Profile Not Found" : "Something went wrong"}</h1>
      <p className="mt-3 text-stone-600">
        {notFound ? "The member you're looking for doesn't exist." : "We hit a snag loading this list. Please try again in a moment."}
      </p>
      <Link to="/" className="btn-primary mt-6">
        Back to the feed
      </Link>
    </div>
  );
}

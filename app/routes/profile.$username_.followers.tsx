import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { FollowList, FollowListErrorBoundary } from "~/components/profile/follow-list";
import { PROFILE_NOT_FOUND } from "~/schemas/messages";
import { APP_NAME } from "~/utils/brand";
import { loadFollowList } from "~/web/follow-list.server";

/** /profile/{username}/followers (outside the profile page's layout: the file name ends the segment with _). */
export async function loader(args: LoaderFunctionArgs) {
  return loadFollowList(args, "followers");
}

export default function FollowersPage() {
  const { profile, users, nextCursor, firstPage } = useLoaderData<typeof loader>();
  return <FollowList profile={profile} which="followers" users={users} nextCursor={nextCursor} firstPage={firstPage} />;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Followers · ${data.profile.displayName} · ${APP_NAME}` : `${PROFILE_NOT_FOUND} · ${APP_NAME}` },
];

export const ErrorBoundary = FollowListErrorBoundary;

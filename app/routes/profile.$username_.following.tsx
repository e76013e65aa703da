import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { FollowList, FollowListErrorBoundary } from "~/components/profile/follow-list";
import { PROFILE_NOT_FOUND } from "~/schemas/messages";
import { APP_NAME } from "~/utils/brand";
import { loadFollowList } from "~/web/follow-list.server";

/** /profile/{username}/following (outside the profile page's layout: the file name ends the segment with _). */
export async function loader(args: LoaderFunctionArgs) {
  return loadFollowList(args, "following");
}

export default function FollowingPage() {
  const { profile, users, nextCursor, firstPage } = useLoaderData<typeof loader>();
  return <FollowList profile={profile} which="following" users={users} nextCursor={nextCursor} firstPage={firstPage} />;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Following · ${data.profile.displayName} · ${APP_NAME}` : `${PROFILE_NOT_FOUND} · ${APP_NAME}` },
];

export const ErrorBoundary = FollowListErrorBoundary;

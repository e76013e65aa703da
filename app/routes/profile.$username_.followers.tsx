import type { LoaderFunctionArgs, MetaFunction } from "react-router";
import { useLoaderData } from "react-router";
import { FollowList, FollowListErrorBoundary } from "~/components/profile/follow-list";
import { PROFILE_NOT_FOUND } from "~/schemas/messages";
import { pageMeta } from "~/utils/brand";
import { loadFollowList } from "~/web/follow-list.server";
import { withUnreadTitle } from "~/utils/unread-title";

/** /profile/{username}/followers (outside the profile page's layout: the file name ends the segment with _). */
export async function loader(args: LoaderFunctionArgs) {
  return loadFollowList(args, "followers");
}
// What its loader or action answers `no-store` (one viewer's own) stays so in its `.data` answer (ADR 0079).
export { keepNoStore as headers } from "~/web/cache-control.server";

export default function FollowersPage() {
  const { profile, users, nextCursor, firstPage } = useLoaderData<typeof loader>();
  return <FollowList profile={profile} which="followers" users={users} nextCursor={nextCursor} firstPage={firstPage} />;
}

export const meta: MetaFunction<typeof loader> = withUnreadTitle<typeof loader>(({ data }) =>
  data
    ? pageMeta(`Followers · ${data.profile.displayName}`, `Hunters who follow ${data.profile.displayName}.`)
    : pageMeta(PROFILE_NOT_FOUND),
);

export const ErrorBoundary = FollowListErrorBoundary;

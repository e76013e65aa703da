import { data, type LoaderFunctionArgs, redirect } from "react-router";
import { listFollowers, listFollowing } from "~/models/members/follow.server";
import { getProfile } from "~/models/members/profile.server";
import { NO_STORE } from "./cache-control.server";
import { withLoaderErrors } from "./page-errors.server";
import { getSessionUser } from "./session.server";

/**
 * The loader of /profile/{username}/followers and /following: the member (a differently cased
 * username redirects to the stored spelling) and one keyset page of the chosen list.
 */
export async function loadFollowList({ request, params }: LoaderFunctionArgs, which: "followers" | "following") {
  const actor = await getSessionUser(request);
  const url = new URL(request.url);
  return withLoaderErrors(request, async () => {
    const profile = await getProfile(actor, params.username ?? "");
    if (profile.username !== params.username) {
      throw redirect(`/profile/${encodeURIComponent(profile.username)}/${which}${url.search}`);
    }
    const cursor = url.searchParams.get("cursor");
    const list = which === "followers" ? listFollowers : listFollowing;
    const page = await list(actor, profile.username, { cursor });
    return data({ profile, ...page, firstPage: !cursor }, "email" in profile ? NO_STORE : undefined);
  });
}

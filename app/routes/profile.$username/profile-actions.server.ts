import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from "react-router";
import { BLOCK_MESSAGES, blockMember, unblockMember, viewerBlocked, viewerBlockedBy } from "~/models/members/block.server";
import { followUser, unfollowUser } from "~/models/members/follow.server";
import { listFeed } from "~/models/feeds/feed.server";
import { getProfile, updateAvatar, updateProfile } from "~/models/members/profile.server";
import type { Actor } from "~/models/members/user.server";
import { profileSchema } from "~/schemas/profile";
import { safeRedirect } from "~/schemas/auth";
import { badRequest } from "~/utils/errors";
import { handleAvatarUpload, isMultipart } from "~/web/avatar-upload.server";
import { NO_STORE } from "~/web/cache-control.server";
import { formReply, withLoaderErrors, withPageErrors } from "~/web/page-errors.server";
import { isScriptRequest } from "~/web/params.server";
import { getSessionUser } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";
import { readFormData } from "~/web/request-body.server";

/** The server half of /profile/{username} (route.tsx): its data and one function per form intent. */

const PAGE_SIZE = 10;

/** The member, one page of their posts (newest first, keyset `cursor`), and what the viewer may do. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const actor = await getSessionUser(request);
  const url = new URL(request.url);
  return withLoaderErrors(request, async () => {
    const profile = await getProfile(actor, params.username ?? "");
    // One address per member: /profile/RidgeRunner → /profile/ridgerunner.
    if (profile.username !== params.username) {
      throw redirect(`/profile/${encodeURIComponent(profile.username)}${url.search}`);
    }
    const cursor = url.searchParams.get("cursor") ?? undefined;
    const page = await listFeed(actor, { authorId: profile.id, cursor, limit: PAGE_SIZE });
    return data(
      {
        profile,
        viewerId: actor?.id ?? null,
        isOwner: actor?.id === profile.id,
        blocked: await viewerBlocked(actor, profile.id),
        // They blocked the viewer: no Follow that cannot work, and why (ux-3 U3).
        cannotFollow: (await viewerBlockedBy(actor, profile.id)) ? BLOCK_MESSAGES.followBlocker : null,
        posts: page.posts,
        nextCursor: page.nextCursor,
        firstPage: !cursor,
      },
      "email" in profile ? NO_STORE : undefined,
    );
  });
}

export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, profileAction);
}

/** The profile page's forms: the avatar (the only multipart one), Follow / Unfollow, Edit Profile. */
export async function profileAction({ request, params }: ActionFunctionArgs) {
  const actor = await getSessionUser(request);
  const username = params.username ?? "";
  if (isMultipart(request)) return handleAvatarUpload(request, actor, username, `${profilePath(username)}?edit=1`);

  const formData = await readFormData(request);
  const intent = formData.get("intent");
  switch (intent) {
    case "follow":
    case "unfollow":
      return followAction(request, actor, username, intent);
    case "block":
    case "unblock":
      return blockAction(actor, username, intent);
    case "update-profile":
      return updateProfileAction(actor, username, formData);
    case "remove-avatar":
      return removeAvatarAction(actor, username, formData);
    default:
      throw badRequest("Unknown action");
  }
}

const profilePath = (username: string) => `/profile/${encodeURIComponent(username)}`;

async function followAction(request: Request, actor: Actor, username: string, intent: "follow" | "unfollow") {
  const state = intent === "follow" ? await followUser(actor, username) : await unfollowUser(actor, username);
  if (isScriptRequest(request)) return data({ intent, ...state });
  const { displayName } = await getProfile(actor, username);
  return redirectWithToast(
    profilePath(username),
    state.following
      ? { title: "Following", description: `You're now following ${displayName}.` }
      : { title: "Unfollowed", description: `You're no longer following ${displayName}.` },
  );
}

/** Block (confirmed in a dialog, or inline at ?block=1 without JavaScript) and Unblock: back to the profile with a toast. */
async function blockAction(actor: Actor, username: string, intent: "block" | "unblock") {
  const { displayName } = await getProfile(actor, username);
  const state = intent === "block" ? await blockMember(actor, username) : await unblockMember(actor, username);
  return redirectWithToast(
    profilePath(username),
    state.blocked
      ? { title: "Blocked", description: `You blocked ${displayName}. You won't see their posts or comments.` }
      : { title: "Unblocked", description: `You unblocked ${displayName}.` },
  );
}

async function updateProfileAction(actor: Actor, username: string, formData: FormData) {
  const submission = parseWithZod(formData, { schema: profileSchema });
  const reply = { data: { intent: "update-profile" } } as const;
  if (submission.status !== "success") return formReply(submission, reply);
  try {
    // Every field is on the form: an emptied bio or location is cleared.
    await updateProfile(actor, username, {
      displayName: submission.value.displayName,
      bio: submission.value.bio ?? null,
      location: submission.value.location ?? null,
    });
  } catch (error) {
    return formReply(submission, { ...reply, error });
  }
  return redirectWithToast(profilePath(username), { title: "Profile updated", description: "Your profile has been updated successfully." });
}

/** Edit Profile's 'Remove photo' (a plain form): the initial shows again. */
async function removeAvatarAction(actor: Actor, username: string, formData: FormData) {
  await updateAvatar(actor, username, null);
  const returnTo = safeRedirect(formData.get("returnTo"), `${profilePath(username)}?edit=1`);
  return redirectWithToast(returnTo, { title: "Avatar removed", description: "Your profile picture has been removed." });
}

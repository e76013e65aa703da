import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from "react-router";
import { listFeed } from "~/models/feeds/feed.server";
import { countPendingRequests, listJoinRequests, listMembers } from "~/models/clubs/club-membership.server";
import { getClub } from "~/models/clubs/club.server";
import { listInvites } from "~/models/clubs/invite.server";
import { CLUB_NOT_FOUND, CLUB_TABS, type ClubTab } from "~/schemas/club-options";
import { forbidden, isAppError } from "~/utils/errors";
import { NO_STORE } from "~/web/cache-control.server";
import { loaderError, withPageErrors } from "~/web/page-errors.server";
import { idParam, publicOrigin } from "~/web/params.server";
import { publishFromEditor } from "~/web/post-form.server";
import { fieldReportPicker } from "~/web/field-report-picker.server";
import { getSessionUser, requireUser } from "~/web/session.server";
import { clubAction } from "./club-actions.server";
import { clubTabLoader } from "./tab-loader.server";

/**
 * The server side of every club page: the layout (/clubs/{id}), its tabs and the club's post editor
 * (/clubs/{id}/create). Their route modules re-export these, so the browser build meets one server
 * module for all of them, not one tiny stand-in file per server module each imported
 * (docs/decisions/0045).
 */

/**
 * /clubs/{id}: the club, the tab links this viewer sees and the pending count. Old `?tab=members`
 * links are sent to `/clubs/{id}/members`, keeping the rest of the query.
 */
export async function clubLayoutLoader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  try {
    const id = idParam(params.id, CLUB_NOT_FOUND);
    const tab = url.searchParams.get("tab");
    if (tab !== null && /^\/clubs\/[^/]+\/?$/.test(url.pathname)) throw redirect(tabHref(id, tab, url.searchParams));
    const user = await getSessionUser(request);
    const club = await getClub(user, id);
    // The owner and admins decide requests (CONTRACT.md §8 "Club staff").
    const pendingCount = club.userRole === "owner" || club.userRole === "admin" ? await countPendingRequests(id) : 0;
    // The tab links this viewer sees; a tab's own loader guards its data.
    const tabs: ClubTab[] = ["posts"];
    // The club's hunts (issue 44) for whoever may read its posts.
    if (club.isMember || !club.isPrivate) tabs.push("events");
    tabs.push("members");
    if (club.rules) tabs.push("rules");
    if (pendingCount > 0) tabs.push("requests");
    if (club.isMember) tabs.push("invites");
    return data({ club, tabs, pendingCount, viewerId: user?.id ?? null });
  } catch (error) {
    return loaderError(request, error, { notFound: CLUB_NOT_FOUND });
  }
}

function tabHref(id: number, tab: string, search: URLSearchParams): string {
  const rest = new URLSearchParams(search);
  rest.delete("tab");
  const path = (CLUB_TABS as readonly string[]).includes(tab) && tab !== "posts" ? `/clubs/${id}/${tab}` : `/clubs/${id}`;
  const query = rest.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * The header's forms (join, leave, edit, delete) and the tabs' (approve, reject, invite, revoke):
 * one `clubAction`, each page answering for itself.
 */
export async function clubPageAction(args: ActionFunctionArgs) {
  return withPageErrors(args, clubAction);
}

/** /clubs/{id}: the club's posts, newest first (a private club's only for its members). */
export async function clubPostsLoader(args: LoaderFunctionArgs) {
  return clubTabLoader(args, async ({ clubId, user, url }) => {
    try {
      const page = await listFeed(user, { clubId, cursor: url.searchParams.get("cursor") ?? undefined });
      return data({ canSeePosts: true, posts: page.posts, nextCursor: page.nextCursor });
    } catch (error) {
      if (!isAppError(error) || error.status !== 403) throw error;
      return data({ canSeePosts: false, posts: [], nextCursor: null });
    }
  });
}

/**
 * /clubs/{id}/members: everyone may see who belongs, even to a private club (SPEC.md §2). The
 * club's staff also get their buttons (CONTRACT.md §8): the viewer's role, and `?remove=<username>`
 * asks them to confirm a removal (the second step, with JavaScript or without).
 */
export async function clubMembersLoader(args: LoaderFunctionArgs) {
  return clubTabLoader(args, async ({ clubId, user, url }) => {
    const members = await listMembers(clubId);
    const viewerRole = user ? (members.find((m) => m.id === user.id)?.role ?? null) : null;
    const removing = viewerRole === "owner" || viewerRole === "admin" ? url.searchParams.get("remove") : null;
    const confirmRemove = removing ? (members.find((m) => m.username.toLowerCase() === removing.toLowerCase()) ?? null) : null;
    return data({ clubId, members, viewerId: user?.id ?? null, viewerRole, confirmRemove });
  });
}

/** /clubs/{id}/rules: a club without rules has no such tab, so its posts are shown instead. */
export async function clubRulesLoader(args: LoaderFunctionArgs) {
  return clubTabLoader(args, async ({ clubId, user }) => {
    const { rules } = await getClub(user, clubId);
    if (!rules) throw redirect(`/clubs/${clubId}`);
    return data({ rules });
  });
}

/** /clubs/{id}/requests: pending join requests for the owner and admins (anyone else sees the club's posts). */
export async function clubRequestsLoader(args: LoaderFunctionArgs) {
  return clubTabLoader(args, async ({ clubId, user }) => data({ clubId, requests: await listJoinRequests(user, clubId) }));
}

/**
 * /clubs/{id}/invites (members only; anyone else sees the club's posts): the invite form, or the
 * link just made (`?generated=code`), and the active invites with their links.
 */
export async function clubInvitesLoader(args: LoaderFunctionArgs) {
  return clubTabLoader(args, async ({ clubId, user, url, request }) => {
    const invites = await listInvites(user, clubId);
    const { id, name } = await getClub(user, clubId);
    const code = url.searchParams.get("generated");
    const generated = code ? (invites.find((i) => i.inviteCode === code) ?? null) : null;
    return data({ club: { id, name }, invites, generated, origin: publicOrigin(request) }, NO_STORE);
  });
}

/**
 * /clubs/{id}/create (the `_` keeps it out of the club page's layout): members only (visitors go to
 * sign in and come back; others get 403).
 */
export async function clubEditorLoader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const club = await getClub(user, idParam(params.id, CLUB_NOT_FOUND));
    if (!club.isMember) throw forbidden("Only members of this club can post in it.");
    return data({
      club: { id: club.id, name: club.name, imageUrl: club.imageUrl, isPrivate: club.isPrivate },
      fieldPicker: await fieldReportPicker(user),
    });
  } catch (error) {
    return loaderError(request, error, { notFound: CLUB_NOT_FOUND });
  }
}

/** The one create-post use case (createPost checks the membership): 'Post created!' then the club page. */
export async function clubPostAction(args: ActionFunctionArgs) {
  return publishFromEditor(args, (params) => idParam(params.id, CLUB_NOT_FOUND));
}

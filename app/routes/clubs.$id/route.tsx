import type { MetaFunction, useActionData } from "react-router";
import { Link, NavLink, Outlet, useLoaderData, useSearchParams } from "react-router";
import { Suspense, useEffect } from "react";
import { DELETE_CLUB_TEXT, DELETE_CLUB_TITLE, leaveClubText, leaveClubTitle } from "~/components/club/confirm-texts";
import { ClubJoinDialog } from "~/components/club/join-dialog";
import { ClubHeader } from "~/components/club/header";
import { ClubNotFound } from "~/components/club/not-found";
import { DeleteConfirmForm, DialogForm, FormUnavailable } from "~/components/ui/dialog-form";
import { lazyPart } from "~/components/ui/lazy-part";
import { useDialogForm } from "~/components/ui/dialog-form-state";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { CLUB_NOT_FOUND, type ClubTab } from "~/schemas/club-options";
import { pageMeta } from "~/utils/brand";
import { atomAlternate, clubFeedPath } from "~/utils/feed-links";
import type { RouteHandle } from "~/root";
import { ignoreSearchParams } from "~/utils/remix";
import { failedToast, keepPageOnFailure } from "~/offline/client-action";
import type { clubLayoutLoader as loader, clubPageAction as action } from "./club-pages.server";
import { importAgain } from "~/utils/import-again";
import { withUnreadTitle } from "~/utils/unread-title";

/**
 * /clubs/{id}: the club's header, its buttons and dialogs, and the tab links; each tab is a nested
 * route with its own loader, in tabs/ (posts, members, rules, requests, invites), registered by
 * club-routes.ts under the ids of its old flat files (routes/clubs.$id._index, .members …).
 */
export { clubLayoutLoader as loader, clubPageAction as action } from "./club-pages.server";

/**
 * The edit form (Conform, the club fields, tag input, drafts) is fetched when it is shown: the dialog
 * opens, or the page is `?edit=1` (hydration keeps the server's form until the code arrives); when
 * it does not arrive, the dialog says so (docs/decisions/0045).
 */
const EditClubForm = lazyPart(
  importAgain(
    () => import("~/components/club/forms"),
    (m) => m.EditClubForm,
  ),
  FormUnavailable,
);

const TAB_LABELS: Record<ClubTab, string> = {
  posts: "Posts",
  events: "Hunts",
  members: "Members",
  rules: "Rules",
  requests: "Requests",
  invites: "Invites",
};

/** Opening a dialog's no-JavaScript twin (?edit=1, ?join=1, ?delete=1, ?leave=1) changes no data. */
/** With JavaScript a failed join, leave, edit or invite keeps the page and says so (SPEC.md §8). */
export const clientAction = keepPageOnFailure({
  failed: failedToast({ rename: { update: "update-club", delete: "delete-club" } }),
  signIn: (form) =>
    form.get("intent") === "join" ? { title: "Sign in required", description: "Please sign in to join clubs", type: "error" } : null,
  // With no signal a join (or join request) waits in the outbox.
  outbox: { label: () => "Join request" },
});

export const shouldRevalidate = ignoreSearchParams(["edit", "delete", "join", "leave", "joined"]);

/** The Conform reply of one of the header's forms, out of the action's answer. */
function replyTo(data: ReturnType<typeof useActionData<typeof action>>, intent: "update") {
  return data && "intent" in data && data.intent === intent ? data.result : undefined;
}

export default function ClubLayout() {
  const { club, tabs, pendingCount, viewerId } = useLoaderData<typeof loader>();
  const [params, setParams] = useSearchParams();
  const dialogs = {
    join: useDialogForm("join"),
    edit: useDialogForm("edit"),
    delete: useDialogForm("delete"),
    leave: useDialogForm("leave"),
  };
  const here = `/clubs/${club.id}`;
  const isOwner = club.userRole === "owner";
  const mayJoin = viewerId !== null && !club.isMember && club.requestStatus !== "pending";

  // After registering through an invite the stored code has done its job (SPEC.md §4 Auth).
  useEffect(() => {
    if (!params.has("joined")) return;
    window.sessionStorage.removeItem("inviteCode");
    window.sessionStorage.removeItem("inviteClub");
    setParams(
      (prev) => {
        prev.delete("joined");
        return prev;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [params, setParams]);

  return (
    <div className="space-y-6">
      <Link to="/clubs" className="tap-pad inline-flex items-center gap-1 text-sm font-medium text-field-700 hover:underline">
        ← All clubs
      </Link>

      <ClubHeader club={club} dialogs={dialogs} signedIn={viewerId !== null} />

      {isOwner ? (
        <>
          <DialogForm<typeof action>
            dialog={dialogs.delete}
            title={DELETE_CLUB_TITLE}
            description={DELETE_CLUB_TEXT}
            role="alertdialog"
            action={here}
            intent="delete"
          >
            {(form) => <DeleteConfirmForm form={form} />}
          </DialogForm>
          <DialogForm<typeof action>
            dialog={dialogs.edit}
            title="Edit Club"
            description="Change the club's details and save them."
            action={here}
            intent="update"
          >
            {(form) => (
              <Suspense fallback={null}>
                <EditClubForm club={club} form={form} lastResult={replyTo(form.data, "update")} />
              </Suspense>
            )}
          </DialogForm>
        </>
      ) : null}
      {club.isMember && !isOwner ? (
        <DialogForm<typeof action>
          dialog={dialogs.leave}
          title={leaveClubTitle(club)}
          description={leaveClubText(club)}
          role="alertdialog"
          action={here}
          intent="leave"
        >
          {(form) => <DeleteConfirmForm form={form} intent="leave" label="Leave Club" busyLabel="Leaving..." />}
        </DialogForm>
      ) : null}
      {mayJoin ? <ClubJoinDialog club={club} dialog={dialogs.join} /> : null}

      <div className="space-y-4">
        {/* The tabs wrap on a phone rather than scroll out of sight (issue 14 #25); each row, 44 px
            like each tab, has the rule under it (a line repeated every 2.75rem, audit ux-2 N14). */}
        <nav
          aria-label="Club sections"
          className="flex flex-wrap gap-x-1 bg-[linear-gradient(to_top,theme(colors.stone.200)_1px,transparent_1px)] bg-[length:100%_2.75rem]"
        >
          {tabs.map((t) => (
            <NavLink
              key={t}
              to={t === "posts" ? here : `${here}/${t}`}
              end
              preventScrollReset
              className={({ isActive }) =>
                `inline-flex h-11 items-center whitespace-nowrap border-b-2 px-3 text-sm font-semibold sm:px-4 ${
                  isActive ? "border-blaze-500 text-bark-900" : "border-transparent text-stone-600 hover:text-stone-900"
                }`
              }
            >
              {TAB_LABELS[t]}
              {t === "requests" ? ` (${pendingCount})` : null}
            </NavLink>
          ))}
        </nav>
        <Outlet />
      </div>
    </div>
  );
}

/**
 * A public club names its Atom feed (issue 26). A private club's feed needs a member's personal
 * token, which stays in Settings › Notifications rather than in every page's HTML.
 */
/** A public club's feed, shown at the page's foot (root's RouteHandle); a private one's is each member's own, in Settings. */
export const handle: RouteHandle = {
  feed: (data) => {
    const club = (data as { club?: { id: number; isPrivate: boolean } } | undefined)?.club;
    return club && !club.isPrivate ? clubFeedPath(club.id) : null;
  },
};

export const meta: MetaFunction<typeof loader> = withUnreadTitle<typeof loader>(({ data }) => {
  if (!data) return pageMeta(CLUB_NOT_FOUND);
  const page = pageMeta(data.club.name, data.club.description);
  return data.club.isPrivate ? page : [...page, atomAlternate(clubFeedPath(data.club.id), `Posts in ${data.club.name}`)];
});

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <ClubNotFound /> }} />;
}

import { Link, useFetcher, useFetchers, useLoaderData, useLocation, type MetaFunction } from "react-router";
import type { NotificationItem } from "~/models/notifications/notification.server";
import { UNREAD_CHANGED } from "~/components/layout/notifications-link";
import { Avatar } from "~/components/ui/avatar";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { RelativeTime } from "~/components/ui/relative-time";
import { pageMeta } from "~/utils/brand";
import { useHydrated } from "~/utils/hydrated";
import { signInHref } from "~/utils/urls";
import type { loader } from "./notifications-page.server";
import { withUnreadTitle } from "~/utils/unread-title";

export { loader, action } from "./notifications-page.server";

/**
 * /notifications (CONTRACT.md §7 "Pages", issue 26): newest first, 30 a page ("Older" is a link),
 * each linking to what it is about. "Mark read" and "Mark all read" are plain forms that come back
 * here; with JavaScript they are fetchers and the page shows them read at once.
 */
export default function NotificationsPage() {
  const { signedIn, page, cursor } = useLoaderData<typeof loader>();
  const location = useLocation();
  const readIds = useOptimisticReads();
  if (!signedIn) return <SignInNotice />;
  const items = page.items.map((item) => (readIds === "all" || readIds.has(item.id) ? { ...item, read: true } : item));
  // The server's count decides: the form (and its fetcher) stays until the server has answered.
  const anyUnread = page.unread > 0;
  const here = `/notifications${location.search}`;
  return (
    <div className="mx-auto max-w-2xl">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-bark-900">Notifications</h1>
        {anyUnread ? <MarkAllRead action={here} /> : null}
      </div>
      {items.length === 0 ? (
        <p className="card mt-4 p-8 text-center text-stone-600">
          {cursor
            ? "No older notifications."
            : "Nothing yet. When someone comments on, likes or mentions your posts, you will hear it here."}
        </p>
      ) : (
        <ul className="card mt-4 divide-y divide-stone-100" aria-label="Notifications">
          {items.map((item) => (
            <NotificationRow key={item.id} item={item} action={here} />
          ))}
        </ul>
      )}
      <nav className="mt-4 flex flex-wrap gap-3" aria-label="Pages of notifications">
        {cursor ? (
          <Link to="/notifications" className="btn-secondary inline-flex min-h-11 items-center">
            Newest
          </Link>
        ) : null}
        {page.nextCursor ? (
          <Link
            to={`/notifications?cursor=${encodeURIComponent(page.nextCursor)}`}
            className="btn-secondary inline-flex min-h-11 items-center"
          >
            Older
          </Link>
        ) : null}
      </nav>
    </div>
  );
}

/** What the page's fetchers are marking read right now (optimistic; the server's answer is the truth). */
function useOptimisticReads(): Set<number> | "all" {
  const ids = new Set<number>();
  for (const fetcher of useFetchers()) {
    const intent = fetcher.formData?.get("intent");
    if (intent === "read-all") return "all";
    if (intent === "read") for (const id of fetcher.formData!.getAll("id")) ids.add(Number(id));
  }
  return ids;
}

function MarkAllRead({ action }: { action: string }) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post" action={action}>
      <button type="submit" name="intent" value="read-all" className="btn-secondary min-h-11">
        Mark all read
      </button>
    </fetcher.Form>
  );
}

function NotificationRow({ item, action }: { item: NotificationItem; action: string }) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const actor = item.actors[0];
  // With JavaScript, opening an unread one marks it read on the way (a POST, never the GET itself).
  const markOnOpen = () => {
    if (item.read) return;
    void fetch("/api/notifications/read", {
      method: "POST",
      keepalive: true,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ids: [item.id] }),
    }).then(
      () => dispatchEvent(new Event(UNREAD_CHANGED)),
      () => {},
    );
  };
  return (
    <li className={`flex items-start gap-3 p-3 ${item.read ? "" : "bg-amber-50"}`} data-testid="notification" data-read={item.read}>
      <span className="mt-1 w-2 shrink-0" aria-hidden="true">
        {item.read ? null : <span className="block h-2 w-2 rounded-full bg-blaze-600" />}
      </span>
      {actor ? <Avatar src={actor.avatar} name={actor.displayName} size={40} /> : <SiteAvatar />}
      <div className="min-w-0 flex-1">
        <Link to={item.href} onClick={markOnOpen} className="flex min-h-11 flex-col justify-center hover:underline">
          {item.read ? null : <span className="sr-only">Unread: </span>}
          <span className={item.read ? "text-stone-700" : "font-semibold text-bark-900"}>{item.text}</span>
        </Link>
        <RelativeTime iso={item.createdAt} className="text-sm text-stone-500" />
      </div>
      {item.read ? null : (
        <fetcher.Form method="post" action={action} className="shrink-0">
          <input type="hidden" name="id" value={item.id} />
          {/* With JavaScript the row itself shows it read: no "Marked read" toast, which could
              follow the member to the page they open next (ux-3 U11). */}
          {hydrated ? <input type="hidden" name="quiet" value="1" /> : null}
          {/* A 44 px ✓, not a 130 px "Mark read" that left the text 3–4 words a line on a phone (ux-3 U12). */}
          <button
            type="submit"
            name="intent"
            value="read"
            className="btn-secondary h-11 w-11 p-0"
            title="Mark read"
            aria-label={`Mark read: ${item.text}`}
            data-testid="mark-read"
          >
            <CheckIcon />
          </button>
        </fetcher.Form>
      )}
    </li>
  );
}

/** A notice from the site itself (moderation: no member's face to show), not a "?" (ux-3 U12). */
function SiteAvatar() {
  return (
    <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-bark-100 text-bark-700" data-testid="site-avatar">
      <svg
        viewBox="0 0 24 24"
        className="h-5 w-5"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      >
        <path d="M12 3 5 6v5c0 4.6 3 8.4 7 10 4-1.6 7-5.4 7-10V6l-7-3z" />
      </svg>
    </span>
  );
}

function CheckIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      className="mx-auto h-5 w-5"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="m5 12.5 4.5 4.5L19 7.5" />
    </svg>
  );
}

function SignInNotice() {
  return (
    <div className="card mx-auto mt-10 max-w-lg p-8 text-center">
      <h1 className="text-2xl font-bold text-bark-900">Notifications</h1>
      <p className="mt-3 text-stone-600">Please sign in to see your notifications.</p>
      <Link to={signInHref("/notifications")} className="btn-primary mt-6 inline-flex min-h-11 items-center">
        Sign In
      </Link>
    </div>
  );
}

export const meta: MetaFunction = withUnreadTitle(() =>
  pageMeta("Notifications", "What happened while you were away: comments, likes, follows and clubs."),
);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

import { unreadText } from "~/utils/unread-title";
import { Link } from "react-router";
import { useEffect, useState } from "react";

/**
 * The top bar's way to /notifications (CONTRACT.md §7 "Pages"): its name says the unread count
 * ("Notifications, 3 unread"; just "Notifications" at 0; "99+" at the model's cap of 100), drawn by
 * the server, so it needs no JavaScript. The document title's "(3) " is root.tsx's.
 */

export function NotificationsLink({ unread }: { unread: number }) {
  return (
    <Link
      to="/notifications"
      aria-label={unread > 0 ? `Notifications, ${unreadText(unread)} unread` : "Notifications"}
      className="relative inline-flex h-11 min-w-11 items-center justify-center rounded-md hover:bg-bark-800"
      data-testid="notifications-link"
    >
      <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
        <path strokeLinejoin="round" d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15L6 16z" />
        <path strokeLinecap="round" d="M10 20.5a2.2 2.2 0 0 0 4 0" />
      </svg>
      {unread > 0 ? (
        <span
          aria-hidden="true"
          className="absolute right-0.5 top-1 min-w-5 rounded-full bg-blaze-600 px-1 text-center text-xs font-bold leading-5 text-white"
        >
          {unreadText(unread)}
        </span>
      ) : null}
    </Link>
  );
}

/**
 * Sent on `window` when this tab has marked notifications read by itself (opening one from the list
 * marks it on the way): the bell asks for its count again instead of showing the old one until the
 * next full load (ux-3 U11).
 */
export const UNREAD_CHANGED = "pulse:unread-changed";

/**
 * The member's unread count: the server's (root data) until the tab comes back into view or this tab
 * marks some read (`UNREAD_CHANGED`), when it is asked again (GET /api/notifications/count). No
 * polling: a hidden tab asks nothing. A newer server count (after an action or a navigation that
 * reloads root data) replaces what was fetched.
 */
export function useUnreadCount(server: number | undefined): number {
  const [fresh, setFresh] = useState<number[]>([]);
  useEffect(() => {
    const refresh = () => {
      if (!document.hidden)
        void fetch("/api/notifications/count")
          .then((r) => r.json() as Promise<{ unread: number }>)
          .then(
            (body) => setFresh([server!, body.unread]),
            () => {},
          );
    };
    if (server !== undefined) {
      addEventListener("visibilitychange", refresh);
      addEventListener(UNREAD_CHANGED, refresh);
    }
    return () => {
      removeEventListener("visibilitychange", refresh);
      removeEventListener(UNREAD_CHANGED, refresh);
    };
  }, [server]);
  return fresh[0] === server && typeof fresh[1] === "number" ? fresh[1] : (server ?? 0);
}

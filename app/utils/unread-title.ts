import type { MetaDescriptor, MetaFunction } from "react-router";

/**
 * The unread count in every page's title, "(3) Settings · Whitetail Pulse" (CONTRACT.md §7), from
 * the root loader's data through React Router's own `meta` (docs/decisions/0082-react-router-7.md):
 * each route's `meta` is wrapped in `withUnreadTitle`, which reads the count from the root's match.
 * The server's page has it, JavaScript or not, and so does each page after a client navigation.
 * A fresher count the page fetched itself (`useUnreadCount`) is put in by `unreadTitleOf` in the root.
 */

/** The unread count as shown: "99+" from the cap (UNREAD_CAP, notification.server.ts) on. */
export const unreadText = (count: number) => (count >= 100 ? "99+" : String(count));

/** What goes in front of a title for `unread` unread notifications: "(3) ", or nothing. */
export const unreadPrefix = (unread: number) => (unread > 0 ? `(${unreadText(unread)}) ` : "");

const PREFIX = /^\((?:\d+|99\+)\) /;

/** `title` with the prefix for `unread` in place of any it had. */
export const unreadTitleOf = (title: string, unread: number) => unreadPrefix(unread) + title.replace(PREFIX, "");

/** The member's unread count in the root's loader data, as meta functions see it (0 for a visitor). */
function unreadOf(matches: ReadonlyArray<{ id: string; loaderData?: unknown }>): number {
  const root = matches.find((match) => match.id === "root")?.loaderData as { user?: { unread?: unknown } | null } | undefined;
  const unread = root?.user?.unread;
  return typeof unread === "number" ? unread : 0;
}

/** A route's `meta`, its title prefixed with the member's unread count. */
export function withUnreadTitle<Loader = unknown>(meta: MetaFunction<Loader>): MetaFunction<Loader> {
  return (args) => {
    const descriptors = meta(args);
    const unread = unreadOf(args.matches);
    if (!descriptors || unread <= 0) return descriptors;
    return descriptors.map((d: MetaDescriptor) => (d && "title" in d ? { ...d, title: unreadTitleOf(String(d.title), unread) } : d));
  };
}

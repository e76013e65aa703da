import { Form, Link, useLocation, useNavigate } from "react-router";
import { useEffect, useRef, type FormEvent } from "react";
import { APP_NAME } from "~/utils/brand";
import { signInHref } from "~/utils/urls";
import { leaveDevice } from "~/offline/forget-member";
import { Avatar } from "~/components/ui/avatar";
import { NotificationsLink } from "./notifications-link";

export type TopBarUser = {
  displayName: string;
  username: string;
  avatar: string | null;
  moderates?: boolean;
  /** Staff: open cases in their queue (capped at 100: "99+"), shown beside Moderation and on the menu's button. */
  openCases?: number;
};

/**
 * SPEC.md §1–2 top bar. The search box is a GET form to `/?search=` (trimmed, empty ignored on
 * the home page). The avatar menu is a <details> element: it opens without JavaScript.
 */
export function TopBar({
  user,
  hideAuthActions = false,
  search = "",
  unread = 0,
}: {
  user: TopBarUser | null;
  hideAuthActions?: boolean;
  search?: string;
  /** The member's unread notifications (root data, refreshed when the tab comes back). */
  unread?: number;
}) {
  const location = useLocation();
  const onSearch = useSearchSubmit();
  // SPEC §1: Sign In on the sign-in page too (audit ux-2 N9): there the current page on the Sign In
  // tab, and from Join Now a link to the Sign In tab keeping redirectTo and an invite.
  const onAuth = location.pathname === "/auth";
  return (
    <header className="sticky top-0 z-40 border-b border-bark-800 bg-bark-900 text-white">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-4">
        <Link to="/" className="icon-btn gap-2 font-bold tracking-tight" aria-label={`${APP_NAME} home`}>
          <Logo />
          <span className="hidden sm:inline">{APP_NAME}</span>
        </Link>
        <Form method="get" action="/" role="search" onSubmit={onSearch} className="ml-2 hidden flex-1 md:block">
          <label htmlFor="site-search" className="sr-only">
            Search
          </label>
          <input
            id="site-search"
            type="search"
            name="search"
            defaultValue={search}
            key={location.search}
            placeholder="Search whitetail content..."
            maxLength={200}
            className="w-full max-w-md rounded-md border border-bark-700 bg-bark-800 px-3 py-1.5 text-sm text-white placeholder:text-bark-100/60 focus:border-blaze-500"
          />
        </Form>
        <nav className="ml-auto flex items-center gap-1 text-sm" aria-label="Main">
          {/* Phones have no room for the box: a link to the search page (a plain form) instead. */}
          <Link to="/search" className="icon-btn rounded-md hover:bg-bark-800 md:hidden" aria-label="Search" title="Search">
            <SearchIcon />
          </Link>
          <Link to="/clubs" className="bar-link">
            Clubs
          </Link>
          {/* The pulse (field reports by county): in the bar where there is room, in the account menu on a member's phone. */}
          <Link to="/pulse" className="bar-link max-sm:hidden">
            Pulse
          </Link>
          {/* The hunt-day card (sun, legal light, moon): in the bar where there is room, in the account menu on a member's phone. */}
          <Link to="/hunt-day" className={user && !hideAuthActions ? "bar-link max-sm:hidden" : "bar-link"}>
            Hunt day
          </Link>
          {hideAuthActions ? null : user ? (
            <>
              <Link to="/create" className="bar-link">
                Create
              </Link>
              <NotificationsLink unread={unread} />
              <UserMenu user={user} />
            </>
          ) : (
            <Link
              to={
                onAuth
                  ? `/auth${location.search.replace("mode=register", "mode=login") || "?mode=login"}`
                  : signInHref(comeBackTo(location.pathname + location.search))
              }
              aria-current={onAuth && !location.search.includes("mode=register") ? "page" : undefined}
              className="bar-link bg-blaze-600 font-semibold hover:bg-blaze-700"
            >
              Sign In
            </Link>
          )}
        </nav>
      </div>
    </header>
  );
}

/**
 * The post search forms' submit (top bar, /search): with JavaScript the text is trimmed here and
 * empty text does nothing; without it the home page's loader trims (and drops empty text) by
 * redirecting to the canonical URL.
 */
export function useSearchSubmit() {
  const navigate = useNavigate();
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get("search") ?? "").trim();
    if (text) void navigate(`/?${new URLSearchParams({ search: text })}`);
  };
}

/** Home and the sign-in and password pages need no way back. */
function comeBackTo(path: string) {
  return path === "/" || /^\/(auth|forgot-|reset-)/.test(path) ? null : path;
}

/**
 * The avatar menu: a <details>, so it opens and closes without JavaScript. While it is open its
 * summary also covers the page (an invisible layer under the menu), so a click anywhere outside
 * closes it, JavaScript or not. With JavaScript it also closes on Escape, on choosing an item and
 * on any navigation.
 */
function UserMenu({ user }: { user: TopBarUser }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  const close = () => ref.current?.removeAttribute("open");
  const open = user.moderates ? (user.openCases ?? 0) : 0;
  const openText = open > 99 ? "99+" : String(open);

  useEffect(close, [location.key]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !ref.current?.open) return;
      close();
      ref.current.querySelector("summary")?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <details ref={ref} className="group relative" data-testid="user-menu">
      <summary
        className="icon-btn cursor-pointer list-none rounded-full hover:bg-bark-800 group-open:before:fixed group-open:before:inset-0 group-open:before:cursor-default group-open:before:content-[''] [&::-webkit-details-marker]:hidden"
        aria-label={open > 0 ? `Account menu, ${openText} open ${open === 1 ? "report" : "reports"}` : "Account menu"}
      >
        <span className="relative">
          <Avatar src={user.avatar} name={user.displayName} size={32} />
          {open > 0 ? (
            <span aria-hidden="true" className="absolute -right-1 -top-1 h-3 w-3 rounded-full border-2 border-bark-900 bg-blaze-600" />
          ) : null}
        </span>
      </summary>
      <div className="absolute right-0 z-10 mt-2 w-56 rounded-lg border border-stone-200 bg-white py-1 text-stone-800 shadow-lg">
        <div className="border-b border-stone-100 px-4 py-2">
          <p className="truncate font-semibold">{user.displayName}</p>
          <p className="truncate text-sm text-stone-500">@{user.username}</p>
        </div>
        <Link to={`/profile/${user.username}`} onClick={close} className="block px-4 py-3 hover:bg-stone-100">
          Profile
        </Link>
        <Link to="/settings" onClick={close} className="block px-4 py-3 hover:bg-stone-100">
          Settings
        </Link>
        <Link to="/hunt-day" onClick={close} className="block px-4 py-3 hover:bg-stone-100 sm:hidden">
          Hunt day
        </Link>
        <Link to="/pulse" onClick={close} className="block px-4 py-3 hover:bg-stone-100 sm:hidden">
          The pulse
        </Link>
        {user.moderates ? (
          <Link
            to="/moderation"
            onClick={close}
            className="flex items-center justify-between px-4 py-3 hover:bg-stone-100"
            data-testid="menu-moderation"
            // The count in the link's name, as the bell's (ux-3 U23): "Moderation, 3 open reports".
            aria-label={open > 0 ? `Moderation, ${openText} open ${open === 1 ? "report" : "reports"}` : undefined}
          >
            Moderation
            {open > 0 ? (
              <span
                aria-hidden="true"
                className="min-w-6 rounded-full bg-blaze-700 px-1.5 text-center text-xs font-bold leading-6 text-white"
                data-testid="open-cases"
              >
                {openText}
              </span>
            ) : null}
          </Link>
        ) : null}
        {/* Logging out forgets every local draft (ADR 0031): the next person on this device sees none.
            What still waits to be sent is shown first, with its text (ADR 0057). */}
        <Form method="post" action="/logout" onSubmit={(event) => void leaveDevice(event)}>
          <button type="submit" className="block w-full px-4 py-3 text-left hover:bg-stone-100">
            Log out
          </button>
        </Form>
      </div>
    </details>
  );
}

function SearchIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
      <circle cx="11" cy="11" r="6.5" />
      <path strokeLinecap="round" d="m16 16 4.5 4.5" />
    </svg>
  );
}

function Logo() {
  // A whitetail's antlers in blaze orange: inline so it costs no request.
  return (
    <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true" className="text-blaze-500">
      <path
        fill="none"
        stroke="currentColor"
        strokeWidth="2.4"
        strokeLinecap="round"
        d="M16 28v-9m0 0c-3 0-6-2-7-6M16 19c3 0 6-2 7-6M9 13 5 6m4 7 1-8m-3 4L4 9m19 4 4-7m-4 7-1-8m3 4 3 0"
      />
    </svg>
  );
}

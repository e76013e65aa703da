import { Link, useLocation } from "react-router";
import type { ReactNode } from "react";
import type { FeedFilters } from "~/schemas/post";
import { FEED_TYPES, POST_TYPE_LABELS, SORT_LABELS, SORT_OPTIONS, type FeedType } from "~/schemas/post-options";

const TYPE_LABELS: Record<FeedType, string> = { all: "All Types", ...POST_TYPE_LABELS };

/** The URL of a filter state: defaults are left out so every state has one short, shareable URL. */
export function feedHref(filters: Partial<FeedFilters>, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (filters.type && filters.type !== "all") params.set("type", filters.type);
  if (filters.sortBy && filters.sortBy !== "recent") params.set("sortBy", filters.sortBy);
  if (filters.search) params.set("search", filters.search);
  if (filters.following) params.set("following", "true");
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const qs = params.toString();
  return qs ? `/?${qs}` : "/";
}

/** A control of the filter row: a pill 44 px tall (a phone's tap target, issue 31), filled when `on`. */
export const pill = (on = false) =>
  `flex min-h-11 items-center gap-1 whitespace-nowrap rounded-full border px-3 text-sm font-medium ${on ? "border-field-700 bg-field-700 text-white" : "border-stone-300 bg-white"}`;

/**
 * SPEC.md §2 filter bar, folded into one row so a phone's first screen shows posts (issue 31, audit
 * ux-2 V2): a sort menu (Most Recent · Most Popular · Most Discussed · Oldest First), a type menu and,
 * for members, a Following toggle. Every choice is a plain link to the feed's URL with the other
 * current filters (search included) kept, so the row works without JavaScript and adds none (a
 * visitor's home has no scripts, ADR 0047); with JavaScript the links are client navigations. The
 * menus are <details>: they open without scripts and close once a choice has loaded. A filter off
 * its default shows filled, and below the row the active filters are removable chips and 'Clear all'.
 * On a phone the row scrolls sideways when it is wider than the screen (a member's, with Following);
 * `extra` is put at its end (the home's jump to the sidebar on a phone).
 */
export function FilterBar({ filters, signedIn, extra }: { filters: FeedFilters; signedIn: boolean; extra?: ReactNode }) {
  // A new filter state is a new row: a menu left open closes once its choice has loaded.
  const { search } = useLocation();
  return (
    <div className="relative space-y-2" key={search}>
      {/* On a phone the row scrolls sideways rather than wrap; it is not positioned, so an open
          menu's list (placed against the wrapper above) is not clipped by the scrolling. */}
      <nav aria-label="Filter posts" className="flex items-center gap-2 max-sm:overflow-x-auto sm:flex-wrap" data-testid="filter-bar">
        <Menu
          name="Sort by"
          current={SORT_LABELS[filters.sortBy]}
          on={filters.sortBy !== "recent"}
          items={SORT_OPTIONS.map((s) => ({
            key: s,
            label: SORT_LABELS[s],
            href: feedHref({ ...filters, sortBy: s }),
            current: s === filters.sortBy,
          }))}
        />
        <Menu
          name="Type"
          current={TYPE_LABELS[filters.type]}
          on={filters.type !== "all"}
          items={FEED_TYPES.map((t) => ({
            key: t,
            label: TYPE_LABELS[t],
            href: feedHref({ ...filters, type: t }),
            current: t === filters.type,
          }))}
        />
        {signedIn ? (
          <Link
            to={feedHref({ ...filters, following: !filters.following })}
            className={pill(filters.following)}
            aria-current={filters.following ? "true" : undefined}
          >
            Following
          </Link>
        ) : null}
        {extra}
      </nav>
      <FilterChips filters={filters} />
    </div>
  );
}

type MenuItem = { key: string; label: string; href: string; current: boolean };

/**
 * A compact menu: the summary names the filter (for screen readers) and shows its value; the list
 * drops below the row, as wide as the row on a phone and under its own button on a wider screen.
 */
function Menu({ name, current, on, items }: { name: string; current: string; on: boolean; items: MenuItem[] }) {
  return (
    <details className="sm:relative">
      <summary className={pill(on)}>
        <span className="sr-only">{name}: </span>
        {current} <span aria-hidden="true">▾</span>
      </summary>
      <ul className="card absolute inset-x-0 top-11 z-20 mt-1 py-1 shadow-lg sm:right-auto sm:top-full sm:w-56">
        {items.map((item) => (
          <li key={item.key}>
            <Link
              to={item.href}
              aria-current={item.current || undefined}
              className="flex min-h-11 items-center px-4 text-sm aria-[current=true]:font-bold"
            >
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** SPEC.md §2: the active filters as removable chips (links keeping the others) and 'Clear all'. */
function FilterChips({ filters }: { filters: FeedFilters }) {
  const chips = (
    [
      ["type", filters.type !== "all" && `Type: ${TYPE_LABELS[filters.type]}`, { type: "all" }],
      ["sortBy", filters.sortBy !== "recent" && `Sort: ${SORT_LABELS[filters.sortBy]}`, { sortBy: "recent" }],
      ["search", filters.search && `Search: ${filters.search}`, { search: undefined }],
      ["following", filters.following && "Following", { following: false }],
    ] as const
  ).filter((chip) => chip[1]);
  if (!chips.length) return null;
  return (
    <div className="flex flex-wrap items-center gap-x-2" aria-label="Active filters" data-testid="filter-chips">
      {chips.map(([key, label, reset]) => (
        <Link
          key={key}
          to={feedHref({ ...filters, ...reset })}
          className="badge min-h-11 gap-1 bg-field-600/10 px-3 text-sm text-field-700 wrap-anywhere"
          aria-label={`Remove filter ${label}`}
          data-testid={`chip-${key}`}
        >
          {label}
          <span aria-hidden="true">×</span>
        </Link>
      ))}
      <Link to="/" className="flex min-h-11 items-center px-2 text-sm text-stone-600 underline">
        Clear all
      </Link>
    </div>
  );
}

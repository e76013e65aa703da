import { Form, Link, useLocation, useNavigate } from "@remix-run/react";
import type { FormEvent } from "react";
import type { FeedFilters } from "~/schemas/post";
import { FEED_TYPES, POST_TYPE_LABELS, SORT_LABELS, SORT_OPTIONS, type FeedType, type SortOption } from "~/schemas/post-options";

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

/**
 * SPEC.md §2 filter bar: a GET form (type, sort and, for members, Following), so it works without
 * JavaScript; with JavaScript a change applies at once. The search text rides along hidden.
 * Below it, the active filters as removable chips (links) and 'Clear all'.
 */
export function FilterBar({ filters, signedIn }: { filters: FeedFilters; signedIn: boolean }) {
  const location = useLocation();
  const navigate = useNavigate();

  const apply = (form: HTMLFormElement) => {
    const data = new FormData(form);
    navigate(
      feedHref({
        type: (data.get("type") as FeedType) ?? "all",
        sortBy: (data.get("sortBy") as SortOption) ?? "recent",
        search: (data.get("search") as string) || undefined,
        following: data.get("following") === "true",
      }),
    );
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    apply(event.currentTarget);
  };

  return (
    <div className="space-y-3">
      <Form
        method="get"
        action="/"
        key={location.search}
        onSubmit={onSubmit}
        onChange={(event) => apply(event.currentTarget)}
        className="card flex flex-wrap items-end gap-3 p-4"
        aria-label="Filter posts"
        data-testid="filter-bar"
      >
        {filters.search ? <input type="hidden" name="search" value={filters.search} /> : null}
        <div>
          <label htmlFor="filter-type" className="label">
            Type
          </label>
          <select id="filter-type" name="type" defaultValue={filters.type} className="input w-40">
            {FEED_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="filter-sort" className="label">
            Sort by
          </label>
          <select id="filter-sort" name="sortBy" defaultValue={filters.sortBy} className="input w-44">
            {SORT_OPTIONS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        {signedIn ? (
          <label className="flex items-center gap-2 pb-2 text-sm font-medium text-stone-800">
            <input type="checkbox" name="following" value="true" defaultChecked={filters.following} className="h-4 w-4 accent-blaze-500" />
            Following
          </label>
        ) : null}
        <button type="submit" className="btn-secondary ml-auto">
          Apply
        </button>
      </Form>
      <FilterChips filters={filters} />
    </div>
  );
}

function FilterChips({ filters }: { filters: FeedFilters }) {
  const chips: Array<{ key: string; label: string; href: string }> = [];
  if (filters.type !== "all")
    chips.push({ key: "type", label: `Type: ${TYPE_LABELS[filters.type]}`, href: feedHref({ ...filters, type: "all" }) });
  if (filters.sortBy !== "recent")
    chips.push({ key: "sortBy", label: `Sort: ${SORT_LABELS[filters.sortBy]}`, href: feedHref({ ...filters, sortBy: "recent" }) });
  if (filters.search) chips.push({ key: "search", label: `Search: ${filters.search}`, href: feedHref({ ...filters, search: undefined }) });
  if (filters.following) chips.push({ key: "following", label: "Following", href: feedHref({ ...filters, following: false }) });
  if (!chips.length) return null;
  return (
    <div className="flex flex-wrap items-center gap-2" aria-label="Active filters" data-testid="filter-chips">
      {chips.map((chip) => (
        <Link
          key={chip.key}
          to={chip.href}
          className="badge gap-1 bg-field-600/10 py-1 text-sm text-field-700 hover:bg-field-600/20"
          aria-label={`Remove filter ${chip.label}`}
          data-testid={`chip-${chip.key}`}
        >
          {chip.label}
          <span aria-hidden="true">×</span>
        </Link>
      ))}
      <Link to="/" className="text-sm font-medium text-stone-600 underline hover:text-stone-900">
        Clear all
      </Link>
    </div>
  );
}

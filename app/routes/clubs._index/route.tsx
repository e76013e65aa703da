import type { LoaderFunctionArgs, MetaFunction } from "react-router";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "react-router";
import { ClubCard, ClubCardSkeleton } from "~/components/club/card";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { pageMeta } from "~/utils/brand";
import { loadClubList, type ClubListTab as Tab } from "./club-list.server";
import { withUnreadTitle } from "~/utils/unread-title";

const TABS: Array<{ id: Tab; label: string }> = [
  { id: "all", label: "All Clubs" },
  { id: "public", label: "Public" },
  { id: "mine", label: "My Clubs" },
];

/** /clubs?tab=all|public|mine&search=&cursor=: the tabs and the search box are links and a GET form. */
export { shouldRevalidate } from "~/offline/client-action";

export async function loader({ request }: LoaderFunctionArgs) {
  return loadClubList(request);
}

export default function ClubsPage() {
  const { clubs, nextCursor, tab, search, signedIn } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  // Client navigations within the list (tabs, search) show six placeholder cards.
  const loadingList = navigation.state === "loading" && navigation.location?.pathname === "/clubs";
  const here = `${location.pathname}${location.search}`;

  const tabHref = (id: Tab) => {
    const params = new URLSearchParams();
    if (id !== "all") params.set("tab", id);
    if (search) params.set("search", search);
    const qs = params.toString();
    return qs ? `/clubs?${qs}` : "/clubs";
  };
  const nextHref = () => {
    const params = new URLSearchParams(location.search);
    if (nextCursor) params.set("cursor", nextCursor);
    return `/clubs?${params}`;
  };

  const emptyMessage =
    tab === "mine" && !search ? "You haven't joined any clubs yet" : search ? "No clubs found matching your search" : "No clubs available";

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold text-bark-900">Hunting Clubs</h1>
          <p className="text-stone-600">Find your deer camp: public clubs anyone can join, private ones by request or invite.</p>
        </div>
        {signedIn ? (
          <Link to="/clubs/create" className="btn-primary">
            Create Club
          </Link>
        ) : null}
      </div>

      <Form method="get" action="/clubs" role="search" className="flex gap-2">
        {tab !== "all" ? <input type="hidden" name="tab" value={tab} /> : null}
        <label htmlFor="club-search" className="sr-only">
          Search clubs
        </label>
        <input
          id="club-search"
          type="search"
          name="search"
          defaultValue={search}
          key={search}
          // Short enough for a 320 px phone's box beside Search (audit ux-2 N13); the label says "Search clubs".
          placeholder="Name, place or tag..."
          maxLength={200}
          className="input max-w-md"
        />
        <button type="submit" className="btn-secondary">
          Search
        </button>
      </Form>

      <nav aria-label="Club lists" className="flex gap-1 border-b border-stone-200">
        {TABS.filter((t) => t.id !== "mine" || signedIn).map((t) => (
          <Link
            key={t.id}
            to={tabHref(t.id)}
            aria-current={tab === t.id ? "page" : undefined}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold max-sm:py-3 ${
              tab === t.id ? "border-blaze-500 text-bark-900" : "border-transparent text-stone-600 hover:text-stone-900"
            }`}
          >
            {t.label}
          </Link>
        ))}
      </nav>

      {loadingList ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true" aria-label="Loading clubs">
          {Array.from({ length: 6 }, (_, i) => (
            <ClubCardSkeleton key={i} />
          ))}
        </div>
      ) : clubs.length === 0 ? (
        <div className="card p-10 text-center text-stone-600" data-testid="clubs-empty">
          <p>{emptyMessage}</p>
          {signedIn && tab === "mine" && !search ? (
            <Link to="/clubs" className="btn-secondary mt-4">
              Browse Clubs
            </Link>
          ) : null}
        </div>
      ) : (
        <>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {clubs.map((club) => (
              <ClubCard key={club.id} club={club} redirectTo={here} signedIn={signedIn} />
            ))}
          </div>
          {nextCursor ? (
            <div className="text-center">
              <Link to={nextHref()} className="btn-secondary">
                More clubs
              </Link>
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}

export const meta: MetaFunction = withUnreadTitle(() =>
  pageMeta("Clubs", "Hunting clubs, leases and camps: find one near you, join it or start your own."),
);

export const ErrorBoundary = GeneralErrorBoundary;

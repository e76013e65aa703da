import type { LoaderFunctionArgs, MetaFunction } from "react-router";
import { Link, useFetcher, useLoaderData, useLocation, useNavigation } from "react-router";
import { useEffect, useState, type MouseEvent } from "react";
import { HotTracks, PopularTopics } from "~/components/post/feed-sidebar";
import { FilterBar, feedHref } from "~/components/post/filter-bar";
import { PostCard, useCardInputs } from "~/components/post/card";
import { PostSkeletonList } from "~/components/post/skeleton";
import { RenderCached } from "~/components/ui/render-cache";
import { renderCacheKeys } from "~/utils/render-cache-keys";
import type { FeedFilters } from "~/schemas/post";
import { APP_NAME } from "~/utils/brand";
import { signInHref } from "~/utils/urls";
import { loadHomeFeed } from "./home-feed.server";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import type { Post } from "~/schemas/shapes";
import type { WithPreview } from "~/utils/preview";
import type { RouteHandle } from "~/root";
import { withUnreadTitle } from "~/utils/unread-title";

/** Home (SPEC.md §2): see loadHomeFeed for what the page shows. */
export { shouldRevalidate } from "~/offline/client-action";

/** A visitor's home is sent without the app's scripts (docs/decisions/0047). */
export const handle: RouteHandle = {
  plainForVisitors: true,
  // The feed the head names (meta below): a #tag search's, else the site's.
  feed: (data) => {
    const tag = feedTag(data as HomeData | undefined);
    return tag ? tagFeedPath(tag) : HOME_FEED_PATH;
  },
};

export async function loader(args: LoaderFunctionArgs) {
  return loadHomeFeed(args);
}

type HomeData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const location = useLocation();
  const signedIn = data.viewerId !== null;
  // Client navigations to the feed (filters, search, chips) show three placeholder cards.
  const loadingFeed = navigation.state === "loading" && navigation.location.pathname === "/";

  return (
    <div className="space-y-4">
      <Banner signedIn={signedIn} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_300px]">
        <div className="min-w-0 space-y-4">
          <FilterBar
            filters={data.filters}
            signedIn={signedIn}
            extra={
              // Phones show the sidebar after the feed (SPEC.md §2, audit ux-2 §2 #16): a way to it from the
              // filter row, so reaching it neither means scrolling past a page of posts nor pushes the posts down.
              <a
                href="#trending"
                className="ml-auto flex min-h-11 items-center whitespace-nowrap text-sm text-field-700 underline lg:hidden"
              >
                Hot Tracks ↓
              </a>
            }
          />
          {data.filters.search ? (
            <p className="text-sm text-stone-600">
              Results for <span className="font-semibold text-stone-900">“{data.filters.search}”</span>
            </p>
          ) : null}
          {data.cursor ? (
            <Link to={feedHref(data.filters)} className="inline-flex min-h-11 items-center text-sm font-medium text-field-700 underline">
              ← Newest posts
            </Link>
          ) : null}
          {loadingFeed ? (
            <PostSkeletonList count={3} />
          ) : (
            <Feed key={location.search} data={data} redirectTo={`${location.pathname}${location.search}`} />
          )}
        </div>
        {/* The same for every viewer until trending changes: the server keeps it in the render cache (docs/caching.md). */}
        <RenderCached
          as="aside"
          attrs={{ id: "trending", className: "scroll-mt-16 space-y-6" }}
          cacheKey={() => renderCacheKeys.trending(data.trending)}
        >
          <>
            <HotTracks posts={data.trending} />
            <PopularTopics />
          </>
        </RenderCached>
      </div>
    </div>
  );
}

/**
 * SPEC.md §2's welcome banner, sized so a phone's first screen shows posts (issue 31, audit ux-2 V1):
 * a visitor gets the name, one line on what the site is and 'Join the Community'; a returning member
 * one row with 'Share Your Story'. The page's keys hold the viewer (docs/caching.md: the validator
 * names visitor or member; the visitor cache keeps visitors' pages only); none of it is render-cached.
 */
function Banner({ signedIn }: { signedIn: boolean }) {
  return (
    <section className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-gradient-to-r from-bark-900 to-field-700 px-4 py-3 text-white">
      <h1 className="font-bold sm:text-2xl">Welcome to {APP_NAME}</h1>
      {signedIn ? (
        <Link to="/create" className="btn-primary">
          Share Your Story
        </Link>
      ) : (
        <>
          <p className="w-full text-sm text-bark-100">Stories from the stand, scouting tips and the clubs that hunt together.</p>
          <Link to={signInHref(null, "register")} className="btn-primary">
            Join the Community
          </Link>
        </>
      )}
    </section>
  );
}

function Feed({ data, redirectTo }: { data: HomeData; redirectTo: string }) {
  // Cursors of the pages appended in place (JavaScript); each page keeps its own fetcher, so the
  // revalidation after a like or a comment refreshes every page shown.
  const [more, setMore] = useState<string[]>([]);
  const cardInputs = useCardInputs();
  const append = (cursor: string) => setMore((list) => (list.includes(cursor) ? list : [...list, cursor]));

  if (!data.posts.length) {
    return (
      <div className="card p-10 text-center" data-testid="feed-empty">
        <p className="text-stone-600">No posts found. Be the first to share something with the community!</p>
        {data.viewerId !== null ? (
          <Link to="/create" className="btn-primary mt-4">
            Create First Post
          </Link>
        ) : null}
      </div>
    );
  }

  // The server keeps the page of cards as a whole in the render cache too, keyed on every card's key
  // (docs/caching.md); pages appended in place are the browser's.
  const cacheKey = () =>
    renderCacheKeys.feed(
      data.posts.map((post) => cardInputs({ post, viewerId: data.viewerId, redirectTo })),
      data.filters,
      data.nextCursor,
      more,
    );
  return (
    <RenderCached as="div" attrs={{ className: "space-y-4", "data-testid": "feed" }} cacheKey={cacheKey}>
      <>
        {data.posts.map((post) => (
          <PostCard key={post.id} post={post as WithPreview<Post>} viewerId={data.viewerId} redirectTo={redirectTo} />
        ))}
        {more.map((cursor, i) => (
          <MorePosts
            key={cursor}
            filters={data.filters}
            cursor={cursor}
            viewerId={data.viewerId}
            redirectTo={redirectTo}
            isLast={i === more.length - 1}
            onOlder={append}
          />
        ))}
        {more.length === 0 && data.nextCursor ? <OlderPosts filters={data.filters} cursor={data.nextCursor} onOlder={append} /> : null}
      </>
    </RenderCached>
  );
}

function MorePosts({
  filters,
  cursor,
  viewerId,
  redirectTo,
  isLast,
  onOlder,
}: {
  filters: FeedFilters;
  cursor: string;
  viewerId: number | null;
  redirectTo: string;
  isLast: boolean;
  onOlder: (cursor: string) => void;
}) {
  const fetcher = useFetcher<typeof loader>();
  const href = feedHref(filters, { cursor }).replace(/^\/\??/, "/?index&");
  const { load } = fetcher;
  useEffect(() => {
    void load(href);
  }, [load, href]);

  if (!fetcher.data) return <PostSkeletonList count={3} />;
  return (
    <>
      {fetcher.data.posts.map((post) => (
        <PostCard key={post.id} post={post as WithPreview<Post>} viewerId={viewerId} redirectTo={redirectTo} />
      ))}
      {isLast && fetcher.data.nextCursor ? <OlderPosts filters={filters} cursor={fetcher.data.nextCursor} onOlder={onOlder} /> : null}
    </>
  );
}

/** A plain link to the next page (cursor in the URL); with JavaScript it appends in place. */
function OlderPosts({ filters, cursor, onOlder }: { filters: FeedFilters; cursor: string; onOlder: (cursor: string) => void }) {
  const onClick = (event: MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    onOlder(cursor);
  };
  return (
    <div className="flex justify-center pt-2">
      <Link to={feedHref(filters, { cursor })} onClick={onClick} className="btn-secondary" data-testid="older-posts">
        Older posts
      </Link>
    </div>
  );
}

/**
 * The root's title and description, plus the Atom feeds (issue 26): the site's and, on a `#tag`
 * search with posts, the tag's. Written out here rather than through app/utils/feed-links.ts, whose
 * shared chunk would cost a member's first load of home a request and 0.3 KB more.
 */
const HOME_FEED_PATH = "/feeds/home.atom";
const tagFeedPath = (tag: string) => `/feeds/tags/${encodeURIComponent(tag)}.atom`;
/** The tag of a `#tag` search with posts: it has a feed of its own. */
const feedTag = (data: { posts: unknown[]; filters: { search?: string | null } } | undefined) =>
  /^#([^\s#]+)$/.exec(data?.posts.length ? (data.filters.search ?? "") : "")?.[1];

export const meta: MetaFunction<typeof loader> = withUnreadTitle<typeof loader>(({ data, matches }) => {
  const tag = feedTag(data);
  const feed = (href: string, title: string) => ({
    tagName: "link",
    rel: "alternate",
    type: "application/atom+xml",
    href,
    title: `${title} (Atom)`,
  });
  return [
    ...matches.flatMap((match) => (match.id === "root" ? match.meta : [])),
    ...(tag ? [feed(tagFeedPath(tag), `#${tag} on ${APP_NAME}`)] : []),
    feed(HOME_FEED_PATH, `${APP_NAME}: newest posts`),
  ];
});

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

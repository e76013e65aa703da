import type { MetaFunction } from "react-router";
import { Form } from "react-router";
import { useSearchSubmit } from "~/components/layout/top-bar";
import { PopularTopics } from "~/components/post/feed-sidebar";
import { APP_NAME, pageMeta } from "~/utils/brand";
import { withUnreadTitle } from "~/utils/unread-title";

/**
 * /search: text search where the top bar has no room for its box (phones) and the 404 page's
 * 'Search posts'. A plain GET form to the feed (`/?search=`), so it works without JavaScript; the
 * feed's loader trims the text and ignores an empty search.
 */
export default function SearchPage() {
  const onSubmit = useSearchSubmit();
  return (
    <div className="mx-auto max-w-xl space-y-6">
      <section className="card p-6">
        <h1 className="text-2xl font-bold text-bark-900">Search posts</h1>
        <Form method="get" action="/" role="search" onSubmit={onSubmit} className="mt-4 flex gap-2">
          <label htmlFor="search-page-input" className="sr-only">
            Search
          </label>
          <input
            id="search-page-input"
            type="search"
            name="search"
            // The member came here to type: the field is ready (the page holds nothing else to read first).
            // eslint-disable-next-line jsx-a11y/no-autofocus
            autoFocus
            maxLength={200}
            placeholder="Search whitetail content..."
            className="input flex-1"
          />
          <button type="submit" className="btn-primary">
            Search
          </button>
        </Form>
        <p className="mt-2 text-sm text-stone-500">Words from titles and posts, or a #hashtag.</p>
      </section>
      <PopularTopics />
    </div>
  );
}

export const meta: MetaFunction = withUnreadTitle(() => pageMeta("Search", `Search ${APP_NAME} posts by word or #hashtag.`));

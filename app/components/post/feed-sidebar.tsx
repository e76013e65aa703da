import { Link } from "react-router";
import type { TrendingItem } from "~/schemas/post";
import { POPULAR_TOPICS, topicHashtag } from "~/schemas/post-options";
import { HeartIcon } from "~/components/ui/icons";

/** SPEC.md §2 'Hot Tracks': up to 5 trending posts with title, author and like count. */
export function HotTracks({ posts }: { posts: TrendingItem[] }) {
  return (
    <section className="card p-5" aria-labelledby="hot-tracks-title" data-testid="hot-tracks">
      <h2 id="hot-tracks-title" className="font-bold text-bark-900">
        Hot Tracks
      </h2>
      {posts.length ? (
        <ol className="mt-3 space-y-3">
          {posts.map((post) => (
            <li key={post.id}>
              <Link to={`/post/${post.id}`} className="group block min-h-11">
                <span className="line-clamp-2 font-medium text-stone-900 wrap-anywhere group-hover:underline">{post.title}</span>
                <span className="mt-0.5 flex items-center gap-2 text-xs text-stone-500">
                  <span>{post.authorName}</span>
                  <span className="inline-flex items-center gap-0.5" aria-label={`${post.likes} likes`}>
                    <HeartIcon className="h-3.5 w-3.5" /> {post.likes}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ol>
      ) : (
        <p className="mt-2 text-sm text-stone-500">Nothing trending yet.</p>
      )}
    </section>
  );
}

/** SPEC.md §2 'Popular Topics': the 8 fixed topics, each a hashtag search (#BowHunting). */
export function PopularTopics() {
  return (
    <section className="card p-5" aria-labelledby="topics-title" data-testid="popular-topics">
      <h2 id="topics-title" className="font-bold text-bark-900">
        Popular Topics
      </h2>
      <ul className="mt-3 flex flex-wrap gap-2">
        {POPULAR_TOPICS.map((topic) => (
          <li key={topic}>
            <Link
              to={`/?${new URLSearchParams({ search: topicHashtag(topic) })}`}
              className="badge min-h-11 bg-bark-100 px-3 text-sm text-bark-800 hover:bg-bark-100/70"
            >
              {topicHashtag(topic)}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

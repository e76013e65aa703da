import { Link, useLoaderData, useRouteLoaderData } from "react-router";
import { PostCard } from "~/components/post/card";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import type { loader as clubLoader } from "../route";
import type { clubPostsLoader as loader } from "../club-pages.server";

export { clubPostsLoader as loader } from "../club-pages.server";

export default function ClubPostsTab() {
  const { canSeePosts, posts, nextCursor } = useLoaderData<typeof loader>();
  const layout = useRouteLoaderData<typeof clubLoader>("routes/clubs.$id");
  if (!layout) return null;
  const { club, viewerId } = layout;
  if (!canSeePosts) {
    return (
      <div className="card p-8 text-center text-stone-600" data-testid="club-posts-private">
        <p className="font-semibold text-bark-900">This club is private</p>
        <p className="mt-1">
          Only members can see its posts.{" "}
          {viewerId === null ? "Sign in and request to join to read them." : "Request to join to read them."}
        </p>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      {club.isMember ? (
        <div className="flex justify-end">
          <Link to={`/clubs/${club.id}/create`} className="btn-primary">
            Create Post
          </Link>
        </div>
      ) : null}
      {posts.length ? (
        posts.map((post) => <PostCard key={post.id} post={post} viewerId={viewerId} redirectTo={`/clubs/${club.id}`} />)
      ) : (
        <div className="card p-8 text-center text-stone-600">No posts in this club yet.</div>
      )}
      {nextCursor ? (
        <div className="text-center">
          <Link to={`/clubs/${club.id}?${new URLSearchParams({ cursor: nextCursor })}`} className="btn-secondary">
            Older posts
          </Link>
        </div>
      ) : null}
    </div>
  );
}

// After a send from the club's header that did not arrive (or waits in the outbox), nothing is
// fetched again: with no signal the fetch would fail and the page be reloaded (ADR 0034).
export { shouldRevalidate } from "~/offline/client-action";

export const ErrorBoundary = GeneralErrorBoundary;

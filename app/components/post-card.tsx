import { Link } from "@remix-run/react";
import type { Post } from "~/models/post.server";
import { PostActions } from "./post-actions";
import { LinkPreview } from "./link-preview";
import { PostByline, PostTypeBadge, TagList, truncate } from "./post-meta";
import { PostMedia } from "./post-media";
import { PostOwnerMenu } from "./post-owner-menu";

/**
 * SPEC.md §2 Post card. `viewerId` decides the owner menu; `redirectTo` is where a plain form post
 * from this card (like, share) comes back to, at this card (#post-{id}).
 */
export function PostCard({ post, viewerId, redirectTo }: { post: Post; viewerId: number | null; redirectTo: string }) {
  const isOwner = viewerId !== null && viewerId === post.author.id;
  const back = `${redirectTo}#post-${post.id}`;
  return (
    <article id={`post-${post.id}`} className="card scroll-mt-20 p-5" data-testid="post-card" aria-labelledby={`post-${post.id}-title`}>
      <header className="flex items-start justify-between gap-3">
        <PostByline author={post.author} createdAt={post.createdAt} />
        <div className="flex shrink-0 items-center gap-2">
          <PostTypeBadge type={post.type} />
          {isOwner ? <PostOwnerMenu post={post} /> : null}
        </div>
      </header>
      <h2 id={`post-${post.id}-title`} className="mt-4 text-xl font-bold text-bark-900">
        <Link to={`/post/${post.id}`} className="hover:underline">
          {post.title}
        </Link>
      </h2>
      <p className="mt-2 whitespace-pre-line break-words text-stone-700" data-testid="post-excerpt">
        {truncate(post.content)}
      </p>
      {post.uploadedFiles.length ? (
        <div className="mt-3">
          <PostMedia files={post.uploadedFiles} variant="card" />
        </div>
      ) : null}
      {post.mediaUrl ? (
        <div className="mt-3">
          <LinkPreview url={post.mediaUrl} metadata={post.urlMetadata} canFetch={viewerId !== null} />
        </div>
      ) : null}
      <div className="mt-3">
        <TagList tags={post.tags} max={3} />
      </div>
      <footer className="mt-3 border-t border-stone-100 pt-2">
        <PostActions post={post} redirectTo={back} signedIn={viewerId !== null} />
      </footer>
    </article>
  );
}

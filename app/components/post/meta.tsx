import { Link, useLocation } from "react-router";
import { POST_TYPE_LABELS, type PostType } from "~/schemas/post-options";
import { Avatar } from "~/components/ui/avatar";
import { RelativeTime } from "~/components/ui/relative-time";
import type { PostAuthor, PostClub } from "~/schemas/shapes";

const BADGE_COLORS: Record<PostType, string> = {
  article: "bg-field-600/10 text-field-700",
  opinion: "bg-blaze-500/10 text-blaze-600",
  video: "bg-red-100 text-red-800",
  podcast: "bg-violet-100 text-violet-800",
};

export function PostTypeBadge({ type }: { type: PostType }) {
  return (
    <span className={`badge ${BADGE_COLORS[type]}`} data-testid="post-type">
      {POST_TYPE_LABELS[type]}
    </span>
  );
}

/**
 * Avatar (or initial), display name linking to the profile, @username and time ago, and for a club
 * post shown outside its club (a profile, the post page) "in {club}" linking to the club.
 */
export function PostByline({ author, createdAt, club }: { author: PostAuthor; createdAt: string; club?: PostClub | null }) {
  return (
    <div className="flex min-w-0 items-center gap-3">
      <Avatar src={author.avatar} name={author.displayName} size={40} />
      <div className="min-w-0">
        <Link
          to={`/profile/${author.username}`}
          className="tap-pad block truncate font-semibold text-bark-900 hover:underline"
          data-testid="post-author"
        >
          {author.displayName}
        </Link>
        {/* The time is never cut: a long @username is, and on a narrow row (a phone, where the
            badge and the owner menu share the header) the time moves to its own line and wraps. */}
        <p className="flex flex-wrap gap-x-1 text-sm text-stone-500">
          <span className="min-w-0 max-w-full truncate">{`@${author.username}`}</span>
          <span className="min-w-0">
            {" · "}
            <RelativeTime iso={createdAt} />
          </span>
        </p>
        <ClubLabel club={club} />
      </div>
    </div>
  );
}

/** "in {club}", a link to the club; nothing inside the club's own pages, where it goes without saying. */
function ClubLabel({ club }: { club?: PostClub | null }) {
  const { pathname } = useLocation();
  if (!club) return null;
  const here = `/clubs/${club.id}`;
  if (pathname === here || pathname.startsWith(`${here}/`)) return null;
  return (
    <p className="truncate text-sm text-stone-500" data-testid="post-club">
      in{" "}
      <Link to={here} className="font-medium text-field-700 hover:underline">
        {club.name}
      </Link>
    </p>
  );
}

/** Tags as links to a hashtag search; `max` shows the first few plus '+N more'. */
export function TagList({ tags, max }: { tags: string[] | null; max?: number }) {
  if (!tags?.length) return null;
  const shown = max ? tags.slice(0, max) : tags;
  const rest = tags.length - shown.length;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Tags">
      {shown.map((tag) => (
        <li key={tag}>
          <Link to={`/?search=${encodeURIComponent(`#${tag.replace(/\s+/g, "")}`)}`} className="tag">
            {`#${tag}`}
          </Link>
        </li>
      ))}
      {rest > 0 ? (
        <li className="badge bg-stone-100 text-stone-600" data-testid="more-tags">
          +{rest} more
        </li>
      ) : null}
    </ul>
  );
}

/** SPEC.md §2 Post card: content cut at 200 characters plus an ellipsis (utils/preview.ts). */
export { truncate } from "~/utils/preview";

/**
 * The post's external link as a plain link. The media issue replaces this with the link-preview
 * card (which falls back to exactly this plain link when no metadata arrives).
 */
export function MediaLink({ url }: { url: string | null }) {
  if (!url) return null;
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer nofollow ugc"
      className="block truncate text-sm text-field-700 underline hover:text-field-600 max-sm:py-3"
      data-testid="media-link"
    >
      {url}
    </a>
  );
}

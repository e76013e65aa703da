import { Link, useLocation } from "react-router";
import { RenderCached } from "~/components/ui/render-cache";
import { renderCacheKeys } from "~/utils/render-cache-keys";
import { useDataSaver } from "~/components/ui/data-saver";
import { PostActions } from "./actions";
import { LinkPreview } from "./link-preview";
import { PostByline, PostTypeBadge, TagList, truncate } from "./meta";
import { PostMedia, useBlurGraphic } from "./media";
import { MentionText } from "./mention-text";
import type { PostDialogStates } from "./dialogs";
import { PostOwnerMenu } from "./owner-menu";
import { hiddenNoticeText } from "~/schemas/messages";
import type { HiddenNotice as Hidden, Post } from "~/schemas/shapes";
import { ReportLink } from "~/components/moderation/report";
import type { WithPreview } from "~/utils/preview";
import { FieldReportLine } from "./field-report-line";

/**
 * SPEC.md §2 Post card. `viewerId` decides the owner menu; `redirectTo` is where a plain form post
 * from this card (like, share) comes back to, at this card (#post-{id}).
 *
 * The server draws a card once for what it shows (its cache key, useCardInputs) and keeps it in
 * the render cache (RenderCached, docs/caching.md).
 */
export function PostCard({ post, viewerId, redirectTo }: CardProps) {
  const cardInputs = useCardInputs();
  const attrs = { id: `post-${post.id}`, className: "post-card", "data-testid": "post-card", "aria-labelledby": `post-${post.id}-title` };
  return (
    <RenderCached as="article" attrs={attrs} cacheKey={() => cardInputs({ post, viewerId, redirectTo })}>
      <PostCardInside post={post} viewerId={viewerId} redirectTo={redirectTo} />
    </RenderCached>
  );
}

type CardProps = { post: WithPreview<Post>; viewerId: number | null; redirectTo: string };

/**
 * A card's render cache key (renderCacheKeys.card: everything a card shows). A list of cards kept as
 * a whole (the home feed) keys itself on its cards' keys.
 */
export function useCardInputs() {
  const { pathname, search } = useLocation();
  const dataSaver = useDataSaver();
  const blurGraphic = useBlurGraphic();
  return (props: CardProps) => renderCacheKeys.card({ pathname, search, dataSaver, blurGraphic }, props);
}

function PostCardInside({ post, viewerId, redirectTo }: CardProps) {
  const isOwner = viewerId !== null && viewerId === post.author.id;
  const back = `${redirectTo}#post-${post.id}`;
  return (
    <>
      <PostHeader post={post} isOwner={isOwner} />
      {/* Only its author (and the staff) get a hidden post in a list: say so, as the post page does (ux-3 U8). */}
      {post.hidden ? <HiddenNotice hidden={post.hidden} what="post" /> : null}
      <h2 id={`post-${post.id}-title`} className="post-title">
        <Link to={`/post/${post.id}`} className="tap-area hover:underline">
          {post.title}
        </Link>
      </h2>
      <FieldReportLine report={post.field} postedAt={post.createdAt} />
      <p className="post-excerpt" data-testid="post-excerpt">
        <MentionText text={truncate(post.content)} mentions={post.mentions} />
      </p>
      <PostAttachments post={post} variant="card" canFetch />
      <footer className="mt-3 border-t border-stone-100 pt-2">
        <PostActions post={post} redirectTo={back} signedIn={viewerId !== null} />
      </footer>
    </>
  );
}

/**
 * A post's byline, its type badge and, for its author, the Edit/Delete menu (`dialogs`: the page's
 * own Edit/Delete DialogForm states, where the page renders the forms; see owner-menu.tsx).
 */
export function PostHeader({ post, isOwner, dialogs }: { post: WithPreview<Post>; isOwner: boolean; dialogs?: PostDialogStates }) {
  return (
    <header className="flex items-start justify-between gap-3">
      <PostByline author={post.author} createdAt={post.createdAt} club={post.club} />
      <div className="flex shrink-0 items-center gap-2">
        <PostTypeBadge type={post.type} />
        {isOwner ? <PostOwnerMenu post={post} dialogs={dialogs} /> : <ReportLink type="post" id={post.id} />}
      </div>
    </header>
  );
}

/**
 * What a post carries below its text: uploaded media, the link preview of its Media URL, and its
 * tags (the card shows 3 and '+N more', the post page all of them).
 */
export function PostAttachments({
  post,
  variant,
  canFetch,
}: {
  post: Pick<Post, "id" | "uploadedFiles" | "mediaUrl" | "urlMetadata" | "tags" | "sensitive">;
  variant: "card" | "page";
  canFetch: boolean;
}) {
  const gap = variant === "card" ? "mt-3" : "mt-4";
  return (
    <>
      {post.uploadedFiles.length ? (
        <div className={gap}>
          <PostMedia files={post.uploadedFiles} variant={variant} postHref={`/post/${post.id}`} sensitive={post.sensitive} />
        </div>
      ) : null}
      {post.mediaUrl ? (
        <div className={gap}>
          <LinkPreview url={post.mediaUrl} metadata={post.urlMetadata} canFetch={canFetch} />
        </div>
      ) : null}
      <div className={gap}>
        <TagList tags={post.tags} max={variant === "card" ? 3 : undefined} />
      </div>
    </>
  );
}

/**
 * Hidden content as its author and the staff read it (CONTRACT.md §8): on the post page, a comment,
 * and a hidden post's card in its author's lists (ux-3 U8). Here, with the cards every feed loads, so
 * that it costs no file of its own.
 */
export function HiddenNotice({ hidden, what }: { hidden: Hidden; what: "post" | "comment" }) {
  return (
    <p role="note" className="hidden-notice" data-testid={`${what}-hidden-notice`}>
      <span className="font-semibold">{hiddenNoticeText(hidden)}</span>
      <span className="block text-amber-800">Hidden from everyone but its author and the moderators.</span>
    </p>
  );
}

import { Link, useFetcher } from "react-router";
import { useEffect, type FormEvent, type MouseEvent } from "react";
import { SIGN_IN } from "~/schemas/messages";
import { isFailure, type PostActionData } from "~/schemas/post-intents";
import { CommentIcon, HeartIcon, ShareIcon } from "~/components/ui/icons";
import { showToast } from "~/components/layout/toaster";
import type { Post } from "~/schemas/shapes";
import { useWaiting, WAITING_TEXT } from "~/components/ui/outbox-note";

const LIKE_INTENTS = ["like", "unlike"];

export const SIGN_IN_TO_LIKE = { title: "Sign in required", description: SIGN_IN.like, type: "error" } as const;

type Props = {
  post: Pick<Post, "id" | "likes" | "isLiked" | "commentsCount" | "shares">;
  /** Where a plain (no-JavaScript) form post sends the member back to. */
  redirectTo: string;
  signedIn: boolean;
};

/**
 * Like, comment-count and share buttons (SPEC.md §2 Post card, §4 Like/Share). Each is a real form
 * posting to /post/{id}; with JavaScript the like is optimistic and in place (fetcher.formData),
 * and share copies the link first.
 */
export function PostActions({ post, redirectTo, signedIn }: Props) {
  return (
    <div className="post-actions" data-testid="post-actions">
      <LikeButton post={post} redirectTo={redirectTo} signedIn={signedIn} />
      <Link
        to={`/post/${post.id}#comments`}
        className="btn-ghost px-3"
        aria-label={`${post.commentsCount} ${post.commentsCount === 1 ? "comment" : "comments"}`}
        data-testid="comment-count"
      >
        <CommentIcon />
        <span>{post.commentsCount}</span>
      </Link>
      <ShareButton post={post} redirectTo={redirectTo} signedIn={signedIn} />
    </div>
  );
}

function LikeButton({ post, redirectTo, signedIn }: Props) {
  const fetcher = useFetcher<PostActionData>();
  // A like that waits in the outbox for a signal (ADR 0034) shows as done, marked waiting.
  const waiting = useWaiting(`/post/${post.id}`, LIKE_INTENTS);
  const pending = fetcher.formData?.get("intent") ?? waiting?.intent;
  // Optimistic: while the request runs, show what the member asked for; afterwards the revalidated
  // loader data (the server's answer) is the truth again.
  const isLiked = pending === "like" ? true : pending === "unlike" ? false : post.isLiked;
  const likes = Math.max(0, post.likes + (isLiked === post.isLiked ? 0 : isLiked ? 1 : -1));

  useEffect(() => {
    if (!isFailure(fetcher.data)) return;
    showToast(
      fetcher.data.status === 401
        ? SIGN_IN_TO_LIKE
        : { title: "Error", description: fetcher.data.error || "Failed to update like", type: "error" },
    );
  }, [fetcher.data]);

  const onSubmit = (event: FormEvent) => {
    if (signedIn) return;
    event.preventDefault();
    showToast(SIGN_IN_TO_LIKE);
  };

  return (
    <fetcher.Form method="post" action={`/post/${post.id}`} onSubmit={onSubmit} preventScrollReset>
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button
        type="submit"
        name="intent"
        value={isLiked ? "unlike" : "like"}
        aria-pressed={isLiked}
        aria-label={`${isLiked ? "Unlike" : "Like"} (${likes} likes)${waiting ? `, ${WAITING_TEXT}` : ""}`}
        title={waiting ? WAITING_TEXT : undefined}
        className={isLiked ? "btn-ghost px-3 text-red-600" : "btn-ghost px-3"}
        data-testid="like-button"
      >
        <HeartIcon filled={isLiked} />
        <span data-testid="like-count">{likes}</span>
        {waiting ? (
          <span className="text-xs text-stone-500" data-testid="like-waiting">
            waiting
          </span>
        ) : null}
      </button>
    </fetcher.Form>
  );
}

const SHARED = { title: "Post shared!", description: "Post link copied to clipboard", type: "success" } as const;

function ShareButton({ post, redirectTo, signedIn }: Props) {
  const fetcher = useFetcher<PostActionData>();

  useEffect(() => {
    if (!fetcher.data || fetcher.data.intent !== "share") return;
    showToast(fetcher.data.ok ? SHARED : { title: "Failed to share", description: "Could not share post", type: "error" });
  }, [fetcher.data]);

  // With JavaScript: copy {origin}/post/{id}, then record the share (members only: the share call
  // needs a signed-in member, a visitor just gets the link).
  const share = async (event: FormEvent | MouseEvent) => {
    event.preventDefault();
    const url = `${window.location.origin}/post/${post.id}`;
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      showToast({ title: "Failed to share", description: "Could not copy link to clipboard", type: "error" });
      return;
    }
    if (!signedIn) {
      showToast(SHARED);
      return;
    }
    void fetcher.submit({ intent: "share", redirectTo }, { method: "post", action: `/post/${post.id}`, preventScrollReset: true });
  };

  // The name holds the visible count (WCAG label-in-name), as the like button's does.
  const shareName = `Share (${post.shares} ${post.shares === 1 ? "share" : "shares"})`;
  const label = (
    <>
      <ShareIcon />
      <span data-testid="share-count">{post.shares}</span>
    </>
  );

  // Without JavaScript a visitor is shown the link to copy; a member's share is recorded first.
  if (!signedIn) {
    return (
      <Link to={`/post/${post.id}?shared=1`} onClick={share} className="btn-ghost px-3" aria-label={shareName} data-testid="share-button">
        {label}
      </Link>
    );
  }
  return (
    <fetcher.Form method="post" action={`/post/${post.id}`} onSubmit={share}>
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button
        type="submit"
        name="intent"
        value="share"
        className="btn-ghost px-3"
        aria-label={shareName}
        disabled={fetcher.state !== "idle"}
        data-testid="share-button"
      >
        {label}
      </button>
    </fetcher.Form>
  );
}

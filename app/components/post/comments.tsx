import { Link, useActionData, useFetcher } from "@remix-run/react";
import { useEffect, useRef, type FormEvent } from "react";
import { SIGN_IN } from "~/schemas/messages";
import { isFailure, type PostActionData } from "~/schemas/post-intents";
import { signInHref } from "~/utils/urls";
import { RelativeTime } from "~/components/ui/relative-time";
import { showToast } from "~/components/layout/toaster";
import { Avatar } from "~/components/ui/avatar";
import { FieldErrors } from "~/components/ui/field";
import type { Comment } from "~/schemas/shapes";

/**
 * The comment section at /post/{id}#comments (SPEC.md §2): oldest first, each author may delete
 * their own, and a form to add one. Visitors get the 'Sign in required' notice instead of the form.
 */
export function Comments({ postId, comments, viewerId }: { postId: number; comments: Comment[]; viewerId: number | null }) {
  return (
    <section id="comments" className="scroll-mt-20" aria-labelledby="comments-title">
      <h2 id="comments-title" className="text-lg font-bold text-bark-900">
        Comments ({comments.length})
      </h2>
      {comments.length ? (
        <ol className="mt-4 space-y-3" data-testid="comment-list">
          {comments.map((comment) => (
            <CommentItem key={comment.id} postId={postId} comment={comment} isOwn={viewerId === comment.author.id} />
          ))}
        </ol>
      ) : (
        <p className="mt-3 text-sm text-stone-500">No comments yet. Start the conversation.</p>
      )}
      <div className="mt-5">
        {viewerId !== null ? (
          <CommentForm postId={postId} />
        ) : (
          <div className="rounded-lg border border-bark-100 bg-bark-50 p-4" role="note" data-testid="comment-signin">
            <p className="font-semibold text-bark-900">Sign in required</p>
            <p className="mt-1 text-sm text-stone-600">{SIGN_IN.comment}</p>
            <Link to={signInHref(`/post/${postId}#comments`)} className="btn-primary mt-3">
              Sign In
            </Link>
          </div>
        )}
      </div>
    </section>
  );
}

function CommentItem({ postId, comment, isOwn }: { postId: number; comment: Comment; isOwn: boolean }) {
  const fetcher = useFetcher<PostActionData>();
  useEffect(() => {
    if (isFailure(fetcher.data)) {
      showToast({ title: "Error", description: fetcher.data.error || "Failed to delete comment", type: "error" });
    }
  }, [fetcher.data]);
  // Optimistic: a comment being deleted disappears at once; a failure brings it back.
  if (fetcher.formData?.get("intent") === "delete-comment") return null;
  return (
    <li className="flex gap-3 rounded-lg bg-white p-3 ring-1 ring-stone-200" data-testid="comment">
      <Avatar src={comment.author.avatar} name={comment.author.displayName} size={32} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline gap-x-2 text-sm">
          <Link to={`/profile/${comment.author.username}`} className="font-semibold text-bark-900 hover:underline">
            {comment.author.displayName}
          </Link>
          <span className="text-stone-500">@{comment.author.username}</span>
          <RelativeTime iso={comment.createdAt} className="text-stone-500" />
        </div>
        <p className="mt-1 whitespace-pre-line text-stone-800 wrap-anywhere">{comment.content}</p>
      </div>
      {isOwn ? (
        <fetcher.Form method="post" action={`/post/${postId}`} preventScrollReset>
          <input type="hidden" name="commentId" value={comment.id} />
          <input type="hidden" name="redirectTo" value={`/post/${postId}#comments`} />
          <button
            type="submit"
            name="intent"
            value="delete-comment"
            className="btn-ghost px-2 py-1 text-xs text-red-700"
            aria-label="Delete comment"
          >
            Delete
          </button>
        </fetcher.Form>
      ) : null}
    </li>
  );
}

function CommentForm({ postId }: { postId: number }) {
  const fetcher = useFetcher<PostActionData>();
  const pageData = useActionData<PostActionData>();
  const formRef = useRef<HTMLFormElement>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  // The no-JavaScript post lands back here with the page's action data; a fetcher has its own.
  const data = fetcher.data ?? pageData;
  const failure = isFailure(data) && data.intent === "comment" ? data : undefined;
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || fetcher.data.intent !== "comment") return;
    if (fetcher.data.ok) {
      formRef.current?.reset();
      textRef.current?.focus();
    } else if (isFailure(fetcher.data) && fetcher.data.status === 401) {
      showToast({ title: "Failed to comment", description: SIGN_IN.comment, type: "error" });
    }
  }, [fetcher.state, fetcher.data]);

  // SPEC.md §5: a whitespace-only comment is ignored; the box keeps focus.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const content = new FormData(event.currentTarget).get("content");
    if (typeof content !== "string" || content.trim() === "") {
      event.preventDefault();
      textRef.current?.focus();
    }
  };

  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action={`/post/${postId}`}
      onSubmit={onSubmit}
      preventScrollReset
      className="space-y-2"
      aria-label="Add a comment"
    >
      <input type="hidden" name="redirectTo" value={`/post/${postId}#comments`} />
      <label htmlFor="comment-content" className="label">
        Add a comment
      </label>
      <textarea
        ref={textRef}
        id="comment-content"
        name="content"
        rows={3}
        maxLength={2000}
        className="input"
        placeholder="Share your thoughts..."
        defaultValue={failure?.content ?? ""}
        aria-invalid={failure ? true : undefined}
        aria-describedby={failure ? "comment-content-error" : undefined}
      />
      <FieldErrors id="comment-content-error" errors={failure ? [failure.error] : null} />
      <div className="flex justify-end">
        <button type="submit" name="intent" value="comment" className="btn-primary" disabled={busy}>
          {busy ? "Posting..." : "Post Comment"}
        </button>
      </div>
    </fetcher.Form>
  );
}

import { Form, Link, useActionData, useFetcher, useSearchParams } from "react-router";
import { ReportLink } from "~/components/moderation/report";
import { showsModeration, StaffForms } from "~/components/moderation/staff-forms";
import { HiddenNotice } from "./card";
import { IdempotencyKeyInput } from "~/components/ui/idempotency-key";
import { useEffect, useRef, useState, type FormEvent, type MouseEvent } from "react";
import { SIGN_IN } from "~/schemas/messages";
import { isFailure, type PostActionData } from "~/schemas/post-intents";
import { signInHref } from "~/utils/urls";
import { RelativeTime } from "~/components/ui/relative-time";
import { showToast } from "~/components/layout/toaster";
import { Avatar } from "~/components/ui/avatar";
import { FieldErrors } from "~/components/ui/field";
import { DraftNote } from "~/components/ui/draft-note";
import { useDraft } from "~/components/ui/use-draft";
import { useTargeted } from "~/components/ui/use-targeted";
import { DeleteConfirmForm, DialogForm } from "~/components/ui/dialog-form";
import { useDialogForm } from "~/components/ui/dialog-form-state";
import { useIsPending } from "~/utils/remix";
import { isQueued } from "~/utils/revalidation";
import { markKeyUsed } from "~/utils/idempotency";
import { WaitingComments } from "~/components/ui/outbox-note";
import { MentionText } from "./mention-text";
import { MentionAssist } from "./mention-assist";
import type { Comment, PostAuthor } from "~/schemas/shapes";

/** One page of comments as the post page's loader sends it (`?comments=<cursor>` picks the page). */
export type CommentsPage = { comments: Comment[]; from: string | null; next: string | null };

/**
 * The comment section at /post/{id}#comments (SPEC.md §2): oldest first, one page at a time. 'Show
 * more comments' is a link to the next page (`?comments=<cursor>#comments`, a plain page without
 * JavaScript); with JavaScript the next page is loaded and added in place. A comment the member adds
 * shows at once: at the end of the list, or after 'Show more' while pages lie between. Each author
 * may edit and delete (after a confirmation) their own. Visitors get the 'Sign in required' notice
 * instead of the form. Render it with `key` = post id and page, so a new page starts afresh.
 */
export function Comments({
  postId,
  author,
  page,
  total,
  viewerId,
  moderates = null,
  cannotComment = null,
}: {
  postId: number;
  /** The post's author: with the commenters, the people a mention is first offered (mention-suggestions.tsx). */
  author?: PostAuthor;
  page: CommentsPage;
  total: number;
  viewerId: number | null;
  /** Why the viewer may not comment here (the post's author blocked them): said instead of a box that cannot work. */
  cannotComment?: string | null;
  /** As whom the viewer may remove and restore comments here: site staff, or the club's staff. */
  moderates?: "site" | "club" | null;
}) {
  const more = useMorePages(postId, page);
  const [mine, setMine] = useState<Comment[]>([]);
  const shown = [...page.comments, ...more.comments.filter((c) => !page.comments.some((p) => p.id === c.id))];
  // While the loader's page reaches the end of the thread its data is the truth (a deleted comment
  // goes); only past an unopened page, or after pages loaded in place, are added comments kept here.
  const gap = more.next !== null || more.comments.length > 0;
  const tail = gap ? mine.filter((c) => !shown.some((s) => s.id === c.id)) : [];
  const people = [author, ...shown.map((c) => c.author)].filter((p): p is PostAuthor => !!p && p.id !== viewerId);
  const item = (comment: Comment) => (
    <CommentItem
      key={comment.id}
      postId={postId}
      comment={comment}
      isOwn={viewerId === comment.author.id}
      moderates={moderates && showsModeration(moderates, comment.author.id, viewerId) ? moderates : null}
      people={people}
    />
  );
  return (
    <section id="comments" className="scroll-mt-20" aria-labelledby="comments-title">
      <h2 id="comments-title" className="text-lg font-bold text-bark-900">
        Comments ({Math.max(total, shown.length)})
      </h2>
      {page.from ? (
        <Link to={`/post/${postId}#comments`} className="mt-2 inline-block text-sm font-medium text-field-700 hover:underline">
          Show the first comments
        </Link>
      ) : null}
      {shown.length ? (
        <ol className="mt-4 space-y-3" data-testid="comment-list">
          {shown.map(item)}
        </ol>
      ) : (
        <p className="mt-3 text-sm text-stone-500">No comments yet. Start the conversation.</p>
      )}
      {more.next ? (
        <Link
          to={`/post/${postId}?comments=${more.next}#comments`}
          onClick={more.load}
          preventScrollReset
          className="btn-secondary mt-3"
          data-testid="more-comments"
          aria-disabled={more.loading || undefined}
        >
          {more.loading ? "Loading comments..." : "Show more comments"}
        </Link>
      ) : null}
      {tail.length ? (
        <ol className="mt-3 space-y-3" data-testid="comment-list-added">
          {tail.map(item)}
        </ol>
      ) : null}
      <WaitingComments postId={postId} />
      <div className="mt-5">
        {viewerId !== null ? (
          <CommentForm
            postId={postId}
            cannotComment={cannotComment}
            people={people}
            onAdded={(comment) => setMine((list) => (list.some((c) => c.id === comment.id) ? list : [...list, comment]))}
          />
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

/**
 * The pages loaded in place after the loader's one: 'Show more' fetches the post page's data at the
 * next cursor and adds its comments; without a script the link simply opens that page.
 */
function useMorePages(postId: number, page: CommentsPage) {
  const fetcher = useFetcher<{ comments: Comment[]; nextComments: string | null }>();
  const [loaded, setLoaded] = useState<{ comments: Comment[]; next: string | null } | null>(null);
  useEffect(() => {
    const data = fetcher.data;
    if (fetcher.state !== "idle" || !data || !Array.isArray(data.comments)) return;
    setLoaded((prev) => {
      const have = prev?.comments ?? [];
      return { comments: [...have, ...data.comments.filter((c) => !have.some((h) => h.id === c.id))], next: data.nextComments };
    });
  }, [fetcher.state, fetcher.data]);
  const next = loaded ? loaded.next : page.next;
  const loading = fetcher.state !== "idle";
  const load = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    if (!loading && next) void fetcher.load(`/post/${postId}?comments=${next}`);
  };
  return { comments: loaded?.comments ?? [], next, loading, load };
}

function CommentItem({
  postId,
  comment,
  isOwn,
  moderates,
  people,
}: {
  postId: number;
  comment: Comment;
  isOwn: boolean;
  moderates: "site" | "club" | null;
  people: PostAuthor[];
}) {
  const [params] = useSearchParams();
  const editing = isOwn && params.get("edit-comment") === String(comment.id);
  const targeted = useTargeted(`comment-${comment.id}`);
  return (
    <li
      id={`comment-${comment.id}`}
      className="comment-card flex scroll-mt-20 gap-3 rounded-lg bg-white p-3 ring-1 ring-stone-200"
      data-testid="comment"
      data-targeted={targeted ? "" : undefined}
    >
      <Avatar src={comment.author.avatar} name={comment.author.displayName} size={32} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline gap-x-2 text-sm">
          <Link to={`/profile/${comment.author.username}`} className="tap-pad font-semibold text-bark-900 hover:underline">
            {comment.author.displayName}
          </Link>
          <span className="text-stone-500">@{comment.author.username}</span>
          <RelativeTime iso={comment.createdAt} className="text-stone-500" />
        </div>
        {comment.hidden ? <HiddenNotice hidden={comment.hidden} what="comment" /> : null}
        {editing ? (
          <CommentEditForm postId={postId} comment={comment} people={people} />
        ) : (
          <p className="mt-1 whitespace-pre-line text-stone-800 wrap-anywhere">
            <MentionText text={comment.content} mentions={comment.mentions} />
          </p>
        )}
        {isOwn && !editing ? <CommentOwnerActions postId={postId} comment={comment} /> : null}
        {isOwn ? null : (
          <ReportLink type="comment" id={comment.id} className="tap mt-1 inline-block text-xs text-stone-500 hover:underline" />
        )}
        {moderates ? <StaffForms postId={postId} commentId={comment.id} hidden={comment.hidden} as={moderates} /> : null}
      </div>
    </li>
  );
}

/**
 * The author's Edit (a link to ?edit-comment={id}: the form replaces the text, with or without
 * JavaScript) and Delete (a confirmation: a dialog with JavaScript, inline at ?delete-comment-{id}=1
 * without it, posting only when confirmed).
 */
function CommentOwnerActions({ postId, comment }: { postId: number; comment: Comment }) {
  const confirm = useDialogForm(`delete-comment-${comment.id}`);
  return (
    <>
      <div className="mt-1 flex gap-3 text-xs max-sm:gap-4">
        <Link
          to={`/post/${postId}?edit-comment=${comment.id}#comment-${comment.id}`}
          preventScrollReset
          className="tap font-medium text-field-700 hover:underline max-sm:justify-center"
          aria-label="Edit comment"
        >
          Edit
        </Link>
        <Link
          to={`/post/${postId}?${confirm.param}=1#comment-${comment.id}`}
          preventScrollReset
          {...confirm.triggerProps}
          className="tap font-medium text-red-700 hover:underline max-sm:justify-center"
          aria-label="Delete comment"
        >
          Delete
        </Link>
      </div>
      <DialogForm<PostActionData>
        dialog={confirm}
        title="Delete Comment"
        description="Are you sure you want to delete this comment? This action cannot be undone."
        role="alertdialog"
        action={`/post/${postId}`}
        intent="delete-comment"
        closeHref={`/post/${postId}#comment-${comment.id}`}
        succeeded={(data) => data.intent === "delete-comment" && data.ok}
        className="mt-2"
      >
        {(form) => (
          <>
            {isFailure(form.data) ? <FieldErrors errors={[form.data.error]} /> : null}
            <DeleteConfirmForm form={form} intent="delete-comment" fields={<input type="hidden" name="commentId" value={comment.id} />} />
          </>
        )}
      </DialogForm>
    </>
  );
}

/** Edit one's own comment in place: Save posts `update-comment`; a refusal keeps what was typed. */
function CommentEditForm({ postId, comment, people }: { postId: number; comment: Comment; people: PostAuthor[] }) {
  const data = useActionData<PostActionData>();
  const busy = useIsPending({ intent: "update-comment" });
  const failure = isFailure(data) && data.intent === "update-comment" && data.commentId === comment.id ? data : undefined;
  const fieldId = `comment-${comment.id}-edit`;
  // Opened from its Edit link: the text is where the member types next.
  const textRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => textRef.current?.focus(), []);
  return (
    <Form
      method="post"
      action={`/post/${postId}?edit-comment=${comment.id}`}
      preventScrollReset
      className="mt-2 space-y-2"
      aria-label="Edit comment"
    >
      <input type="hidden" name="commentId" value={comment.id} />
      <label htmlFor={fieldId} className="sr-only">
        Comment
      </label>
      <textarea
        id={fieldId}
        name="content"
        rows={3}
        maxLength={2000}
        className="input"
        defaultValue={failure?.content ?? comment.content}
        aria-invalid={failure ? true : undefined}
        aria-describedby={failure ? `${fieldId}-error` : undefined}
        ref={textRef}
      />
      <MentionAssist fieldId={fieldId} people={people} />
      <FieldErrors id={`${fieldId}-error`} errors={failure ? [failure.error] : null} />
      <div className="flex justify-end gap-2">
        <Link to={`/post/${postId}#comment-${comment.id}`} preventScrollReset className="btn-secondary">
          Cancel
        </Link>
        <button type="submit" name="intent" value="update-comment" className="btn-primary" disabled={busy}>
          {busy ? "Saving..." : "Save"}
        </button>
      </div>
    </Form>
  );
}

function CommentForm({
  postId,
  onAdded,
  cannotComment,
  people,
}: {
  postId: number;
  onAdded: (comment: Comment) => void;
  cannotComment: string | null;
  people: PostAuthor[];
}) {
  const fetcher = useFetcher<PostActionData>();
  const pageData = useActionData<PostActionData>();
  const formRef = useRef<HTMLFormElement>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  // The no-JavaScript post lands back here with the page's action data; a fetcher has its own.
  const data = fetcher.data ?? pageData;
  const failure = isFailure(data) && data.intent === "comment" ? data : undefined;
  const busy = fetcher.state !== "idle";
  const formId = `comment-form-${postId}`;
  const draft = useDraft({ formId, name: `comment:${postId}`, fields: ["content"], skipRestore: Boolean(failure) });
  const { clear } = draft;
  const added = useRef(onAdded);
  added.current = onAdded;

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    // No signal: the comment waits in the outbox (shown under the others); the box is free for the next.
    if (isQueued(fetcher.data)) {
      if (formRef.current) markKeyUsed(new FormData(formRef.current));
      clear();
      formRef.current?.reset();
      return;
    }
    if (fetcher.data.intent !== "comment") return;
    if (fetcher.data.ok) {
      if (fetcher.data.comment) added.current(fetcher.data.comment);
      clear();
      formRef.current?.reset();
      textRef.current?.focus();
    } else if (isFailure(fetcher.data) && fetcher.data.status === 401) {
      showToast({ title: "Failed to comment", description: SIGN_IN.comment, type: "error" });
    }
  }, [fetcher.state, fetcher.data, clear]);

  // The author blocked the viewer: say so instead of a box that cannot work, unless a comment was
  // just refused, whose text stays in the box beside the reason for the member to keep.
  if (cannotComment && !failure) {
    return (
      <p className="rounded-lg border border-stone-200 bg-stone-50 p-4 text-sm text-stone-700" role="note" data-testid="comment-blocked">
        {cannotComment}
      </p>
    );
  }

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
      id={formId}
      method="post"
      // Without JavaScript a refusal is a new page: its fragment opens it at this form, where the
      // message and the kept text are, not at the post's top (ux-3 U2). A success redirects to #comments.
      action={`/post/${postId}#${formId}`}
      onSubmit={onSubmit}
      preventScrollReset
      className="scroll-mt-20 space-y-2"
      aria-label="Add a comment"
    >
      <input type="hidden" name="redirectTo" value={`/post/${postId}#comments`} />
      <IdempotencyKeyInput />
      <label htmlFor="comment-content" className="label">
        Add a comment
      </label>
      <DraftNote draft={draft} />
      <textarea
        key={draft.version}
        ref={textRef}
        id="comment-content"
        name="content"
        rows={3}
        maxLength={2000}
        className="input"
        placeholder="Share your thoughts..."
        defaultValue={failure?.content ?? draft.value("content") ?? ""}
        aria-invalid={failure ? true : undefined}
        aria-describedby={failure ? "comment-content-error" : undefined}
      />
      <MentionAssist fieldId="comment-content" people={people} />
      <FieldErrors id="comment-content-error" errors={failure ? [failure.error] : null} />
      <div className="flex justify-end">
        <button type="submit" name="intent" value="comment" className="btn-primary" disabled={busy}>
          {busy ? "Posting..." : "Post Comment"}
        </button>
      </div>
    </fetcher.Form>
  );
}

import type { MetaFunction } from "react-router";
import { Link, useLoaderData, useSearchParams } from "react-router";
import { useState, type ComponentType } from "react";
import { showsModeration, StaffForms } from "~/components/moderation/staff-forms";
import { Comments } from "~/components/post/comments";
import { PostActions } from "~/components/post/actions";
import { HiddenNotice, PostAttachments, PostHeader } from "~/components/post/card";
import { FieldReportLine } from "~/components/post/field-report-line";
import { DialogsFormPage } from "~/components/post/owner-menu";
import { MentionText } from "~/components/post/mention-text";
import type PostDialogsPart from "~/components/post/dialogs";
import { useDialogForm } from "~/components/ui/dialog-form-state";
import { lazyPagePart } from "~/components/ui/lazy-page-part";
import { ErrorPanel, GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { POST_NOT_FOUND, SIGN_IN } from "~/schemas/messages";
import { pageMeta } from "~/utils/brand";
import { ignoreSearchParams } from "~/utils/remix";
import { keepPageOnFailure } from "~/offline/client-action";
import { postSendFailed } from "./send-failed";
import type { loader } from "./post-actions.server";
import { importAgain } from "~/utils/import-again";
import { withUnreadTitle } from "~/utils/unread-title";

/** /post/{id}: the post, its comments, and every post mutation (see post-actions.server.ts). */
export { loader, action } from "./post-actions.server";

/** Opening or closing the inline edit/delete/share panels changes no data: no need to reload. */
/**
 * With JavaScript a failed like, share or comment keeps the page and shows SPEC.md §8's toast; one
 * that met an ended session says so (the typed comment stays).
 */
export const clientAction = keepPageOnFailure({
  failed: postSendFailed,
  signIn: (form) => {
    const intent = String(form.get("intent"));
    if (intent === "like" || intent === "unlike") return { title: "Sign in required", description: SIGN_IN.like, type: "error" };
    if (intent.includes("comment")) return { title: "Failed to comment", description: SIGN_IN.comment, type: "error" };
    if (intent === "share") return { title: "Failed to share", description: SIGN_IN.share, type: "error" };
    return null;
  },
  // With no signal a comment or like waits in the outbox and is shown in place as waiting.
  outbox: { label: (form) => (form.get("intent") === "comment" ? "Comment" : "Like") },
});

type DialogsProps = Parameters<typeof PostDialogsPart>[0];

/**
 * The author's Edit Post and Delete Post (dialogs.tsx: the edit form, Conform's field helpers, the
 * draft keeper and DialogForm) are fetched when first needed, not in every reader's first load
 * (issue 26's budget): when a dialog opens, or at ?edit=1 / ?delete=1, where the server draws the form
 * inline and hydration keeps it as drawn until the code is here (lazyPagePart, ADR 0046). Made on
 * first use, so a reader who never edits never asks for the file.
 */
let dialogsPart: ComponentType<DialogsProps> | null = null;
function PostDialogs(props: DialogsProps) {
  const [Part] = useState(
    () =>
      (dialogsPart ??= lazyPagePart<DialogsProps>(
        importAgain(
          () => import("~/components/post/dialogs"),
          (m) => m.default,
        ),
        DialogsFormPage,
      )),
  );
  return <Part {...props} />;
}

export const shouldRevalidate = ignoreSearchParams(["edit", "delete", "shared", "edit-comment", "show"]);

export default function PostPage() {
  const {
    post,
    comments,
    commentsFrom,
    nextComments,
    viewerId,
    shareUrl,
    back: sent,
    moderates,
    blockedAuthor,
    cannotComment,
    fieldPicker,
  } = useLoaderData<typeof loader>();
  // The back link computed when this post was opened: a later reload of the data (after a like or
  // a comment, whose Referer is this page) must not forget where the member came from.
  const [opened, setOpened] = useState({ id: post.id, back: sent });
  if (opened.id !== post.id) setOpened({ id: post.id, back: sent });
  const back = opened.id === post.id ? opened.back : sent;
  const [params] = useSearchParams();
  const isOwner = viewerId !== null && viewerId === post.author.id;
  const dialogs = { edit: useDialogForm("edit"), delete: useDialogForm("delete") };
  const shared = params.has("shared");

  if (blockedAuthor && !params.has("show")) {
    return (
      <div className="mx-auto max-w-3xl space-y-6">
        <BackLink back={back} />
        <BlockedAuthorNote name={post.author.displayName} postId={post.id} />
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <BackLink back={back} />

      {isOwner && (dialogs.edit.open || dialogs.delete.open || params.has(dialogs.edit.param) || params.has(dialogs.delete.param)) ? (
        <PostDialogs post={post} dialogs={dialogs} fieldPicker={fieldPicker} />
      ) : null}

      <article className="card p-6" data-testid="post" aria-labelledby="post-title">
        {post.hidden ? <HiddenNotice hidden={post.hidden} what="post" /> : null}
        <PostHeader post={post} isOwner={isOwner} dialogs={dialogs} />
        <h1 id="post-title" className="mt-5 text-3xl font-bold text-bark-900 wrap-anywhere">
          {post.title}
        </h1>
        <FieldReportLine report={post.field} postedAt={post.createdAt} />
        {/* Text, never HTML: React escapes it (@mentions of members become links); whitespace-pre-line keeps the author's line breaks. */}
        <div className="mt-4 whitespace-pre-line text-lg wrap-anywhere leading-relaxed text-stone-800" data-testid="post-content">
          <MentionText text={post.content} mentions={post.mentions} />
        </div>
        <PostAttachments post={post} variant="page" canFetch />
        <footer className="mt-4 flex flex-wrap items-center justify-between gap-2 border-t border-stone-100 pt-3">
          <PostActions post={post} redirectTo={`/post/${post.id}`} signedIn={viewerId !== null} />
          <p className="text-sm text-stone-500" data-testid="post-counts">
            {post.likes} {post.likes === 1 ? "like" : "likes"} · {post.commentsCount} {post.commentsCount === 1 ? "comment" : "comments"} ·{" "}
            {post.shares} {post.shares === 1 ? "share" : "shares"}
          </p>
        </footer>
        {moderates && showsModeration(moderates, post.author.id, viewerId) ? (
          <StaffForms postId={post.id} hidden={post.hidden} as={moderates} />
        ) : null}
      </article>

      {shared ? (
        <section className="card p-5" aria-labelledby="share-title" data-testid="share-link">
          <h2 id="share-title" className="font-semibold text-bark-900">
            Share this post
          </h2>
          <label htmlFor="share-url" className="mt-2 block text-sm text-stone-600">
            Copy this link:
          </label>
          <input id="share-url" readOnly value={shareUrl} className="input mt-1 font-mono" />
        </section>
      ) : null}

      <div className="card p-6">
        <Comments
          key={`${post.id}:${commentsFrom ?? ""}`}
          postId={post.id}
          author={post.author}
          page={{ comments, from: commentsFrom, next: nextComments }}
          total={post.commentsCount}
          viewerId={viewerId}
          moderates={moderates}
          cannotComment={cannotComment}
        />
      </div>
    </div>
  );
}

function BackLink({ back }: { back: { href: string; label: string } }) {
  return (
    <Link
      to={back.href}
      className="tap inline-flex items-center gap-1 text-sm font-medium text-field-700 hover:underline"
      data-testid="back-link"
    >
      ← {back.label}
    </Link>
  );
}

/**
 * A post by a member the viewer blocked, opened by its address (an old link, a notification): it is
 * hidden from them everywhere else (CONTRACT.md §8), so the page says why before it shows it, as the
 * author's profile does (ux-3 U9). "Show anyway" is a plain link: it changes nothing but this view.
 */
function BlockedAuthorNote({ name, postId }: { name: string; postId: number }) {
  return (
    <section className="card p-6 text-center" role="note" data-testid="blocked-author-note">
      <h1 className="text-lg font-semibold text-bark-900">You blocked {name}: this post is hidden from you.</h1>
      <p className="mt-2 text-sm text-stone-600">Their posts and comments stay out of your feed, searches and threads.</p>
      <div className="mt-4 flex flex-wrap justify-center gap-3">
        <Link to={`/post/${postId}?show=1`} className="btn-secondary">
          Show anyway
        </Link>
        <Link to="/settings?tab=privacy" className="btn-secondary">
          Manage blocked members
        </Link>
      </div>
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = withUnreadTitle<typeof loader>(({ data }) => {
  if (!data) return pageMeta(POST_NOT_FOUND);
  const description = data.post.content.slice(0, 160);
  return [
    ...pageMeta(data.post.title, description),
    { property: "og:title", content: data.post.title },
    { property: "og:description", content: description },
  ];
});

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => (
          <ErrorPanel title={POST_NOT_FOUND}>
            <span className="block">The post you're looking for doesn't exist.</span>
            <Link to="/" className="btn-primary mt-6">
              Back to feed
            </Link>
          </ErrorPanel>
        ),
      }}
    />
  );
}

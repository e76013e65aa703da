import type { MetaFunction } from "react-router";
import { Form, Link, useActionData, useLoaderData } from "react-router";
import { hiddenNoticeText } from "~/schemas/messages";
import { ModerationForms } from "~/components/moderation/removal";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { pageMeta } from "~/utils/brand";
import type { moderationPageAction, moderationPageLoader } from "~/web/moderation-page.server";
import { withUnreadTitle } from "~/utils/unread-title";

/**
 * /post/{id}/moderate (?comment={id}): remove a post or comment with a reason, or restore it, as a
 * page of its own: where the post page's small forms land when the reason was left out (with what
 * was typed), and what staff reach without JavaScript. A decision goes back to the post.
 */
export { moderationPageLoader as loader, moderationPageAction as action } from "~/web/moderation-page.server";

export default function ModeratePage() {
  const { postId, target, label, hidden, as, sensitive } = useLoaderData<typeof moderationPageLoader>();
  const failed = useActionData<typeof moderationPageAction>();
  const failure = failed && "reason" in failed ? failed : null;
  const error = failure?.fieldErrors.reason?.[0] ?? (failed && "error" in failed ? failed.error : undefined);
  return (
    <div className="mx-auto max-w-2xl space-y-4">
      <Link to={`/post/${postId}`} className="tap text-sm font-medium text-field-700 hover:underline">
        ← Back to the post
      </Link>
      <section className="card space-y-3 p-6" aria-labelledby="moderate-title">
        <h1 id="moderate-title" className="text-xl font-bold text-bark-900">
          {target.type === "post" ? "Moderate this post" : "Moderate this comment"}
        </h1>
        <p className="whitespace-pre-line text-stone-700 wrap-anywhere">{label}</p>
        {/* The author's notice, in the staff's words for the decision at hand (not the card's part: that would split the feed's files). */}
        {hidden ? (
          <p className="hidden-notice" data-testid={`${target.type}-hidden-notice`}>
            Now: {hiddenNoticeText(hidden)}
          </p>
        ) : null}
        <ModerationForms
          postId={postId}
          commentId={target.type === "comment" ? target.id : undefined}
          hidden={hidden}
          as={as}
          reason={failure?.reason}
          error={error}
        />
        {target.type === "post" ? <SensitiveMarkForm postId={postId} sensitive={sensitive} /> : null}
      </section>
    </div>
  );
}

/**
 * The staff's "graphic photo" mark on a post (CONTRACT.md §14, ADR 0091): a plain form to this page's
 * action, which logs it and goes back to the post. Here rather than on the post page, whose first
 * load every reader pays for.
 */
function SensitiveMarkForm({ postId, sensitive }: { postId: number; sensitive: boolean }) {
  return (
    <Form method="post" action={`/post/${postId}/moderate`} className="border-t border-stone-100 pt-3" data-testid="post-sensitive-form">
      <p className="mb-2 text-sm text-stone-700">
        {sensitive
          ? "Marked as a graphic photo: its pictures wait behind “Show photo”."
          : "Not marked as a graphic photo. Mark it to put its pictures behind “Show photo”."}
      </p>
      <button type="submit" name="intent" value={sensitive ? "unmark-sensitive" : "mark-sensitive"} className="btn-secondary text-sm">
        {sensitive ? "Unmark" : "Mark"} graphic photo
      </button>
    </Form>
  );
}

export const meta: MetaFunction = withUnreadTitle(() => pageMeta("Moderate"));

export const ErrorBoundary = GeneralErrorBoundary;

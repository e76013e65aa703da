import { Form } from "react-router";
import type { HiddenNotice as Hidden } from "~/schemas/shapes";

/**
 * Removal as the staff handle it (CONTRACT.md §8): the staff's small Remove (with a reason) and
 * Restore forms (the notice the author reads is hidden-notice.tsx). Plain forms posting to
 * /post/{id}/moderate, which goes back to the post: they work the same with JavaScript off and on.
 */

export const SITE_REMOVAL_NOTE = "Removed by a site moderator: only the site's moderators can restore it.";

/**
 * The staff's decision on a post (no commentId) or one of its comments: Restore on hidden content,
 * else a folded Remove form that asks for the reason the author will read.
 */
export function ModerationForms({
  postId,
  commentId,
  hidden,
  reason = "",
  error,
  as = "site",
}: {
  postId: number;
  commentId?: number;
  hidden: Hidden | null | undefined;
  reason?: string;
  error?: string;
  /** As whom the viewer moderates here: the club's staff cannot undo a site removal. */
  as?: "site" | "club";
}) {
  const what = commentId === undefined ? "post" : "comment";
  const action = `/post/${postId}/moderate`;
  const target = commentId === undefined ? null : <input type="hidden" name="comment" value={commentId} />;
  if (hidden?.by === "site" && as === "club") {
    return (
      <p className="mt-2 text-sm text-stone-600" data-testid={`${what}-site-removal`}>
        {SITE_REMOVAL_NOTE}
      </p>
    );
  }
  if (hidden) {
    return (
      <Form method="post" action={action} className="mt-2" data-testid={`${what}-restore-form`}>
        {target}
        <button type="submit" name="intent" value="restore" className="btn-secondary text-sm">
          Restore {what}
        </button>
      </Form>
    );
  }
  const fieldId = `remove-reason-${what}-${commentId ?? postId}`;
  return (
    <details className="mt-2 text-sm" open={Boolean(error)} data-testid={`${what}-remove`}>
      <summary className="tap cursor-pointer text-stone-500 hover:text-stone-800">Remove…</summary>
      <Form method="post" action={action} className="mt-2 space-y-2" data-testid={`${what}-remove-form`}>
        {target}
        <label htmlFor={fieldId} className="block font-medium text-bark-900">
          Reason (the author will see it)
        </label>
        <textarea
          id={fieldId}
          name="reason"
          rows={2}
          maxLength={500}
          defaultValue={reason}
          className="input"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fieldId}-error` : undefined}
        />
        {error ? (
          <p id={`${fieldId}-error`} className="text-sm text-red-700" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" name="intent" value="remove" className="btn-secondary text-sm">
          Remove {what}
        </button>
        {target ? null : (
          // The post's "graphic photo" mark (CONTRACT.md §14) is on its moderate page, out of every reader's first load.
          <a href={action} className="tap ml-3 text-field-700 underline">
            Graphic photo mark
          </a>
        )}
      </Form>
    </details>
  );
}

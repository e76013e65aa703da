import { Form, Link, useFetcher } from "@remix-run/react";
import type { ReactNode } from "react";
import { useIsPending } from "~/utils/remix";

/**
 * Deleting a post: the confirmation's texts and its form, shared by the inline /post/{id}?delete=1
 * page (no JavaScript) and the Delete Post dialog (dialogs.tsx).
 */

export const DELETE_TITLE = "Delete Post";
export const DELETE_TEXT = "Are you sure you want to delete this post? This action cannot be undone.";

/**
 * The Delete button of the confirmation. `mode="page"` is the /post/{id}?delete=1 inline form; the
 * dialog posts through a fetcher. Either way the action redirects to / with 'Post deleted'.
 */
export function DeletePostForm({ postId, mode, cancel }: { postId: number; mode: "page" | "dialog"; cancel: ReactNode }) {
  const fetcher = useFetcher();
  const submitting = useIsPending({ intent: "delete" });
  const busy = mode === "dialog" ? fetcher.state !== "idle" : submitting;
  const FormTag = mode === "dialog" ? fetcher.Form : Form;
  return (
    <FormTag method="post" action={`/post/${postId}`} className="flex justify-end gap-3">
      {cancel}
      <button type="submit" name="intent" value="delete" className="btn-danger" disabled={busy}>
        {busy ? "Deleting..." : "Delete"}
      </button>
    </FormTag>
  );
}

/** The no-JavaScript confirmation shown inline at /post/{id}?delete=1. */
export function InlineDeleteConfirm({ postId }: { postId: number }) {
  return (
    <section className="card border-red-200 p-5" role="alertdialog" aria-labelledby="delete-title" aria-describedby="delete-text">
      <h2 id="delete-title" className="text-lg font-bold text-bark-900">
        {DELETE_TITLE}
      </h2>
      <p id="delete-text" className="mt-2 text-sm text-stone-600">
        {DELETE_TEXT}
      </p>
      <div className="mt-4">
        <DeletePostForm
          postId={postId}
          mode="page"
          cancel={
            <Link to={`/post/${postId}`} className="btn-secondary" preventScrollReset>
              Cancel
            </Link>
          }
        />
      </div>
    </section>
  );
}

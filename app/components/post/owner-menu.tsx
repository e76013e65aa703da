import { Form, Link, useFetcher, useNavigation } from "@remix-run/react";
import { lazy, Suspense, useCallback, useRef, useState, type MouseEvent, type ReactNode } from "react";
import type { Post } from "~/models/post.server";
import { DotsIcon } from "~/components/ui/icons";

type EditablePost = Pick<Post, "id" | "title" | "content" | "type" | "mediaUrl" | "tags">;

// The dialogs (Radix and the edit form) load only when an author opens one, so the feed's
// JavaScript stays small for everyone; opening the menu starts the download.
const loadDialogs = () => import("./dialogs");
const PostDialogs = lazy(loadDialogs);

export const DELETE_TITLE = "Delete Post";
export const DELETE_TEXT = "Are you sure you want to delete this post? This action cannot be undone.";

/**
 * The author-only menu (SPEC.md §2): a <details> element, so it opens without JavaScript, holding
 * links to /post/{id}?edit=1 and ?delete=1 (the no-JavaScript forms). With JavaScript the links open
 * the Radix dialogs (post-dialogs.tsx) in place instead.
 */
export function PostOwnerMenu({ post }: { post: EditablePost }) {
  const [dialog, setDialog] = useState<"edit" | "delete" | null>(null);
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const close = useCallback(() => setDialog(null), []);
  const open = (which: "edit" | "delete") => (event: MouseEvent) => {
    event.preventDefault();
    detailsRef.current?.removeAttribute("open");
    setDialog(which);
  };

  return (
    <>
      <details ref={detailsRef} className="relative" data-testid="post-owner-menu" onToggle={() => void loadDialogs()}>
        <summary
          className="flex cursor-pointer list-none items-center rounded-md p-1.5 text-stone-500 hover:bg-stone-100 hover:text-stone-800 [&::-webkit-details-marker]:hidden"
          aria-label="Post options"
        >
          <DotsIcon />
        </summary>
        <div className="absolute right-0 z-20 mt-1 w-40 rounded-lg border border-stone-200 bg-white py-1 text-sm shadow-lg">
          <Link to={`/post/${post.id}?edit=1`} onClick={open("edit")} className="block px-4 py-2 hover:bg-stone-100">
            Edit Post
          </Link>
          <Link to={`/post/${post.id}?delete=1`} onClick={open("delete")} className="block px-4 py-2 text-red-700 hover:bg-red-50">
            Delete Post
          </Link>
        </div>
      </details>

      {dialog ? (
        <Suspense fallback={null}>
          <PostDialogs post={post} dialog={dialog} onClose={close} />
        </Suspense>
      ) : null}
    </>
  );
}

/**
 * The Delete button of the confirmation. `mode="page"` is the /post/{id}?delete=1 inline form; the
 * dialog posts through a fetcher. Either way the action redirects to / with 'Post deleted'.
 */
export function DeletePostForm({ postId, mode, cancel }: { postId: number; mode: "page" | "dialog"; cancel: ReactNode }) {
  const fetcher = useFetcher();
  const navigation = useNavigation();
  const busy =
    mode === "dialog"
      ? fetcher.state !== "idle"
      : navigation.state !== "idle" && navigation.formData?.get("intent") === "delete";
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

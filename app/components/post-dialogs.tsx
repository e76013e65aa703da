import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import type { Post } from "~/models/post.server";
import { PostEditForm } from "./post-edit-form";
import { DELETE_TEXT, DELETE_TITLE, DeletePostForm } from "./post-owner-menu";

type EditablePost = Pick<Post, "id" | "title" | "content" | "type" | "mediaUrl" | "tags">;

/**
 * The author's Edit Post and Delete Post dialogs (SPEC.md §2), opened from the post menu when
 * JavaScript runs. Loaded on demand by post-owner-menu.tsx.
 */
export default function PostDialogs({
  post,
  dialog,
  onClose,
}: {
  post: EditablePost;
  dialog: "edit" | "delete";
  onClose: () => void;
}) {
  const cancel = (
    <Dialog.Close asChild>
      <button type="button" className="btn-secondary">
        Cancel
      </button>
    </Dialog.Close>
  );
  if (dialog === "edit") {
    return (
      <PostDialog onClose={onClose} title="Edit Post">
        <PostEditForm post={post} mode="dialog" onSaved={onClose} cancel={cancel} />
      </PostDialog>
    );
  }
  return (
    <PostDialog onClose={onClose} title={DELETE_TITLE} description={DELETE_TEXT} role="alertdialog">
      <DeletePostForm postId={post.id} mode="dialog" cancel={cancel} />
    </PostDialog>
  );
}

function PostDialog({
  onClose,
  title,
  description,
  role,
  children,
}: {
  onClose: () => void;
  title: string;
  description?: string;
  role?: "alertdialog";
  children: ReactNode;
}) {
  return (
    <Dialog.Root open onOpenChange={(next) => (next ? null : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content
          {...(role ? { role } : {})}
          className="fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl"
        >
          <Dialog.Title className="text-lg font-bold text-bark-900">{title}</Dialog.Title>
          {description ? (
            <Dialog.Description className="mt-2 text-sm text-stone-600">{description}</Dialog.Description>
          ) : (
            <Dialog.Description className="sr-only">Change your post and save it.</Dialog.Description>
          )}
          <div className="mt-4">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}


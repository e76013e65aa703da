import { PostEditForm } from "./edit-form";
import { DialogCancelButton, ModalDialog } from "~/components/ui/dialog";
import { DELETE_TEXT, DELETE_TITLE, DeletePostForm } from "./delete-form";
import type { Post } from "~/schemas/shapes";

type EditablePost = Pick<Post, "id" | "title" | "content" | "type" | "mediaUrl" | "tags">;

/**
 * The author's Edit Post and Delete Post dialogs (SPEC.md §2), opened from the post menu when
 * JavaScript runs. Loaded on demand by owner-menu.tsx.
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
  const cancel = <DialogCancelButton />;
  if (dialog === "edit") {
    return (
      <ModalDialog open onClose={onClose} title="Edit Post" description="Change your post and save it." descriptionHidden>
        <PostEditForm post={post} mode="dialog" onSaved={onClose} cancel={cancel} />
      </ModalDialog>
    );
  }
  return (
    <ModalDialog open onClose={onClose} title={DELETE_TITLE} description={DELETE_TEXT} role="alertdialog">
      <DeletePostForm postId={post.id} mode="dialog" cancel={cancel} />
    </ModalDialog>
  );
}

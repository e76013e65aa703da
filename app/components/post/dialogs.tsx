import { DeleteConfirmForm, DialogForm } from "~/components/ui/dialog-form";
import type { DialogFormState } from "~/components/ui/dialog-form-state";
import type { PostActionData } from "~/schemas/post-intents";
import type { Post } from "~/schemas/shapes";
import { PostEditForm } from "./edit-form";

type EditablePost = Pick<Post, "id" | "title" | "content" | "type" | "mediaUrl" | "tags">;

export type PostDialogStates = { edit: DialogFormState; delete: DialogFormState };

/**
 * The author's Edit Post and Delete Post (SPEC.md §2), each one DialogForm posting to /post/{id}:
 * a dialog opened from the post menu with JavaScript, and inline at /post/{id}?edit=1 / ?delete=1
 * without it. The post page renders them itself; a feed card loads this module on demand
 * (owner-menu.tsx) and shows the dialogs only (`inline={false}`).
 */
export default function PostDialogs({ post, dialogs, inline = true }: { post: EditablePost; dialogs: PostDialogStates; inline?: boolean }) {
  const action = `/post/${post.id}`;
  return (
    <>
      <DialogForm<PostActionData>
        dialog={dialogs.delete}
        title="Delete Post"
        description="Are you sure you want to delete this post? This action cannot be undone."
        role="alertdialog"
        action={action}
        intent="delete"
        inline={inline}
      >
        {(form) => <DeleteConfirmForm form={form} />}
      </DialogForm>
      <DialogForm<PostActionData>
        dialog={dialogs.edit}
        title="Edit Post"
        description="Change your post and save it."
        descriptionHidden
        action={action}
        intent="update"
        succeeded={savedEdit}
        inline={inline}
      >
        {(form) => <PostEditForm post={post} form={form} />}
      </DialogForm>
    </>
  );
}

/** The fetcher's answer to a saved edit (a plain form post is redirected instead). */
const savedEdit = (data: PostActionData) => data.intent === "update" && data.ok;

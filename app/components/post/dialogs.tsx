import { DeleteConfirmForm, DialogForm } from "~/components/ui/dialog-form";
import type { DialogFormState } from "~/components/ui/dialog-form-state";
import type { PostActionData } from "~/schemas/post-intents";
import type { Post } from "~/schemas/shapes";
import type { WithPreview } from "~/utils/preview";
import { PostEditForm } from "./edit-form";
import { useFullPost } from "./full-post";
import type { FieldReportPicker } from "~/schemas/field-report-form";

/** For the post menu, which asks for the full body with this file when it opens (owner-menu.tsx). */
export { preloadFullPost } from "./full-post";

type EditablePost = WithPreview<
  Pick<Post, "id" | "title" | "content" | "type" | "mediaUrl" | "tags" | "sensitive"> & Partial<Pick<Post, "field">>
>;

export type PostDialogStates = { edit: DialogFormState; delete: DialogFormState };

/**
 * The author's Edit Post and Delete Post (SPEC.md §2), each one DialogForm posting to /post/{id}:
 * a dialog opened from the post menu with JavaScript, and inline at /post/{id}?edit=1 / ?delete=1
 * without it. The post page renders them itself; a feed card loads this module on demand
 * (owner-menu.tsx) and shows the dialogs only (`inline={false}`).
 */
export default function PostDialogs({
  post,
  dialogs,
  inline = true,
  fieldPicker,
}: {
  post: EditablePost;
  dialogs: PostDialogStates;
  inline?: boolean;
  /** The edit form's Field report lists without JavaScript (the post page at ?edit=1). */
  fieldPicker?: FieldReportPicker | null;
}) {
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
        {(form) => <EditWithFullBody post={post} form={form} fieldPicker={fieldPicker} />}
      </DialogForm>
    </>
  );
}

/**
 * A card's post is a preview: the form waits for the full body (full-post.ts), so an edit never
 * starts from, or saves, the cut text. Meanwhile the dialog says so and stays usable: Cancel, and
 * the post's own edit page (which loads the full body, with or without JavaScript); a failed read
 * offers Try again.
 */
function EditWithFullBody({
  post,
  form,
  fieldPicker,
}: {
  post: EditablePost;
  form: Parameters<typeof PostEditForm>[0]["form"];
  fieldPicker?: FieldReportPicker | null;
}) {
  const full = useFullPost(post);
  if (full.status === "ready") return <PostEditForm post={full.post} form={form} fieldPicker={fieldPicker} />;
  return (
    <div className="space-y-4" data-testid="edit-post-loading">
      <p role={full.status === "failed" ? "alert" : "status"} className={full.status === "failed" ? "text-red-700" : "text-stone-600"}>
        {full.status === "failed" ? "Could not load the whole post. Check your connection and try again." : "Loading the whole post…"}
      </p>
      <div className="flex flex-wrap items-center justify-end gap-3">
        <a href={`/post/${post.id}?edit=1`} className="text-sm font-medium text-field-700 underline">
          Edit on the post's page
        </a>
        {form.cancel}
        {full.status === "failed" ? (
          <button type="button" className="btn-primary" onClick={full.retry}>
            Try again
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** The fetcher's answer to a saved edit (a plain form post is redirected instead). */
const savedEdit = (data: PostActionData) => data.intent === "update" && data.ok;

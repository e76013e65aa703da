import { Link } from "react-router";
import { Suspense, useEffect, useRef, type MouseEvent } from "react";
import { lazyPart } from "~/components/ui/lazy-part";
import { DotsIcon } from "~/components/ui/icons";
import { preloadDialog, useDialogForm, type DialogFormState } from "~/components/ui/dialog-form-state";
import type { Post } from "~/schemas/shapes";
import type { WithPreview } from "~/utils/preview";
import type { PostDialogStates } from "./dialogs";
import { importAgain } from "~/utils/import-again";

type EditablePost = WithPreview<Pick<Post, "id" | "title" | "content" | "type" | "mediaUrl" | "tags" | "sensitive">>;

// The dialogs (the edit form, and Radix inside DialogForm) load only when an author opens one, so
// the feed's JavaScript stays small for everyone; opening the menu starts the download. Should
// their file not arrive, the post's own page opens at the form asked for (its no-JS twin, drawn by
// the server), as the link would without JavaScript (docs/decisions/0045).
const loadDialogs = importAgain(() => import("./dialogs"));
type DialogsProps = { post: EditablePost; dialogs: PostDialogStates; inline?: boolean };
const PostDialogs = lazyPart<DialogsProps>(() => loadDialogs().then((m) => m.default), DialogsFormPage);

/** Where the dialogs' code did not arrive (no signal, a deploy that replaced it): the server's form page (also the post page's). */
export function DialogsFormPage({ post, dialogs }: DialogsProps) {
  const param = dialogs.delete.open ? "delete" : "edit";
  useEffect(() => {
    window.location.assign(`/post/${post.id}?${param}=1`);
  }, [post.id, param]);
  return null;
}

/**
 * The author-only menu (SPEC.md §2): a <details> element, so it opens without JavaScript, holding
 * links to /post/{id}?edit=1 and ?delete=1 (the no-JavaScript forms). With JavaScript the links open
 * the Edit Post and Delete Post dialogs (dialogs.tsx) in place instead. The post page passes its own
 * `dialogs`, since it renders the forms itself (inline at ?edit=1 too); a feed card has its own.
 */
export function PostOwnerMenu({ post, dialogs }: { post: EditablePost; dialogs?: PostDialogStates }) {
  const own: PostDialogStates = { edit: useDialogForm("edit"), delete: useDialogForm("delete") };
  const { edit, delete: del } = dialogs ?? own;
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const summaryRef = useRef<HTMLElement>(null);
  // The menu folds away as its dialog opens, so focus returns to the ⋯ button (not the hidden link).
  const open = (dialog: DialogFormState) => (event: MouseEvent) => {
    dialog.triggerProps.onClick(event);
    if (!event.defaultPrevented) return;
    detailsRef.current?.removeAttribute("open");
    dialog.trigger.current = summaryRef.current;
  };

  return (
    <>
      <details
        ref={detailsRef}
        className="relative"
        data-testid="post-owner-menu"
        onToggle={() => {
          // A failed early fetch is asked again when a dialog opens (lazyPart). The post page loads
          // the same file on first use too, so it is on its way for either. The full body is asked
          // for through that file (full-post.ts comes with it), not in every card's first load.
          preloadDialog();
          void loadDialogs()
            .then((m) => m.preloadFullPost(post))
            .catch(() => undefined);
        }}
      >
        <summary
          ref={summaryRef}
          className="icon-btn cursor-pointer list-none rounded-md text-stone-500 hover:bg-stone-100 hover:text-stone-800 [&::-webkit-details-marker]:hidden"
          aria-label="Post options"
        >
          <DotsIcon />
        </summary>
        <div className="absolute right-0 z-20 mt-1 w-40 rounded-lg border border-stone-200 bg-white py-1 text-sm shadow-lg">
          <Link to={`/post/${post.id}?edit=1`} onClick={open(edit)} className="block px-4 py-3 hover:bg-stone-100">
            Edit Post
          </Link>
          <Link to={`/post/${post.id}?delete=1`} onClick={open(del)} className="block px-4 py-3 text-red-700 hover:bg-red-50">
            Delete Post
          </Link>
        </div>
      </details>

      {!dialogs && (own.edit.open || own.delete.open) ? (
        <Suspense fallback={null}>
          <PostDialogs post={post} dialogs={own} inline={false} />
        </Suspense>
      ) : null}
    </>
  );
}

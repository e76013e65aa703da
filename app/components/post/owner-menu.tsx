import { Link } from "@remix-run/react";
import { lazy, Suspense, useCallback, useRef, useState, type MouseEvent } from "react";
import { DotsIcon } from "~/components/ui/icons";
import type { Post } from "~/schemas/shapes";

type EditablePost = Pick<Post, "id" | "title" | "content" | "type" | "mediaUrl" | "tags">;

// The dialogs (Radix and the edit form) load only when an author opens one, so the feed's
// JavaScript stays small for everyone; opening the menu starts the download.
const loadDialogs = () => import("./dialogs");
const PostDialogs = lazy(loadDialogs);

/**
 * The author-only menu (SPEC.md §2): a <details> element, so it opens without JavaScript, holding
 * links to /post/{id}?edit=1 and ?delete=1 (the no-JavaScript forms). With JavaScript the links open
 * the Radix dialogs (dialogs.tsx) in place instead.
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

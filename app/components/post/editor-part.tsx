import { Suspense } from "react";
import { lazyPagePart } from "~/components/ui/lazy-page-part";
import { PageFormUnavailable } from "~/components/ui/page-form-unavailable";
import type { PostEditorProps } from "./editor";

/**
 * The post editor as a page's main form. Its code (Conform, uploads, tags, drafts) is not part of the
 * page's first load: it is asked for as soon as a page holding it is loaded, and hydration keeps the
 * server's form, which posts without that code, until it arrives (docs/decisions/0046).
 */
const Editor = lazyPagePart(() => import("./editor").then((m) => m.PostEditor), PageFormUnavailable);
if (typeof document !== "undefined") Editor.preload();

export function PostEditorPart(props: PostEditorProps) {
  return (
    <Suspense fallback={<p className="text-sm text-stone-600">Loading the editor…</p>}>
      <Editor {...props} />
    </Suspense>
  );
}

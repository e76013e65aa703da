import { lazyPagePart } from "~/components/ui/lazy-page-part";
import { PageFormUnavailable } from "~/components/ui/page-form-unavailable";
import { importAgain } from "~/utils/import-again";

/**
 * The post editor as a page's main form. Its code (Conform, uploads, tags, drafts) is not part of the
 * page's first load: hydration keeps the server's form, which posts without that code, until it
 * arrives (docs/decisions/0046).
 */
export const PostEditorPart = lazyPagePart(
  importAgain(
    () => import("./editor"),
    (m) => m.PostEditor,
  ),
  PageFormUnavailable,
  <p className="text-sm text-stone-600">Loading the editor…</p>,
);

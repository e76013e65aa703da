import { Suspense, type ComponentProps } from "react";
import { lazyPart } from "~/components/ui/lazy-part";
import { importAgain } from "~/utils/import-again";
import type { ModerationForms } from "./removal";

/**
 * Whether the staff's forms are shown for content by `authorId` to a viewer who moderates `as`
 * (post.server.ts `moderatesAs`): club staff take no moderation decision on their own content
 * (CONTRACT.md §12, the staff ladder); site staff may.
 */
export function showsModeration(as: "site" | "club" | null, authorId: number, viewerId: number | null): boolean {
  return as === "site" || (as === "club" && authorId !== viewerId);
}

/**
 * The staff's Remove and Restore forms where they sit beside content (the post page, its comments):
 * fetched only where they are drawn, for staff, so no reader's first load carries them. Drawn by the
 * server for staff, hydration keeps them as drawn until the code arrives; if it does not, the post's
 * moderation page (the same forms, no script needed) is a link away.
 */
type Props = ComponentProps<typeof ModerationForms>;
const LazyForms = lazyPart<Props>(
  importAgain(
    () => import("./removal"),
    (m) => m.ModerationForms,
  ),
  ({ postId }: Props) => (
    <a href={`/post/${postId}/moderate`} className="text-sm font-medium text-field-700 underline">
      Moderate…
    </a>
  ),
);

export function StaffForms(props: Props) {
  return (
    <Suspense fallback={null}>
      <LazyForms {...props} />
    </Suspense>
  );
}

import { Suspense, useEffect, useState } from "react";
import { lazyPart } from "~/components/ui/lazy-part";
import { importAgain } from "~/utils/import-again";
import type { Mentionable } from "~/utils/mention-typing";

type Props = { fieldId: string; people?: Mentionable[] };

/**
 * Members to mention under the comment box (mention-suggestions.tsx, ux-3 U20), whose code is fetched
 * when the member first focuses the box, not in the post page's first load (tests/e2e/first-load-js.spec.ts).
 * Only the comment box uses this: a second user would make it a file of its own in that first load.
 * Without it, or without JavaScript, the box is as it was: `@username` typed by hand still mentions.
 */
const Suggestions = lazyPart<Props>(
  importAgain(
    () => import("./mention-suggestions"),
    (m) => m.MentionSuggestions,
  ),
  () => null,
);

export function MentionAssist(props: Props) {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (wanted) return;
    const focused = () => document.activeElement?.id === props.fieldId && setWanted(true);
    focused();
    document.addEventListener("focusin", focused);
    return () => document.removeEventListener("focusin", focused);
  }, [wanted, props.fieldId]);
  return wanted ? (
    <Suspense fallback={null}>
      <Suggestions {...props} />
    </Suspense>
  ) : null;
}

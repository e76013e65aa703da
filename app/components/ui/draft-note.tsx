import { Fragment, type ReactNode } from "react";
import { RelativeTime } from "./relative-time";
import { useDraft, type DraftBag, type DraftOptions } from "./use-draft";

/** The quiet note over a form whose unsent draft came back (useDraft), with a way to drop it. */
export function DraftNote({ draft }: { draft: Pick<DraftBag, "restoredAt" | "discard"> }) {
  if (draft.restoredAt === null) return null;
  return (
    <p role="status" className="flex flex-wrap items-center gap-x-2 text-sm text-stone-600" data-testid="draft-note">
      <span>
        Restored your unsent draft from <RelativeTime iso={new Date(draft.restoredAt).toISOString()} />.
      </span>
      <button type="button" className="font-medium text-field-700 underline hover:no-underline" onClick={draft.discard}>
        Discard draft
      </button>
    </p>
  );
}

/**
 * A form with a local draft, the usual way: the note above it, and the form re-created from the
 * draft's values when one is restored or discarded (`children` reads them from `draft`).
 */
export function WithDraft({ children, ...options }: DraftOptions & { children: (draft: DraftBag) => ReactNode }) {
  const draft = useDraft(options);
  return (
    <>
      <DraftNote draft={draft} />
      <Fragment key={draft.version}>{children(draft)}</Fragment>
    </>
  );
}

import { outboxForFiles, postLabel, type OutboxRoute } from "./outbox-client";
import { IDEMPOTENCY_FIELD } from "~/utils/idempotency";

/**
 * A post published with no signal while photos were still to upload (the upload widget's Publish,
 * docs/decisions/0093-offline-compose-with-photos.md): kept in the outbox with the files themselves,
 * which go up by tus when the signal returns, before the post. A message when the files break an
 * upload limit; `queued: false` when it cannot be kept (not a member, no IndexedDB). In the create
 * page's code, not every page's first load.
 */
export async function queuePostWithFiles(
  formElement: HTMLFormElement,
  files: File[],
  limits: { maxFileBytes: number; maxFileLabel: string },
  now = Date.now(),
): Promise<{ queued: true } | { refused: string } | { queued: false }> {
  const outbox = outboxForFiles();
  if (!outbox) return { queued: false };
  const form = new FormData(formElement);
  const clubId = String(form.get("clubId") ?? "");
  const route: OutboxRoute = {
    intent: "create-post",
    label: postLabel,
    draft: () => (clubId ? `post-create:club-${clubId}` : "post-create"),
  };
  try {
    const request = new Request(new URL(location.pathname, location.origin), { method: "POST" });
    const { memberId, store } = outbox;
    const result = await (
      await outbox.wire()
    ).keepPostWithFiles(store, { request, form, route, files, limits, memberId, now, keyField: IDEMPOTENCY_FIELD });
    if ("queued" in result && result.queued) await outbox.kept();
    return result;
  } catch {
    return { queued: false };
  }
}

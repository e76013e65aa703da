import { browserStorage, closeDrafts } from "~/utils/drafts";
import { forgetOutbox } from "~/utils/outbox-client";

/**
 * What a member leaves on this device, forgotten when they leave it (logout, account deletion):
 * drafts and unfinished uploads' addresses (ADR 0031, 0035), and anything still waiting in the
 * outbox, which is never sent as or shown to the next person (ADR 0034).
 */
export function forgetMemberOnDevice(): void {
  const storage = browserStorage();
  if (storage) closeDrafts(storage);
  forgetOutbox();
}

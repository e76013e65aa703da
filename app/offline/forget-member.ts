import { browserStorage, closeDrafts } from "~/offline/drafts";
import { itemText } from "~/offline/outbox";
import { forgetOutbox, outboxItems } from "~/offline/outbox-client";

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

/**
 * The logout form's submit: what waits in the outbox is shown, with its text, before it is dropped;
 * the member may stay signed in and let it send. True: go on (and forget the member on this device).
 */
export function leaveDevice(event: { preventDefault(): void }): boolean {
  const lines = outboxItems().map((item) => `• ${item.label}: ${itemText(item)}`);
  if (
    lines.length &&
    !window.confirm(`Not sent yet, and removed from this device if you log out:\n\n${lines.join("\n")}\n\nLog out anyway?`)
  ) {
    event.preventDefault();
    return false;
  }
  forgetMemberOnDevice();
  return true;
}

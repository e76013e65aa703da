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

/** The question asked before a logout drops what still waits to be sent (ADR 0057). */
export function unsentQuestion(items: Array<{ label: string; fields: Array<[string, string]> }>): string | null {
  if (!items.length) return null;
  const lines = items.map((item) => {
    const text = itemText(item);
    return `• ${item.label}${text ? `: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}` : ""}`;
  });
  return `Not sent yet. Logging out removes these from this device:\n\n${lines.join("\n")}\n\nLog out anyway? (Cancel to copy your text first.)`;
}

/**
 * The logout form's submit: what waits in the outbox is shown, with its text, before it is dropped;
 * the member may stay signed in and let it send. True: go on (and forget the member on this device).
 */
export function leaveDevice(event: { preventDefault(): void }): boolean {
  const question = unsentQuestion(outboxItems());
  if (question && !window.confirm(question)) {
    event.preventDefault();
    return false;
  }
  forgetMemberOnDevice();
  return true;
}

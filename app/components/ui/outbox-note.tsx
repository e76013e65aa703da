import { Link, useLocation, useRevalidator } from "react-router";
import { useEffect, useSyncExternalStore } from "react";
import { itemText, type StoredOutboxItem as OutboxItem } from "~/offline/outbox";
import {
  dismissOutboxItem,
  noOutboxItems,
  outboxItems,
  outboxRevalidated,
  setOutboxRevalidator,
  subscribeOutbox,
  WAITING_TEXT,
} from "~/offline/outbox-client";
import { signInHref } from "~/utils/urls";

/**
 * How the outbox (docs/decisions/0034-outbox.md) shows what waits: in place where it belongs (a
 * waiting comment under its post, the like and follow buttons' state) and, for the rest, a quiet
 * note in the corner; a send that needs the member to sign in again, or that was given up, says so.
 */
export { WAITING_TEXT };

/** Intents shown in place on their own page (the corner note leaves them out there). */
const IN_PLACE = new Set(["comment", "like", "unlike", "follow", "unfollow"]);

/** The signed-in member's outbox items (none before hydration and without JavaScript). */
export function useOutbox(): OutboxItem[] {
  return useSyncExternalStore(subscribeOutbox, outboxItems, noOutboxItems);
}

/** The last waiting like/unlike (follow/unfollow…) of a page, by intent. */
export function useWaiting(page: string, intents: readonly string[]): OutboxItem | undefined {
  return useOutbox()
    .filter((item) => item.page === page && item.state !== "gave-up" && intents.includes(item.intent))
    .at(-1);
}

/** Comments on this post still waiting for a signal, under the others. */
export function WaitingComments({ postId }: { postId: number }) {
  const waiting = useOutbox().filter((item) => item.page === `/post/${postId}` && item.intent === "comment");
  if (!waiting.length) return null;
  return (
    <ol className="mt-3 space-y-3">
      {waiting.map((item) => (
        <li key={item.key} className="rounded-lg border border-dashed border-stone-300 bg-stone-50 p-3" data-testid="waiting-comment">
          <p className="whitespace-pre-line text-stone-800 wrap-anywhere">{item.fields.find(([name]) => name === "content")?.[1]}</p>
          <ItemStatus item={item} />
        </li>
      ))}
    </ol>
  );
}

/** How many files a waiting post carries (ADR 0093). */
function WaitingFiles({ item }: { item: OutboxItem }) {
  const files = item.files ?? [];
  if (!files.length) return null;
  const noun = files.every((file) => file.type.startsWith("image/")) ? "photo" : "file";
  return (
    <p className="text-xs text-stone-600" data-testid="outbox-files">
      With {files.length} {noun}
      {files.length > 1 ? "s" : ""}
    </p>
  );
}

function ItemStatus({ item }: { item: OutboxItem }) {
  if (item.state === "waiting") return <p className="mt-1 text-xs text-stone-500">{WAITING_TEXT}</p>;
  if (item.state === "sign-in")
    return (
      <p className="mt-1 text-xs text-stone-600">
        Not sent yet: your session ended.{" "}
        <Link to={signInHref(item.page)} className="font-medium text-field-700 underline">
          Sign in
        </Link>{" "}
        and it will send.
      </p>
    );
  return (
    <p className="mt-1 text-xs text-red-800">
      Not sent: {item.error}{" "}
      <button type="button" className="font-medium underline" onClick={() => void dismissOutboxItem(item.key)}>
        Dismiss
      </button>
    </p>
  );
}

/**
 * Hands the outbox Remix's public `useRevalidator` (ADR 0057): when something waiting was sent, every
 * route's data is loaded again through it, and the outbox hears when that reload is over.
 */
export function OutboxRevalidator() {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    setOutboxRevalidator(() => void revalidate());
    return () => setOutboxRevalidator(null);
  }, [revalidate]);
  useEffect(() => {
    if (state === "idle") outboxRevalidated();
  }, [state]);
  return null;
}

/** The corner note: what waits that this page does not already show in place. */
export function OutboxNote() {
  const { pathname } = useLocation();
  const items = useOutbox().filter((item) => !(item.page === pathname && IN_PLACE.has(item.intent)));
  if (!items.length) return null;
  return (
    <aside
      aria-label="Waiting to send"
      data-testid="outbox-note"
      className="fixed bottom-10 left-2 z-40 max-w-sm rounded-lg bg-white p-3 text-sm shadow ring-1 ring-stone-200"
    >
      <ul className="space-y-1">
        {items.map((item) => (
          <li key={item.key}>
            <span className="font-medium text-bark-900">{item.label}</span>
            {/* What the member wrote, shown while it waits and before it can be dismissed (ADR 0057). */}
            <p className="whitespace-pre-line text-stone-700 wrap-anywhere" data-testid="outbox-text">
              {itemText(item)}
            </p>
            <WaitingFiles item={item} />
            <ItemStatus item={item} />
            {item.intent === "create-post" && item.state !== "gave-up" ? (
              // A waiting post can be taken back: it and its files leave this phone (ADR 0093).
              <button
                type="button"
                className="btn-secondary mt-1 min-h-11 px-3 py-1 text-xs"
                onClick={() => void dismissOutboxItem(item.key)}
                aria-label={`Cancel ${item.label}`}
              >
                Cancel
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </aside>
  );
}

import type { ClientActionFunctionArgs, ShouldRevalidateFunction } from "react-router";
import { SEND_FAILED } from "~/schemas/messages";
import { markKeyUsed } from "~/utils/idempotency";
import { forgetSentKey, queueSend, WAITING_TEXT, type OutboxRoute } from "./outbox-client";
import { isQueued, isUnsent, type Queued, type Unsent } from "~/utils/revalidation";
import { showToast, type Toast } from "~/utils/toast";
import { pathWithSearch, signInHref } from "~/utils/urls";

/**
 * With JavaScript, a send that fails (a 5xx, a dropped or stalled connection) or that meets an
 * ended session must not replace the page: SPEC.md §8's toast shows and the page, with everything
 * typed, stays (docs/decisions/0030-idempotency-keys.md). One helper for every route whose forms
 * send: `export const clientAction = keepPageOnFailure(messages)`, and the routes on screen export
 * `shouldRevalidate` so that nothing is reloaded after a send that did not arrive. Without
 * JavaScript none of this runs: the forms post and redirect as before.
 */

// The answers' shapes live in utils/revalidation.ts, which utils/remix.ts reads too; the routes take them from here.
export { isQueued, isUnsent, type Queued, type Unsent };
const UNSENT: Unsent = { unsent: true };
const QUEUED: Queued = { unsent: true, queued: true };

/** How long a send may take before the member is told it failed (it may still arrive: the key keeps a resend single). */
export const SEND_TIMEOUT_MS = 30_000;

export type FailureMessages = {
  /** The toast for a send that failed, by what the form sent (its intent). */
  failed: (form: FormData) => Toast;
  /** The toast for a send that met an ended session; null: go to sign in as without JavaScript. */
  signIn?: (form: FormData) => Toast | null;
  /**
   * The route's sends that may wait for the signal (a comment, like, follow, join request, text-only
   * post): one that fails at the network (no signal, or no answer in time) goes to the outbox
   * instead of the toast (docs/decisions/0034-outbox.md). A 4xx or 5xx answer is never kept.
   */
  outbox?: OutboxRoute;
};

type FailedKey = keyof typeof SEND_FAILED;

/**
 * SPEC.md §8's toast for a failed send, by the form's intent: `rename` maps a page's intents to
 * SEND_FAILED's names where they differ (the club page's "update" is 'Failed to update club');
 * `fixed` names one message for every send of the route.
 */
export function failedToast({ rename = {}, fixed }: { rename?: Record<string, FailedKey>; fixed?: FailedKey } = {}) {
  return (form: FormData): Toast => {
    const intent = String(form.get("intent") ?? "");
    const name = fixed ?? rename[intent] ?? (intent in SEND_FAILED ? (intent as FailedKey) : "other");
    return { title: "Error", description: SEND_FAILED[name], type: "error" };
  };
}

const isSignInRedirect = (response: Response) => {
  const location = response.headers.get("Location") ?? "";
  return response.status >= 300 && response.status < 400 && /^\/auth(\?|$)/.test(location);
};

const isSignInAnswer = (data: unknown) =>
  typeof data === "object" &&
  data !== null &&
  (data as { ok?: unknown; status?: unknown }).ok === false &&
  (data as { status?: unknown }).status === 401;

/**
 * The sign-in toast links to sign in and back to this page, where the draft of what was typed
 * waits (docs/decisions/0031-local-drafts.md).
 */
const withSignInLink = (toast: Toast, request: Request): Toast => ({
  ...toast,
  action: { label: "Sign in", href: signInHref(pathWithSearch(globalThis.location?.href ?? request.url)) },
});

/**
 * Whether the page on screen was drawn for a signed-in member (the root sets it). Only then is a
 * sign-in redirect an ended session to explain in place; a visitor goes to sign in, as without
 * JavaScript (deviation #10: told before writing anything).
 */
let pageHasMember = false;
export function notePageViewer(signedIn: boolean): void {
  pageHasMember = signedIn;
}

class Stalled extends Error {}

export function keepPageOnFailure(messages: FailureMessages) {
  return async function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
    const form = await request
      .clone()
      .formData()
      .catch(() => new FormData());
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Stalled()), SEND_TIMEOUT_MS);
    });
    try {
      const data: unknown = await Promise.race([serverAction(), stalled]);
      // A script request that met an ended session answers its 401 as data (the post page's fetchers).
      const signIn = isSignInAnswer(data) ? messages.signIn?.(form) : null;
      if (signIn) {
        showToast(withSignInLink(signIn, request));
        return UNSENT;
      }
      markKeyUsed(form);
      forgetSentKey(form);
      return data;
    } catch (error) {
      if (error instanceof Response) {
        const toast = pageHasMember && isSignInRedirect(error) ? messages.signIn?.(form) : null;
        if (toast) {
          showToast(withSignInLink(toast, request));
          return UNSENT;
        }
        // A redirect (success) or a refusal (403/404, the route's ErrorBoundary) goes on as before.
        if (error.status < 400) {
          markKeyUsed(form);
          forgetSentKey(form);
        }
        throw error;
      }
      // No signal (fetch itself failed) or no answer in time: keep it to send when the signal returns.
      const unreached = error instanceof Stalled || (error instanceof Error && error.name === "TypeError");
      const failed = messages.failed(form);
      if (unreached && messages.outbox && (await queueSend(request, form, messages.outbox))) {
        showToast({ ...failed, description: `${failed.description ?? failed.title}. ${WAITING_TEXT}.`, type: "info" });
        return QUEUED;
      }
      showToast(failed);
      return UNSENT;
    } finally {
      clearTimeout(timer);
    }
  };
}

/** After a send that did not arrive, keep every loader's data (reloading it would fail the same way). */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  isUnsent(actionResult) ? false : defaultShouldRevalidate;

import { failedToast } from "~/offline/client-action";
import type { Toast } from "~/utils/toast";

/**
 * SPEC.md §8's toast for a send from a post (its card or page) that failed with JavaScript on (a 5xx,
 * a dropped or stalled connection): titled 'Error' with the intent's fallback, except a share, which
 * SPEC titles itself: 'Failed to share / Could not share post' (issue 31 N2). Kept in the post route,
 * not in the shared messages, so the home page's first load does not carry it.
 */
export const SHARE_FAILED: Toast = { title: "Failed to share", description: "Could not share post", type: "error" };

const byIntent = failedToast();

export const postSendFailed = (form: FormData): Toast => (form.get("intent") === "share" ? SHARE_FAILED : byIntent(form));

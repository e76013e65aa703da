import { registerRoute } from "workbox-routing";
import type { RouteHandlerCallbackOptions } from "workbox-core/types";
import { isEmptyShare, keepShare, readShareForm, SHARED_PARAM } from "../offline/share-inbox";

/**
 * The share target in the worker (Workbox's share-target recipe; docs/decisions/0092-share-target.md):
 * the phone's share sheet POSTs the manifest's multipart form to `/share`; the worker keeps the files
 * and text in the share inbox (../offline/share-inbox.ts), with or without a signal, and opens the
 * create page (303), which attaches the files to its upload widget (resumable uploads, every upload
 * rule on the server) and fills in the text. What it cannot keep (nothing shared, a form it cannot
 * read, storage refused) goes to the server's `POST /share` as sent, which answers it the same way or
 * with the reason.
 */
export const SHARE_PATH = "/share";

export function listenForShares(): void {
  registerRoute(
    ({ url, request }) => url.origin === self.location.origin && url.pathname === SHARE_PATH && request.method === "POST",
    takeShare,
    "POST",
  );
}

async function takeShare({ request }: RouteHandlerCallbackOptions): Promise<Response> {
  const sent = request.clone();
  try {
    const share = readShareForm(await request.formData());
    if (isEmptyShare(share)) return fetch(sent);
    const id = await keepShare(share);
    return Response.redirect(`/create?${SHARED_PARAM}=${encodeURIComponent(id)}`, 303);
  } catch {
    return fetch(sent);
  }
}

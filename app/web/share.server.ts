import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import {
  claimShare,
  keepMemberShare,
  keepVisitorShare,
  countVisitorShare,
  sharedText,
  shareForCreate,
  visitorShareKept,
  SHARE_GONE,
} from "~/models/media/incoming-share.server";
import { discardUploads, releaseHeld } from "~/models/media/media.server";
import { isAppError } from "~/utils/errors";
import { signInHref } from "~/utils/urls";
import { parseMultipartHeld, parseMultipartUploads, UploadRefusedError } from "./multipart.server";
import { isCrossSiteShare } from "./origin.server";
import { clientAddress } from "./params.server";
import { BODY_LIMITS } from "./request-body.server";
import { getSessionUser, requireUser } from "./session.server";
import { redirectWithToast } from "./toast.server";
import { withPageErrors } from "./page-errors.server";

/**
 * The web app manifest's share target (CONTRACT.md §14 "Sharing from the phone",
 * docs/decisions/0092-share-target.md), without the service worker: `POST /share`, multipart,
 * `title`, `text`, `url` and `files`.
 */

/** The share target's file field (the manifest's `share_target.params.files[].name`). */
export const SHARE_FILES_FIELD = "files";

/** What the /share page shows when a share was refused: the reason, and nothing was kept. */
export type ShareRefusal = { error: string };

/**
 * A member's files become their uploads (parseMultipartUploads: type, size, count and the hourly
 * limit, as any upload) and the create page opens with the text filled in and the files attached
 * (303 to `/create?share=…`). A visitor's files are refused the same way or held, and they are sent
 * to sign in (303), coming back to `/share/{id}` to take them. A refusal is the /share page with the
 * reason, and nothing is kept.
 */
export async function receiveShare({ request }: ActionFunctionArgs) {
  // The browser opens the share target from another app's share sheet with no Origin of its own.
  if (isCrossSiteShare(request)) throw data({ error: "Cross-site request refused" }, { status: 403 });
  try {
    const user = await getSessionUser(request);
    const options = { fileFields: [SHARE_FILES_FIELD], maxFiles: BODY_LIMITS.files };
    if (user) {
      const { formData, uploads } = await parseMultipartUploads(request, user, options);
      const urls = uploads.map((u) => u.url);
      let id: string;
      try {
        id = await keepMemberShare(
          user,
          sharedText((name) => formData.get(name)),
          urls,
        );
      } catch (error) {
        await discardUploads(user, urls, undefined, { refund: true });
        throw error;
      }
      return redirect(`/create?share=${id}`, 303);
    }
    await countVisitorShare(clientAddress(request).ip);
    const { formData, held } = await parseMultipartHeld(request, options);
    let id: string;
    try {
      id = await keepVisitorShare(
        sharedText((name) => formData.get(name)),
        held,
      );
    } catch (error) {
      await releaseHeld(held.map((h) => h.key));
      throw error;
    }
    return redirectWithToast(
      signInHref(`/share/${id}`),
      { title: "Sign in to post what you shared", description: "What you shared is kept for an hour.", type: "info" },
      { status: 303 },
    );
  } catch (error) {
    if (!isAppError(error)) throw error;
    const message = error instanceof UploadRefusedError ? `${error.fileName ?? "A file"} was not taken: ${error.message}` : error.message;
    const headers = error.retryAfter ? { "Retry-After": String(error.retryAfter) } : undefined;
    return data<ShareRefusal>({ error: message }, { status: error.status, headers });
  }
}

/** `/share/{id}` after signing in: whether the visitor's share is still kept (a page to take it). */
export async function shareClaimLoader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  return { kept: await visitorShareKept(params.id ?? ""), gone: SHARE_GONE };
}

/** Take it: the held files become the member's uploads, and the create page opens with them. */
export async function shareClaimAction(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request, params }) => {
    const user = await requireUser(request);
    const id = await claimShare(user, params.id ?? "");
    return redirect(`/create?share=${id}`, 303);
  });
}

/** The create page's share (`?share=`): the member's own, or a note that it is gone. */
export async function sharedIntoCreate(request: Request, user: NonNullable<Awaited<ReturnType<typeof getSessionUser>>>) {
  const id = new URL(request.url).searchParams.get("share");
  if (!id) return { shared: null, shareGone: null };
  try {
    return { shared: await shareForCreate(user, id), shareGone: null };
  } catch (error) {
    if (isAppError(error) && error.status === 404) return { shared: null, shareGone: error.message };
    throw error;
  }
}

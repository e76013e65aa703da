import { updateAvatar, requireSelf } from "~/models/members/profile.server";
import type { Actor } from "~/models/members/user.server";
import { safeRedirect } from "~/schemas/auth";
import { isAppError, isRefusal } from "~/utils/errors";
import { parseMultipartUploads, UploadRefusedError } from "./multipart.server";
import { discardUploads } from "~/models/media/media.server";
import { redirectWithToast } from "./toast.server";

export const AVATAR_FIELD = "avatar";

/**
 * The avatar form's POST on /profile/{username} and /settings (a multipart form with one image in
 * the `avatar` field): the member's own profile is checked before a byte is stored, the image goes
 * through the media pipeline (sniffed, stripped, 50 MB limit while streaming, avatars must be
 * images), then becomes the avatar. Success and failure both redirect back with a toast
 * (POST/redirect/GET), to the form's `returnTo` when it is a path on this site.
 * 401/403/404 are thrown on, for withPageErrors to answer.
 */
export async function handleAvatarUpload(request: Request, actor: Actor, username: string, fallbackReturnTo: string) {
  await requireSelf(actor, username);
  const failed = (returnTo: string, description: string) =>
    redirectWithToast(returnTo, { title: "Error", description: description || "Failed to update avatar", type: "error" });

  let formData: FormData;
  let stored: string[];
  try {
    const parsed = await parseMultipartUploads(request, actor, { fileFields: [AVATAR_FIELD], maxFiles: 1, purpose: "avatar" });
    formData = parsed.formData;
    stored = parsed.uploads.map((u) => u.url);
  } catch (error) {
    if (!isAppError(error) || isRefusal(error)) throw error;
    const returnTo =
      error instanceof UploadRefusedError ? safeRedirect(error.formData.get("returnTo"), fallbackReturnTo) : fallbackReturnTo;
    return failed(returnTo, error.message);
  }

  const returnTo = safeRedirect(formData.get("returnTo"), fallbackReturnTo);
  const url = formData.get(AVATAR_FIELD);
  if (typeof url !== "string" || !url) return failed(returnTo, "Choose an image to upload.");
  try {
    await updateAvatar(actor, username, url);
  } catch (error) {
    await discardUploads(actor, stored);
    if (!isAppError(error) || isRefusal(error)) throw error;
    return failed(returnTo, error.message);
  }
  return redirectWithToast(returnTo, { title: "Avatar updated", description: "Your profile picture has been changed." });
}

export function isMultipart(request: Request): boolean {
  return /^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "");
}

import type { SignedIn } from "./session.server";

/**
 * Data saver is on for this request (CONTRACT.md §6, docs/decisions/0036-right-sized-images-and-data-saver.md):
 * the browser sent `Save-Data: on` (a phone's "lite mode"), or the member turned it on in Settings ›
 * Privacy. Pages then show images as tap-to-load placeholders. Both are part of every page's
 * validator (conditional.server.ts: the header; session.server.ts viewerKey: the setting) and the
 * header is in Vary, so a cache never hands one version to the other.
 */
export function saveDataRequested(request: Request): boolean {
  const value = request.headers.get("Save-Data");
  return value !== null && /^\s*on\s*$/i.test(value);
}

export function dataSaverFor(request: Request, signedIn: Pick<SignedIn, "dataSaver"> | null | undefined): boolean {
  return saveDataRequested(request) || Boolean(signedIn?.dataSaver);
}

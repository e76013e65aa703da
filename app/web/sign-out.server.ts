import { CLEAR_CACHE } from "./cache-control.server";
import { destroyUserSession } from "./session.server";

/**
 * The headers of an answer that signs this browser out (logout, account deletion): the session ends
 * and its cookie is dropped, and the browser's own cache forgets the member's pages (Back after
 * signing out, JS or not). The service worker forgets its saved pages when it sees a logout leave or
 * the next answer name a visitor (app/sw/index.ts, docs/decisions/0033).
 */
export async function signOutHeaders(request: Request): Promise<Headers> {
  const headers = new Headers(CLEAR_CACHE);
  headers.append("Set-Cookie", await destroyUserSession(request));
  return headers;
}

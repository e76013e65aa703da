/**
 * URLs that several pages build. Browser-safe.
 */

/**
 * The sign-in page (or its "Join" tab), bringing the member back to `redirectTo` (a path on this
 * site) afterwards; `inviteCode` signs a new member up into a club.
 */
export function signInHref(redirectTo?: string | null, mode: "login" | "register" = "login", inviteCode?: string | null): string {
  const params = new URLSearchParams({ mode });
  if (redirectTo) params.set("redirectTo", redirectTo);
  if (inviteCode) params.set("inviteCode", inviteCode);
  return `/auth?${params}`;
}

/** The path and query of a URL: where a visitor is now, to come back to after signing in. */
export function pathWithSearch(url: URL | string): string {
  const u = typeof url === "string" ? new URL(url, "http://x") : url;
  return `${u.pathname}${u.search}`;
}

/**
 * Is this text an absolute http(s) URL with a host? The one rule for every link a member gives
 * (media URLs, link previews, club images) and for what the server will fetch.
 */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

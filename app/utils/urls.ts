/**
 * URLs that several pages build. Browser-safe.
 */

/** The sign-in page, bringing the member back to `redirectTo` (a path on this site) afterwards. */
export function signInHref(redirectTo?: string | null, mode: "login" | "register" = "login"): string {
  const params = new URLSearchParams({ mode });
  if (redirectTo) params.set("redirectTo", redirectTo);
  return `/auth?${params}`;
}

/** The path and query of a URL: where a visitor is now, to come back to after signing in. */
export function pathWithSearch(url: URL | string): string {
  const u = typeof url === "string" ? new URL(url, "http://x") : url;
  return `${u.pathname}${u.search}`;
}

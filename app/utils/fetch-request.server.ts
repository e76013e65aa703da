/**
 * Did the browser's JavaScript send this request (a Remix fetcher or a client navigation), rather
 * than a plain HTML form post or link? Remix strips its `?_data=` marker from `request.url` before a
 * loader or action runs, so the URL cannot tell. Browsers label every request instead: a form post
 * or link is `Sec-Fetch-Mode: navigate`, a fetch() is `cors` / `same-origin`. Without the header
 * (curl, very old browsers) the request is treated as a plain form post: it gets the redirect, which
 * a fetcher also handles (by navigating), so nothing breaks.
 */
export function isFetchRequest(request: Request): boolean {
  const mode = request.headers.get("Sec-Fetch-Mode");
  return mode !== null && mode !== "navigate";
}

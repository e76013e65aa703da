/**
 * Remix's single fetch (docs/decisions/0079-single-fetch.md): with JavaScript, a page's loader data
 * is asked for at its own path with `.data` on the end (`/post/3.data`; the home page's is
 * `/_root.data`), and an action is posted there too. Whatever reads a request's path to decide
 * something about the page (which route it is for metrics, whether the page reads the Referer, which
 * saved page it belongs to) reads the page's path. Browser-safe: the service worker uses it too.
 */

/** The suffix a data request adds to a page's path. */
export const DATA_SUFFIX = ".data";
/** The home page's data request (`/` has no last segment to add the suffix to). */
const ROOT_DATA_PATH = "/_root.data";

/** Is this path a single-fetch data request's? */
export const isDataPath = (pathname: string): boolean => pathname.endsWith(DATA_SUFFIX);

/** The path of the page a request is for: a data request's without `.data` (`/_root.data` is `/`), any other as it is. */
export function pagePath(pathname: string): string {
  if (pathname === ROOT_DATA_PATH) return "/";
  return isDataPath(pathname) ? pathname.slice(0, -DATA_SUFFIX.length) : pathname;
}

/** The data request's path for a page's (what Remix's client asks for): `/` is `/_root.data`. */
export function dataPath(pathname: string): string {
  return pathname === "/" ? ROOT_DATA_PATH : `${pathname.replace(/\/$/, "")}${DATA_SUFFIX}`;
}

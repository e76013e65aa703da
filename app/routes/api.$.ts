import { errorResponse } from "~/web/api.server";
import { notFound } from "~/utils/errors";

/**
 * Any `/api/*` path no other route claims, for every method: the JSON surface's 404
 * `{ "error": … }` (CONTRACT.md §2), not the HTML "Page Not Found" of the site's catch-all.
 */
const noSuchCall = () => errorResponse(notFound("No such API call"));

export const loader = noSuchCall;
export const action = noSuchCall;

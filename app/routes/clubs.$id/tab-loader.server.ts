import { redirect, type LoaderFunctionArgs } from "react-router";
import { CLUB_NOT_FOUND } from "~/schemas/club";
import { isAppError } from "~/utils/errors";
import { loaderError } from "~/web/page-errors.server";
import { idParam } from "~/web/params.server";
import { getSessionUser, type SessionUser } from "~/web/session.server";

export type TabContext = { clubId: number; user: SessionUser | null; url: URL; request: Request };

/**
 * The loader of one club tab. `load` reads only that tab's data; the layout loader reads the club.
 * A tab the visitor may not see (the domain says 401 or 403: Requests for anyone but the owner and admins,
 * Invites for non-members) falls back to the club's posts, as `?tab=` links always did; a missing
 * club is the layout's "Club Not Found".
 */
export async function clubTabLoader<T>({ request, params }: LoaderFunctionArgs, load: (ctx: TabContext) => T | Promise<T>): Promise<T> {
  try {
    const clubId = idParam(params.id, CLUB_NOT_FOUND);
    const user = await getSessionUser(request);
    try {
      return await load({ clubId, user, url: new URL(request.url), request });
    } catch (error) {
      if (isAppError(error) && (error.status === 401 || error.status === 403)) throw redirect(`/clubs/${clubId}`);
      throw error;
    }
  } catch (error) {
    return loaderError(request, error, { notFound: CLUB_NOT_FOUND });
  }
}

import type { LoaderFunctionArgs } from "react-router";
import { calendarFeed } from "~/models/clubs/club-event.server";
import { CLUB_NOT_FOUND } from "~/schemas/club";
import { isAppError } from "~/utils/errors";
import { calendarResponse } from "~/web/calendar-feed.server";
import { VISITOR_VALUE } from "~/web/cache-control.server";
import { idParam } from "~/web/params.server";

/**
 * GET /clubs/{id}/events.ics (issue 44, CONTRACT.md §14 "Calendar feed"): the club's hunts for a
 * phone's calendar. A private club's needs `?token=`, a member's personal feed token (Settings ›
 * Notifications); without one it is 404 like a club that does not exist. `?download=1` answers it as
 * a file to save (the "Download .ics" link); a subscription (webcal:) reads it as it is.
 */
export async function loader({ request, params }: LoaderFunctionArgs): Promise<Response> {
  const url = new URL(request.url);
  try {
    const feed = await calendarFeed(idParam(params.id, CLUB_NOT_FOUND), url.searchParams.get("token"));
    return calendarResponse(request, feed, url.searchParams.get("download") === "1");
  } catch (error) {
    if (!isAppError(error) || error.status >= 500) throw error;
    return new Response(`${error.message}\n`, {
      status: error.status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": VISITOR_VALUE, "X-Content-Type-Options": "nosniff" },
    });
  }
}

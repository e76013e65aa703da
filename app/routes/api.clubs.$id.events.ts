import * as z from "zod/mini";
import { createEvent, listEvents } from "~/models/clubs/club-event.server";
import { CLUB_NOT_FOUND } from "~/schemas/club";
import { eventRangeSchema } from "~/schemas/club-event";
import { badRequest } from "~/utils/errors";
import { timeZoneOfCookie } from "~/utils/reader-time.server";
import { apiAction, apiLoader, jsonResponse, readJson } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { getSessionUser } from "~/web/session.server";

/** Any JSON object: createEvent checks who asks before what they sent. */
const anyObject = z.looseObject({});

/** GET /api/clubs/{id}/events?from=&to= → 200 { items } by start time, from now by default (whoever may read the club's posts). */
export const loader = apiLoader(async ({ request, params }) => {
  const id = idParam(params.id, CLUB_NOT_FOUND);
  const actor = await getSessionUser(request);
  const url = new URL(request.url);
  const range = eventRangeSchema.safeParse({
    from: url.searchParams.get("from") ?? undefined,
    to: url.searchParams.get("to") ?? undefined,
  });
  if (!range.success) throw badRequest("from and to must be ISO 8601 times with an offset");
  return jsonResponse({ items: await listEvents(actor, id, range.data) });
});

/** POST /api/clubs/{id}/events {title, description?, startsAt, endsAt?, location?} → 201 the event (the club's owner and admins). */
export const action = apiAction({
  POST: async ({ request, params }) => {
    const id = idParam(params.id, CLUB_NOT_FOUND);
    const actor = await getSessionUser(request);
    const body = await readJson(request, anyObject);
    const event = await createEvent(actor, id, body, { creatorZone: timeZoneOfCookie(request.headers.get("Cookie") ?? undefined) });
    return jsonResponse(event, { status: 201 });
  },
});

import * as z from "zod/mini";
import { cancelEvent, editEvent, getEvent } from "~/models/clubs/club-event.server";
import { CLUB_NOT_FOUND } from "~/schemas/club";
import { EVENT_NOT_FOUND } from "~/schemas/club-event";
import { apiAction, apiLoader, jsonResponse, readJson } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { getSessionUser } from "~/web/session.server";

const anyObject = z.looseObject({});

/** GET /api/clubs/{id}/events/{eventId} → 200 the event (whoever may read the club's posts). */
export const loader = apiLoader(async ({ request, params }) => {
  const id = idParam(params.id, CLUB_NOT_FOUND);
  const eventId = idParam(params.eventId, EVENT_NOT_FOUND);
  return jsonResponse(await getEvent(await getSessionUser(request), id, eventId));
});

/** PUT → 200 the event; DELETE → 204, the hunt cancelled (the club's owner and admins). */
export const action = apiAction({
  PUT: async ({ request, params }) => {
    const id = idParam(params.id, CLUB_NOT_FOUND);
    const eventId = idParam(params.eventId, EVENT_NOT_FOUND);
    const actor = await getSessionUser(request);
    const body = await readJson(request, anyObject);
    return jsonResponse(await editEvent(actor, id, eventId, body));
  },
  DELETE: async ({ request, params }) => {
    const id = idParam(params.id, CLUB_NOT_FOUND);
    const eventId = idParam(params.eventId, EVENT_NOT_FOUND);
    await cancelEvent(await getSessionUser(request), id, eventId);
    return new Response(null, { status: 204 });
  },
});

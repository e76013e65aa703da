import * as z from "zod/mini";
import { rsvpEvent } from "~/models/clubs/club-event.server";
import { CLUB_NOT_FOUND } from "~/schemas/club";
import { EVENT_NOT_FOUND } from "~/schemas/club-event";
import { apiAction, jsonResponse, methodNotAllowed, readJson } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { getSessionUser } from "~/web/session.server";

const anyObject = z.looseObject({});

/** POST /api/clubs/{id}/events/{eventId}/rsvp {status: going|maybe|no} → 200 the event (members; others 403). */
export const action = apiAction({
  POST: async ({ request, params }) => {
    const id = idParam(params.id, CLUB_NOT_FOUND);
    const eventId = idParam(params.eventId, EVENT_NOT_FOUND);
    const actor = await getSessionUser(request);
    const body = await readJson(request, anyObject);
    return jsonResponse(await rsvpEvent(actor, id, eventId, body));
  },
});

export const loader = methodNotAllowed;

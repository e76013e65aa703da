import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "react-router";
import {
  cancelEvent,
  clubTimeZone,
  createEvent,
  editEvent,
  eventAttendees,
  getEvent,
  listEvents,
  listPastEvents,
  mayManageEvents,
  rsvpEvent,
  type ClubEvent,
} from "~/models/clubs/club-event.server";
import { getClub } from "~/models/clubs/club.server";
import { requireClubStaff } from "~/models/clubs/club-membership.server";
import { storedFeedToken } from "~/models/feeds/feed-token.server";
import { CLUB_NOT_FOUND } from "~/schemas/club";
import { EVENT_NOT_FOUND } from "~/schemas/club-event";
import { isAppError, isRefusal, type FieldErrors } from "~/utils/errors";
import { timeZoneOfCookie } from "~/utils/reader-time.server";
import { dayAtClock, localOfInstant } from "~/utils/time-zone";
import { formKey, idempotent } from "~/web/idempotency.server";
import { feedOrigin } from "~/web/atom-feed.server";
import { withPageErrors } from "~/web/page-errors.server";
import { idParam } from "~/web/params.server";
import { readFormData } from "~/web/request-body.server";
import { getSessionUser } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";
import { clubTabLoader } from "./tab-loader.server";

/**
 * The club's hunt pages (issue 44): the Hunts tab (/clubs/{id}/events), a hunt's page
 * (/clubs/{id}/events/{eventId}) with its answers, and the plan and edit forms. Plain forms that post
 * and redirect with a toast; a form that fails comes back with every value as typed. Times are shown
 * in the reader's zone (their browser's, once JavaScript has told the server) or else the club's,
 * and the forms read wall clocks in the zone they show (ADR 0089).
 */

/** The zones the forms offer: the contiguous United States and beyond, then UTC. */
export const HUNT_ZONES = [
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Phoenix",
  "America/Los_Angeles",
  "America/Anchorage",
  "Pacific/Honolulu",
  "America/Halifax",
  "UTC",
];

export type HuntView = ClubEvent & { when: string; ends: string | null };
const view = (event: ClubEvent, zone: string): HuntView => ({
  ...event,
  when: dayAtClock(Date.parse(event.startsAt), zone),
  ends: event.endsAt ? dayAtClock(Date.parse(event.endsAt), zone) : null,
});

/** The zone a page shows times in: the reader's browser's, else the club's. */
async function shownZone(request: Request, clubId: number) {
  const club = await clubTimeZone(clubId);
  return { shown: timeZoneOfCookie(request.headers.get("Cookie") ?? undefined) ?? club, club };
}

/** The calendar feed's addresses for this viewer: a private club's carries the member's token, when they have one. */
async function calendarLinks(request: Request, clubId: number, isPrivate: boolean, viewerId: number | null) {
  const token = isPrivate && viewerId ? await storedFeedToken(viewerId) : null;
  if (isPrivate && !token) return null;
  const path = `/clubs/${clubId}/events.ics${token ? `?token=${encodeURIComponent(token)}` : ""}`;
  const origin = new URL(feedOrigin(request));
  return { download: `${path}${token ? "&" : "?"}download=1`, webcal: `webcal://${origin.host}${path}` };
}

/** /clubs/{id}/events: the Hunts tab, coming ones first by start, the past folded (latest first). */
export async function huntsTabLoader(args: LoaderFunctionArgs) {
  return clubTabLoader(args, async ({ clubId, user, request }) => {
    const { shown } = await shownZone(request, clubId);
    const club = await getClub(user, clubId);
    const upcoming = (await listEvents(user, clubId)).map((e) => view(e, shown));
    const past = (await listPastEvents(user, clubId)).map((e) => view(e, shown));
    return data({
      clubId,
      upcoming,
      past,
      mayManage: await mayManageEvents(user, clubId),
      calendar: await calendarLinks(request, clubId, club.isPrivate, user?.id ?? null),
      needsToken: club.isPrivate && club.isMember,
      zone: shown,
    });
  });
}

/** /clubs/{id}/events/{eventId}: the hunt, who is going, the viewer's answer and (staff) its controls. */
export async function huntLoader(args: LoaderFunctionArgs) {
  return clubTabLoader(args, async ({ clubId, user, request }) => {
    const eventId = idParam(args.params.eventId, EVENT_NOT_FOUND);
    const { shown } = await shownZone(request, clubId);
    const club = await getClub(user, clubId);
    const event = view(await getEvent(user, clubId, eventId), shown);
    return data({
      clubId,
      event,
      attendees: await eventAttendees(user, clubId, eventId),
      isMember: club.isMember,
      mayManage: await mayManageEvents(user, clubId),
      over: Date.parse(event.endsAt ?? event.startsAt) < Date.now(),
      calendar: await calendarLinks(request, clubId, club.isPrivate, user?.id ?? null),
      zone: shown,
    });
  });
}

export type HuntFormValues = { title: string; description: string; location: string; startsAt: string; endsAt: string; timeZone: string };

/** /clubs/{id}/events/new (the club's owner and admins): the empty form, in the zone it reads times in. */
export async function newHuntLoader(args: LoaderFunctionArgs) {
  return clubTabLoader(args, async ({ clubId, user, request }) => {
    await requireClubStaff(user, clubId);
    const { shown } = await shownZone(request, clubId);
    const values: HuntFormValues = { title: "", description: "", location: "", startsAt: "", endsAt: "", timeZone: shown };
    return data({ clubId, values, zones: zonesWith(shown) });
  });
}

/** /clubs/{id}/events/{eventId}/edit (staff): the form filled with the hunt, its times as wall clocks in the zone shown. */
export async function editHuntLoader(args: LoaderFunctionArgs) {
  return clubTabLoader(args, async ({ clubId, user, request }) => {
    await requireClubStaff(user, clubId);
    const eventId = idParam(args.params.eventId, EVENT_NOT_FOUND);
    const event = await getEvent(user, clubId, eventId);
    const { shown } = await shownZone(request, clubId);
    const values: HuntFormValues = {
      title: event.title,
      description: event.description,
      location: event.location ?? "",
      startsAt: localOfInstant(Date.parse(event.startsAt), shown),
      endsAt: event.endsAt ? localOfInstant(Date.parse(event.endsAt), shown) : "",
      timeZone: shown,
    };
    return data({ clubId, event: { id: event.id, title: event.title, cancelled: event.cancelled }, values, zones: zonesWith(shown) });
  });
}

const zonesWith = (zone: string) => (HUNT_ZONES.includes(zone) ? HUNT_ZONES : [zone, ...HUNT_ZONES]);

const FIELDS = ["title", "description", "location", "startsAt", "endsAt", "timeZone"] as const;
function formValues(form: FormData): HuntFormValues {
  const read = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  return Object.fromEntries(FIELDS.map((f) => [f, read(f)])) as HuntFormValues;
}

export type HuntFormFailure = { error: string; fieldErrors: FieldErrors; values: HuntFormValues };

/** A fixable refusal of the form (bad input, too many hunts today): the form again, as typed, with the messages. */
async function keepTyped<T>(values: HuntFormValues, run: () => Promise<T>) {
  try {
    return await run();
  } catch (error) {
    if (!isAppError(error) || isRefusal(error) || error.status === 401) throw error;
    const headers = error.retryAfter ? { "Retry-After": String(error.retryAfter) } : undefined;
    return data<HuntFormFailure>({ error: error.message, fieldErrors: error.fieldErrors ?? {}, values }, { status: error.status, headers });
  }
}

const huntPath = (clubId: number, eventId: number) => `/clubs/${clubId}/events/${eventId}`;

/** POST /clubs/{id}/events/new: plans the hunt (once per idempotency key), then its page. */
export async function newHuntAction(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request, params }) => {
    const clubId = idParam(params.id, CLUB_NOT_FOUND);
    const actor = await getSessionUser(request);
    const form = await readFormData(request);
    const values = formValues(form);
    return idempotent(request, actor?.id, formKey(form), () =>
      keepTyped(values, async () => {
        const event = await createEvent(actor, clubId, values, {
          creatorZone: timeZoneOfCookie(request.headers.get("Cookie") ?? undefined),
        });
        return redirectWithToast(huntPath(clubId, event.id), {
          title: "Hunt planned",
          description: "The club's members will hear of it.",
          type: "success",
        });
      }),
    );
  });
}

/** POST /clubs/{id}/events/{eventId}/edit: saves the hunt, then its page. */
export async function editHuntAction(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request, params }) => {
    const clubId = idParam(params.id, CLUB_NOT_FOUND);
    const eventId = idParam(params.eventId, EVENT_NOT_FOUND);
    const actor = await getSessionUser(request);
    const values = formValues(await readFormData(request));
    return keepTyped(values, async () => {
      await editEvent(actor, clubId, eventId, values);
      return redirectWithToast(huntPath(clubId, eventId), { title: "Hunt saved", type: "success" });
    });
  });
}

const RSVP_TOAST = { going: "You're going", maybe: "You might go", no: "You're not going" } as const;

/** POST /clubs/{id}/events/{eventId}: `intent=rsvp` (members: going, maybe or no) or `intent=cancel` (staff). */
export async function huntAction(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request, params }) => {
    const clubId = idParam(params.id, CLUB_NOT_FOUND);
    const eventId = idParam(params.eventId, EVENT_NOT_FOUND);
    const actor = await getSessionUser(request);
    const form = await readFormData(request);
    const back = huntPath(clubId, eventId);
    const intent = form.get("intent");
    const toastError = async (run: () => Promise<Response>) => {
      try {
        return await run();
      } catch (error) {
        if (!isAppError(error) || isRefusal(error) || error.status === 401) throw error;
        return redirectWithToast(back, { title: "Error", description: error.message, type: "error" });
      }
    };
    if (intent === "rsvp") {
      return toastError(async () => {
        const event = await rsvpEvent(actor, clubId, eventId, { status: form.get("status") });
        return redirectWithToast(back, { title: RSVP_TOAST[event.myRsvp ?? "no"], type: "success" });
      });
    }
    if (intent === "cancel") {
      return toastError(async () => {
        await cancelEvent(actor, clubId, eventId);
        return redirectWithToast(back, { title: "Hunt cancelled", description: "Those going or maybe will hear of it.", type: "success" });
      });
    }
    throw data({ message: `Invalid intent "${String(intent)}"` }, { status: 400 });
  });
}

import { createHash } from "node:crypto";
import ical, { ICalEventStatus } from "ical-generator";
import type { CalendarEvent } from "~/models/clubs/club-event.server";
import { APP_NAME } from "~/utils/brand";
import { feedOrigin, ifNoneMatchHits } from "./atom-feed.server";
import { NO_STORE_VALUE, VISITOR_PUBLIC_VALUE } from "./cache-control.server";

/**
 * The club's calendar feed as RFC 5545 (issue 44, CONTRACT.md §14 "Calendar feed", ADR 0089), drawn
 * with ical-generator (10.2: 11 needs Node 22). Times in UTC; each hunt's UID is made from its
 * club and id only, so an edit (a new SEQUENCE) or a cancelling (STATUS:CANCELLED) updates the same
 * entry in a subscribed phone's calendar. DTSTAMP is the hunt's last change, so the body, and with it
 * the ETag, changes only when a hunt does: a calendar polling an unchanged feed gets a 304. A hunt
 * with no end ends when it starts (RFC 5545 §3.6.1 reads a missing DTEND so; the contract wants one).
 */

export const CALENDAR_CONTENT_TYPE = "text/calendar; charset=utf-8";

/** The UID of a club hunt: the same for as long as the hunt exists, whatever the site's address. */
export const huntUid = (clubId: number, eventId: number) => `club-${clubId}-hunt-${eventId}@whitetail-pulse`;

export function drawCalendar(origin: string, club: { id: number; name: string }, events: CalendarEvent[]): string {
  const calendar = ical({
    name: `${club.name} hunts · ${APP_NAME}`,
    prodId: { company: APP_NAME, product: "Club hunts", language: "EN" },
    url: `${origin}/clubs/${club.id}/events`,
  });
  for (const e of events) {
    calendar.createEvent({
      id: huntUid(club.id, e.id),
      sequence: e.sequence,
      stamp: e.updatedAt,
      created: e.createdAt,
      lastModified: e.updatedAt,
      start: e.startsAt,
      end: e.endsAt ?? e.startsAt,
      summary: e.title,
      description: e.description,
      location: e.location,
      url: `${origin}/clubs/${club.id}/events/${e.id}`,
      status: e.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
  }
  return calendar.toString();
}

/** The feed as an answer: `text/calendar` with an ETag of its body; a private club's (read with a member's token) is never stored. */
export function calendarResponse(
  request: Request,
  feed: { club: { id: number; name: string; isPrivate: boolean }; events: CalendarEvent[] },
  download: boolean,
): Response {
  const body = drawCalendar(feedOrigin(request), feed.club, feed.events);
  const etag = `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  const headers = new Headers({
    ETag: etag,
    "Cache-Control": feed.club.isPrivate ? NO_STORE_VALUE : VISITOR_PUBLIC_VALUE,
    "X-Content-Type-Options": "nosniff",
    // A private feed's URL holds its token: never sent on as a Referer.
    "Referrer-Policy": "no-referrer",
  });
  if (ifNoneMatchHits(request.headers.get("If-None-Match"), etag)) return new Response(null, { status: 304, headers });
  headers.set("Content-Type", CALENDAR_CONTENT_TYPE);
  if (download) headers.set("Content-Disposition", `attachment; filename="club-${feed.club.id}-hunts.ics"`);
  return new Response(body, { status: 200, headers });
}

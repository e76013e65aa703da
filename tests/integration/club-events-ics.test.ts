import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import * as eventsApi from "~/routes/api.clubs.$id.events";
import * as eventApi from "~/routes/api.clubs.$id.events.$eventId";
import { loader as icsLoader } from "~/routes/clubs.$id/events-ics";
import { feedToken, replaceFeedToken } from "~/models/feeds/feed-token.server";
import { newClub } from "../fixtures/clubs";
import { call, createMember, makeRequest } from "../fixtures/members";
import { setClubRole } from "../fixtures/moderation";

/**
 * GET /clubs/{id}/events.ics (issue 44, CONTRACT.md §14 "Calendar feed"), parsed with ical.js, a
 * real RFC 5545 parser: each hunt with a UID that survives edits, DTSTAMP, DTSTART/DTEND in UTC,
 * SUMMARY, DESCRIPTION, LOCATION, URL and STATUS:CANCELLED; hunts from 30 days ago on; a private
 * club's feed only with a member's feed token.
 */

const DAY = 86_400_000;
const inDays = (d: number) => new Date(Date.now() + d * DAY).toISOString();

const ics = (clubId: number, query = "", headers: Record<string, string> = {}) =>
  call(icsLoader, makeRequest(`/clubs/${clubId}/events.ics${query}`, { headers }), { id: String(clubId) });
const post = (cookie: string, clubId: number, body: unknown) =>
  call(eventsApi.action, makeRequest(`/api/clubs/${clubId}/events`, { json: body, cookie }), { id: String(clubId) });
const put = (cookie: string, clubId: number, eventId: number, body: unknown) =>
  call(eventApi.action, makeRequest(`/api/clubs/${clubId}/events/${eventId}`, { method: "PUT", json: body, cookie }), {
    id: String(clubId),
    eventId: String(eventId),
  });
const del = (cookie: string, clubId: number, eventId: number) =>
  call(eventApi.action, makeRequest(`/api/clubs/${clubId}/events/${eventId}`, { method: "DELETE", cookie }), {
    id: String(clubId),
    eventId: String(eventId),
  });

function vevents(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  expect(calendar.name).toBe("vcalendar");
  expect(calendar.getFirstPropertyValue("version")).toBe("2.0");
  expect(calendar.getFirstPropertyValue("prodid")).toBeTruthy();
  return calendar.getAllSubcomponents("vevent").map((v) => {
    const utc = (name: string) => {
      const prop = v.getFirstProperty(name);
      const time = prop?.getFirstValue() as ICAL.Time | undefined;
      // Written in UTC ("Z"), not a floating or zoned time.
      expect(time?.zone?.tzid, name).toBe("UTC");
      return time!.toJSDate().toISOString();
    };
    return {
      uid: v.getFirstPropertyValue("uid"),
      stamp: utc("dtstamp"),
      start: utc("dtstart"),
      end: utc("dtend"),
      summary: v.getFirstPropertyValue("summary"),
      description: v.getFirstPropertyValue("description"),
      location: v.getFirstPropertyValue("location"),
      url: v.getFirstPropertyValue("url"),
      status: v.getFirstPropertyValue("status"),
      sequence: v.getFirstPropertyValue("sequence"),
    };
  });
}

async function read(res: Response) {
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
  return vevents(await res.text());
}

describe("GET /clubs/{id}/events.ics", () => {
  it("lists the hunts from 30 days ago on, parsed by a real parser, every property in place", async () => {
    const owner = await createMember();
    const club = await newClub(owner, { isPrivate: false });
    const made = await post(owner.cookie, club.id, {
      title: "Opening morning; bring orange, a thermos",
      description: "Meet at the gate.\nNo talking past the creek.",
      location: "North gate",
      startsAt: "2031-11-15T05:30:00-06:00",
      endsAt: "2031-11-15T11:00:00-06:00",
    });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: number };
    await post(owner.cookie, club.id, { title: "Last week's sit", startsAt: inDays(-7) });
    await post(owner.cookie, club.id, { title: "Last season", startsAt: inDays(-40) });

    const events = await read(await ics(club.id));
    expect(events.map((e) => e.summary)).toEqual(["Last week's sit", "Opening morning; bring orange, a thermos"]);
    const hunt = events[1]!;
    expect(hunt).toMatchObject({
      uid: `club-${club.id}-hunt-${id}@whitetail-pulse`,
      start: "2031-11-15T11:30:00.000Z",
      end: "2031-11-15T17:00:00.000Z",
      description: "Meet at the gate.\nNo talking past the creek.",
      location: "North gate",
      url: `http://localhost:3000/clubs/${club.id}/events/${id}`,
      status: "CONFIRMED",
    });
    expect(Date.parse(hunt.stamp)).toBeGreaterThan(0);
    // A hunt with no end ends when it starts (RFC 5545 reads a missing DTEND so).
    expect(events[0]!.end).toBe(events[0]!.start);
  });

  it("keeps each UID across an edit and a cancelling, which says STATUS:CANCELLED; the ETag follows the hunts", async () => {
    const owner = await createMember();
    const club = await newClub(owner, { isPrivate: false });
    const { id } = (await (await post(owner.cookie, club.id, { title: "Work day", startsAt: inDays(3) })).json()) as { id: number };
    const first = await ics(club.id);
    const etag = first.headers.get("ETag")!;
    const [before] = await read(first);
    expect((await ics(club.id, "", { "If-None-Match": etag })).status).toBe(304);

    expect((await put(owner.cookie, club.id, id, { title: "Work day: food plots", startsAt: inDays(4) })).status).toBe(200);
    const edited = await ics(club.id);
    expect(edited.headers.get("ETag")).not.toBe(etag);
    const [after] = await read(edited);
    expect(after!.uid).toBe(before!.uid);
    expect(after!.summary).toBe("Work day: food plots");
    expect(Number(after!.sequence)).toBeGreaterThan(Number(before!.sequence));

    expect((await del(owner.cookie, club.id, id)).status).toBe(204);
    const [cancelled] = await read(await ics(club.id));
    expect(cancelled).toMatchObject({ uid: before!.uid, status: "CANCELLED" });
  });

  it("a private club's feed is 404 without a member's feed token, and opens with one", async () => {
    const owner = await createMember();
    const member = await createMember();
    const outsider = await createMember();
    const club = await newClub(owner, { isPrivate: true });
    await setClubRole(club.id, member.id, "member");
    await post(owner.cookie, club.id, { title: "Secret stand day", startsAt: inDays(2) });

    for (const query of ["", "?token=", "?token=not-a-token", `?token=${await feedToken(outsider.id)}`]) {
      const res = await ics(club.id, query);
      expect(res.status, query).toBe(404);
      expect(await res.text()).not.toContain("Secret stand day");
    }
    // Signed in is not enough: a calendar app sends no cookie, and the feed reads only the token.
    const signedIn = await call(icsLoader, makeRequest(`/clubs/${club.id}/events.ics`, { cookie: member.cookie }), { id: String(club.id) });
    expect(signedIn.status).toBe(404);

    const token = await feedToken(member.id);
    const res = await ics(club.id, `?token=${token}`);
    expect((await read(res)).map((e) => e.summary)).toEqual(["Secret stand day"]);
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    // A replaced token ends the old one.
    await replaceFeedToken(member.id);
    expect((await ics(club.id, `?token=${token}`)).status).toBe(404);
    expect((await ics(999_999)).status).toBe(404);
  });

  it("?download=1 answers it as a file", async () => {
    const owner = await createMember();
    const club = await newClub(owner, { isPrivate: false });
    const res = await ics(club.id, "?download=1");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="club-${club.id}-hunts.ics"`);
    expect(await read(res)).toEqual([]);
  });
});

import { eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { clubEventJobs, clubEventRsvps, clubEvents, clubs } from "#db/schema";
import * as eventsApi from "~/routes/api.clubs.$id.events";
import * as eventApi from "~/routes/api.clubs.$id.events.$eventId";
import * as rsvpApi from "~/routes/api.clubs.$id.events.$eventId.rsvp";
import { drainEventJobs } from "~/models/clubs/club-event-jobs.server";
import { joinClub } from "~/models/clubs/club-membership.server";
import { db } from "~/utils/db.server";
import { newClub } from "../fixtures/clubs";
import { limitsOff, startLimitsClock } from "../fixtures/limits-clock";
import { call, createMember, makeRequest } from "../fixtures/members";
import { createStaff, setClubRole } from "../fixtures/moderation";

/**
 * Club hunts through HTTP as a client calls them (issue 44, CONTRACT.md §14 "Club hunts"): the owner
 * and admins make, edit and cancel; members answer; whoever reads the club's posts reads its hunts.
 * Every refusal is checked against the tables: it changes nothing.
 */

type Who = Awaited<ReturnType<typeof createMember>> | null;

async function cast(isPrivate: boolean) {
  const owner = await createMember();
  const club = await newClub(owner, { isPrivate });
  const add = async (role: "admin" | "member") => {
    const m = await createMember();
    if (isPrivate) await setClubRole(club.id, m.id, role);
    else {
      await joinClub(m, club.id);
      if (role === "admin") await setClubRole(club.id, m.id, "admin");
    }
    return m;
  };
  return {
    club,
    owner,
    clubAdmin: await add("admin"),
    member: await add("member"),
    outsider: await createMember(),
    moderator: await createStaff("moderator"),
    siteAdmin: await createStaff("admin"),
  };
}

const DAY = 24 * 3_600_000;
const inDays = (days: number, zone = "Z") => new Date(Date.now() + days * DAY).toISOString().replace("Z", zone === "Z" ? "Z" : zone);
const hunt = (over: Record<string, unknown> = {}) => ({
  title: "Opening morning at the creek stand",
  description: "Meet at the gate. Blaze orange.",
  startsAt: new Date(Math.floor((Date.now() + 3 * DAY) / 60_000) * 60_000).toISOString(),
  location: "North gate",
  ...over,
});

const cookie = (who: Who) => who?.cookie ?? null;
const json = async (res: Response) => (await res.json()) as Record<string, unknown>;

const post = (who: Who, clubId: number, body: unknown, headers: Record<string, string> = {}) =>
  call(eventsApi.action, makeRequest(`/api/clubs/${clubId}/events`, { json: body, cookie: cookie(who), headers }), { id: String(clubId) });
const list = (who: Who, clubId: number, query = "") =>
  call(eventsApi.loader, makeRequest(`/api/clubs/${clubId}/events${query}`, { cookie: cookie(who) }), { id: String(clubId) });
const put = (who: Who, clubId: number, eventId: number, body: unknown) =>
  call(eventApi.action, makeRequest(`/api/clubs/${clubId}/events/${eventId}`, { method: "PUT", json: body, cookie: cookie(who) }), {
    id: String(clubId),
    eventId: String(eventId),
  });
const del = (who: Who, clubId: number, eventId: number) =>
  call(eventApi.action, makeRequest(`/api/clubs/${clubId}/events/${eventId}`, { method: "DELETE", cookie: cookie(who) }), {
    id: String(clubId),
    eventId: String(eventId),
  });
const rsvp = (who: Who, clubId: number, eventId: number, status: unknown) =>
  call(rsvpApi.action, makeRequest(`/api/clubs/${clubId}/events/${eventId}/rsvp`, { json: { status }, cookie: cookie(who) }), {
    id: String(clubId),
    eventId: String(eventId),
  });

/** Everything a hunt write could touch, for "every refusal changes nothing". */
async function snapshot(clubId: number) {
  // The notices a write owes are told after it commits (club-event-jobs): let them settle first, so
  // the snapshot compares what a refusal could have changed, not the job's own progress.
  await drainEventJobs();
  const events = await db.select().from(clubEvents).where(eq(clubEvents.clubId, clubId)).orderBy(clubEvents.id);
  const ids = events.map((e) => e.id);
  const rsvps = ids.length
    ? await db
        .select()
        .from(clubEventRsvps)
        .where(inArray(clubEventRsvps.eventId, ids))
        .orderBy(clubEventRsvps.eventId, clubEventRsvps.userId)
    : [];
  const jobs = ids.length ? await db.select().from(clubEventJobs).where(inArray(clubEventJobs.eventId, ids)).orderBy(clubEventJobs.id) : [];
  const zone = (await db.select({ z: clubs.timeZone }).from(clubs).where(eq(clubs.id, clubId)))[0]?.z;
  return JSON.stringify({ events, rsvps, jobs, zone });
}

async function made(who: Who, clubId: number, over: Record<string, unknown> = {}) {
  const res = await post(who, clubId, hunt(over));
  expect(res.status).toBe(201);
  return (await json(res)) as { id: number } & Record<string, unknown>;
}

describe("POST /api/clubs/{id}/events", () => {
  it("lets the owner and a club admin make a hunt, answered as CONTRACT §14's object", async () => {
    const c = await cast(false);
    const res = await post(c.owner, c.club.id, hunt({ endsAt: inDays(3.2) }));
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body).toMatchObject({
      clubId: c.club.id,
      title: "Opening morning at the creek stand",
      description: "Meet at the gate. Blaze orange.",
      location: "North gate",
      cancelled: false,
      createdBy: { username: c.owner.username, displayName: c.owner.displayName },
      going: 0,
      maybe: 0,
      myRsvp: null,
    });
    expect(typeof body.id).toBe("number");
    expect(body.startsAt).toBe(hunt().startsAt);
    expect(Object.keys(body).sort()).toEqual(
      [
        "id",
        "clubId",
        "title",
        "description",
        "startsAt",
        "endsAt",
        "location",
        "cancelled",
        "createdBy",
        "going",
        "maybe",
        "myRsvp",
      ].sort(),
    );
    expect((await post(c.clubAdmin, c.club.id, hunt())).status).toBe(201);
  });

  it("stores an offset time as the instant it names", async () => {
    const c = await cast(false);
    const body = await made(c.owner, c.club.id, { startsAt: "2030-12-05T05:30:00-06:00" });
    expect(body.startsAt).toBe("2030-12-05T11:30:00.000Z");
  });

  it("refuses visitor 401, non-member, member and site staff 403, changing nothing", async () => {
    for (const isPrivate of [false, true]) {
      const c = await cast(isPrivate);
      const before = await snapshot(c.club.id);
      const refused: [Who, number][] = [
        [null, 401],
        [c.outsider, 403],
        [c.member, 403],
        [c.moderator, 403],
        [c.siteAdmin, 403],
      ];
      for (const [who, status] of refused) {
        const res = await post(who, c.club.id, hunt());
        expect(res.status, `${who?.username ?? "visitor"} private=${isPrivate}`).toBe(status);
        expect(typeof (await json(res)).error).toBe("string");
      }
      expect(await snapshot(c.club.id)).toBe(before);
    }
  });

  it("validates: 400 with fieldErrors for each bad field, nothing stored", async () => {
    const c = await cast(false);
    const before = await snapshot(c.club.id);
    const bad: [Record<string, unknown>, string][] = [
      [{ title: "" }, "title"],
      [{ title: "x".repeat(121) }, "title"],
      [{ description: "x".repeat(2001) }, "description"],
      [{ location: "x".repeat(101) }, "location"],
      [{ startsAt: "2030-12-05T05:30" }, "startsAt"],
      [{ startsAt: "next Saturday" }, "startsAt"],
      [{ startsAt: undefined }, "startsAt"],
      [{ endsAt: "2020-01-01T00:00:00Z" }, "endsAt"],
      [{ endsAt: hunt().startsAt }, "endsAt"],
    ];
    for (const [over, field] of bad) {
      const res = await post(c.owner, c.club.id, hunt(over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      const body = (await json(res)) as { error: string; fieldErrors: Record<string, string[]> };
      expect(body.fieldErrors[field], JSON.stringify(body)).toBeDefined();
    }
    expect((await post(c.owner, c.club.id, "[1]")).status).toBe(400);
    expect(await snapshot(c.club.id)).toBe(before);
  });

  it("404 for a club that does not exist", async () => {
    const c = await cast(false);
    expect((await post(c.owner, 999_999, hunt())).status).toBe(404);
  });

  it("honours Idempotency-Key: a resend makes one hunt and gets the first answer", async () => {
    const c = await cast(false);
    const headers = { "Idempotency-Key": "hunt-create-1" };
    const first = await post(c.owner, c.club.id, hunt(), headers);
    const second = await post(c.owner, c.club.id, hunt(), headers);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await json(second)).id).toBe((await json(first)).id);
    expect(await db.select().from(clubEvents).where(eq(clubEvents.clubId, c.club.id))).toHaveLength(1);
  });

  describe("with limits on", () => {
    afterEach(limitsOff);
    it("answers 429 with Retry-After past the day's hunts, storing nothing", async () => {
      const { setRateLimitsEnabled } = await import("~/utils/rate-limit.server");
      startLimitsClock();
      setRateLimitsEnabled(true);
      const c = await cast(false);
      for (let i = 0; i < 30; i++) expect((await post(c.owner, c.club.id, hunt())).status).toBe(201);
      const before = await snapshot(c.club.id);
      const res = await post(c.owner, c.club.id, hunt());
      expect(res.status).toBe(429);
      expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
      expect(await snapshot(c.club.id)).toBe(before);
    });
  });
});

describe("GET /api/clubs/{id}/events", () => {
  it("lists from now by start time; from/to pick a window; cancelled ones say so", async () => {
    const c = await cast(false);
    const later = await made(c.owner, c.club.id, { title: "Later", startsAt: inDays(10) });
    const sooner = await made(c.owner, c.club.id, { title: "Sooner", startsAt: inDays(2) });
    await made(c.owner, c.club.id, { title: "Past", startsAt: inDays(-5) });
    expect((await del(c.owner, c.club.id, sooner.id)).status).toBe(204);
    const res = await list(null, c.club.id);
    expect(res.status).toBe(200);
    const { items } = (await res.json()) as { items: { title: string; cancelled: boolean }[] };
    expect(items.map((i) => [i.title, i.cancelled])).toEqual([
      ["Sooner", true],
      ["Later", false],
    ]);
    const windowed = (await (
      await list(null, c.club.id, `?from=${encodeURIComponent(inDays(-6))}&to=${encodeURIComponent(inDays(5))}`)
    ).json()) as {
      items: { title: string }[];
    };
    expect(windowed.items.map((i) => i.title)).toEqual(["Past", "Sooner"]);
    expect(later.title).toBe("Later");
    expect((await list(null, c.club.id, "?from=yesterday")).status).toBe(400);
  });

  it("a private club's hunts: members, admins and the owner read them; visitor, non-member and site staff do not", async () => {
    const c = await cast(true);
    await made(c.owner, c.club.id);
    for (const who of [c.owner, c.clubAdmin, c.member]) {
      const res = await list(who, c.club.id);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { items: unknown[] }).items).toHaveLength(1);
    }
    for (const who of [null, c.outsider, c.moderator, c.siteAdmin]) {
      const res = await list(who, c.club.id);
      expect(res.status).toBe(403);
      expect(JSON.stringify(await res.json())).not.toContain("Opening morning");
    }
    expect((await list(null, 999_999)).status).toBe(404);
  });

  it("myRsvp is the caller's own answer", async () => {
    const c = await cast(false);
    const e = await made(c.owner, c.club.id);
    await rsvp(c.member, c.club.id, e.id, "maybe");
    const mine = (await (await list(c.member, c.club.id)).json()) as { items: { myRsvp: string | null; maybe: number }[] };
    expect(mine.items[0]).toMatchObject({ myRsvp: "maybe", maybe: 1 });
    const theirs = (await (await list(c.outsider, c.club.id)).json()) as { items: { myRsvp: string | null }[] };
    expect(theirs.items[0]!.myRsvp).toBeNull();
  });
});

describe("PUT and DELETE /api/clubs/{id}/events/{eventId}", () => {
  it("staff edit the fields sent; a new start moves the reminder not yet sent", async () => {
    const c = await cast(false);
    const e = await made(c.owner, c.club.id);
    const startsAt = inDays(5);
    const res = await put(c.clubAdmin, c.club.id, e.id, { title: "Moved to Sunday", startsAt, endsAt: null });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ id: e.id, title: "Moved to Sunday", location: "North gate", endsAt: null });
    expect(body.startsAt).toBe(new Date(startsAt).toISOString());
    const [reminder] = await db.select().from(clubEventJobs).where(eq(clubEventJobs.eventId, e.id)).orderBy(clubEventJobs.kind);
    const jobs = await db.select().from(clubEventJobs).where(eq(clubEventJobs.eventId, e.id));
    expect(jobs.find((j) => j.kind === "reminder")!.dueAt.getTime()).toBe(Date.parse(startsAt) - DAY);
    expect(reminder).toBeDefined();
  });

  it("refuses visitor 401, non-member, member and site staff 403 (edit and cancel), changing nothing", async () => {
    for (const isPrivate of [false, true]) {
      const c = await cast(isPrivate);
      const e = await made(c.owner, c.club.id);
      const before = await snapshot(c.club.id);
      for (const [who, status] of [
        [null, 401],
        [c.outsider, 403],
        [c.member, 403],
        [c.moderator, 403],
        [c.siteAdmin, 403],
      ] as [Who, number][]) {
        expect((await put(who, c.club.id, e.id, { title: "Hijacked" })).status).toBe(status);
        expect((await del(who, c.club.id, e.id)).status).toBe(status);
      }
      expect(await snapshot(c.club.id)).toBe(before);
    }
  });

  it("validates an edit against the stored times; a hunt of another club is 404", async () => {
    const c = await cast(false);
    const e = await made(c.owner, c.club.id, { endsAt: inDays(3.5) });
    const before = await snapshot(c.club.id);
    const res = await put(c.owner, c.club.id, e.id, { startsAt: inDays(4) });
    expect(res.status).toBe(400);
    expect(((await json(res)) as { fieldErrors: Record<string, string[]> }).fieldErrors.endsAt).toEqual([
      "End time must be after the start time",
    ]);
    expect((await put(c.owner, c.club.id, e.id, { title: "" })).status).toBe(400);
    const other = await cast(false);
    expect((await put(other.owner, other.club.id, e.id, { title: "Elsewhere" })).status).toBe(404);
    expect((await del(other.owner, other.club.id, e.id)).status).toBe(404);
    expect(await snapshot(c.club.id)).toBe(before);
  });

  it("DELETE cancels: the hunt stays with cancelled true, its reminder dropped, a cancel notice owed once; a cancelled hunt takes no edit", async () => {
    const c = await cast(false);
    const e = await made(c.owner, c.club.id);
    expect((await del(c.clubAdmin, c.club.id, e.id)).status).toBe(204);
    expect((await del(c.owner, c.club.id, e.id)).status).toBe(204);
    const [row] = await db.select().from(clubEvents).where(eq(clubEvents.id, e.id));
    expect(row!.cancelledAt).not.toBeNull();
    const jobs = await db.select().from(clubEventJobs).where(eq(clubEventJobs.eventId, e.id));
    expect(jobs.filter((j) => j.kind === "cancel")).toHaveLength(1);
    expect(jobs.find((j) => j.kind === "reminder")!.doneAt).not.toBeNull();
    expect((await put(c.owner, c.club.id, e.id, { title: "Back on" })).status).toBe(409);
    expect((await rsvp(c.member, c.club.id, e.id, "going")).status).toBe(409);
  });
});

describe("POST /api/clubs/{id}/events/{eventId}/rsvp", () => {
  it("members, admins and the owner answer; counts follow each change of answer", async () => {
    const c = await cast(true);
    const e = await made(c.owner, c.club.id);
    const answer = async (who: Who, status: string) => {
      const res = await rsvp(who, c.club.id, e.id, status);
      expect(res.status).toBe(200);
      return json(res);
    };
    expect(await answer(c.member, "going")).toMatchObject({ going: 1, maybe: 0, myRsvp: "going" });
    expect(await answer(c.clubAdmin, "maybe")).toMatchObject({ going: 1, maybe: 1, myRsvp: "maybe" });
    expect(await answer(c.owner, "going")).toMatchObject({ going: 2, maybe: 1, myRsvp: "going" });
    expect(await answer(c.member, "going")).toMatchObject({ going: 2, maybe: 1 });
    expect(await answer(c.member, "no")).toMatchObject({ going: 1, maybe: 1, myRsvp: "no" });
    expect(await answer(c.clubAdmin, "going")).toMatchObject({ going: 2, maybe: 0 });
    const rows = await db.select().from(clubEventRsvps).where(eq(clubEventRsvps.eventId, e.id));
    expect(rows).toHaveLength(3);
  });

  it("refuses visitor 401, non-member and site staff 403, a bad answer 400, changing nothing", async () => {
    for (const isPrivate of [false, true]) {
      const c = await cast(isPrivate);
      const e = await made(c.owner, c.club.id);
      const before = await snapshot(c.club.id);
      expect((await rsvp(null, c.club.id, e.id, "going")).status).toBe(401);
      for (const who of [c.outsider, c.moderator, c.siteAdmin]) expect((await rsvp(who, c.club.id, e.id, "going")).status).toBe(403);
      const bad = await rsvp(c.member, c.club.id, e.id, "perhaps");
      expect(bad.status).toBe(400);
      expect(((await json(bad)) as { fieldErrors: Record<string, string[]> }).fieldErrors.status).toBeDefined();
      expect((await rsvp(c.member, c.club.id, 999_999, "going")).status).toBe(404);
      expect(await snapshot(c.club.id)).toBe(before);
    }
  });

  it("a hunt that is over takes no answer (409)", async () => {
    const c = await cast(false);
    const e = await made(c.owner, c.club.id, { startsAt: inDays(-2) });
    const before = await snapshot(c.club.id);
    expect((await rsvp(c.member, c.club.id, e.id, "going")).status).toBe(409);
    expect(await snapshot(c.club.id)).toBe(before);
  });
});

describe("writers at once (CONTRACT.md §11: a 2xx means stored, on either engine)", () => {
  const statusOf = async (eventId: number) => (await db.select().from(clubEvents).where(eq(clubEvents.id, eventId)))[0]!;

  it("answers sent at the same moment: one row per member, the stored counts equal to the rows", async () => {
    const c = await cast(false);
    const e = await made(c.owner, c.club.id);
    const members = [c.member, c.clubAdmin, c.owner];
    for (let i = 0; i < 3; i++) {
      const m = await createMember();
      await joinClub(m, c.club.id);
      members.push(m);
    }
    const sends = members.flatMap((m, i) =>
      ["going", "maybe", "no", ["going", "maybe", "no"][i % 3]!].map((status) => rsvp(m, c.club.id, e.id, status)),
    );
    expect((await Promise.all(sends)).map((r) => r.status)).toEqual(Array(sends.length).fill(200));
    const rows = await db.select().from(clubEventRsvps).where(eq(clubEventRsvps.eventId, e.id));
    expect(rows).toHaveLength(members.length);
    const stored = await statusOf(e.id);
    expect([stored.going, stored.maybe]).toEqual([
      rows.filter((r) => r.status === "going").length,
      rows.filter((r) => r.status === "maybe").length,
    ]);
  });

  it("edits, a cancel and answers at once: each write that answered 2xx is kept (the sequence counts them), one cancel notice is owed", async () => {
    const c = await cast(false);
    const e = await made(c.owner, c.club.id);
    const before = await statusOf(e.id);
    const results = await Promise.all([
      put(c.owner, c.club.id, e.id, { title: "Moved to the south stand" }),
      put(c.clubAdmin, c.club.id, e.id, { location: "South gate" }),
      del(c.owner, c.club.id, e.id),
      rsvp(c.member, c.club.id, e.id, "going"),
      rsvp(c.clubAdmin, c.club.id, e.id, "maybe"),
    ]);
    const statuses = results.map((r) => r.status);
    // Each write is either before the cancel (2xx) or after it (409); none is lost or half done.
    for (const status of statuses) expect([200, 204, 409]).toContain(status);
    const after = await statusOf(e.id);
    expect(after.cancelledAt).not.toBeNull();
    const editsKept = statuses.slice(0, 2).filter((s) => s === 200).length;
    expect(after.sequence).toBe(before.sequence + editsKept + 1);
    if (statuses[0] === 200) expect(after.title).toBe("Moved to the south stand");
    if (statuses[1] === 200) expect(after.location).toBe("South gate");
    const answered = (await db.select().from(clubEventRsvps).where(eq(clubEventRsvps.eventId, e.id))).length;
    expect(answered).toBe(statuses.slice(3).filter((s) => s === 200).length);
    const jobs = await db.select().from(clubEventJobs).where(eq(clubEventJobs.eventId, e.id));
    expect(jobs.filter((j) => j.kind === "cancel")).toHaveLength(1);
    expect(jobs.filter((j) => j.kind === "reminder" && j.doneAt === null)).toHaveLength(0);
  });
});

import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { clubEventJobs, notifications } from "#db/schema";
import * as eventsApi from "~/routes/api.clubs.$id.events";
import * as eventApi from "~/routes/api.clubs.$id.events.$eventId";
import * as rsvpApi from "~/routes/api.clubs.$id.events.$eventId.rsvp";
import { drainEventJobs, eventJobQueue, runEventJobBatch } from "~/models/clubs/club-event-jobs.server";
import { joinClub, leaveClub } from "~/models/clubs/club-membership.server";
import { listNotifications, unreadCount } from "~/models/notifications/notification.server";
import { db } from "~/utils/db.server";
import { newClub } from "../fixtures/clubs";
import { call, createMember, makeRequest } from "../fixtures/members";
import { setClubRole } from "../fixtures/moderation";

/**
 * The notices a club hunt owes (issue 44, CONTRACT.md §7, §11, §14): `club_event` to every member,
 * `event_reminder` once 24 hours before to those going or maybe, `event_cancelled` to them. They are
 * rows written with the hunt and told by the job after it commits; nothing is told twice, across
 * runs, restarts and failures, and nothing reaches a member who may no longer read the club.
 */

const HOUR = 3_600_000;
const inHours = (h: number) => new Date(Date.now() + h * HOUR).toISOString();

type M = Awaited<ReturnType<typeof createMember>>;
const post = (who: M, clubId: number, body: unknown) =>
  call(eventsApi.action, makeRequest(`/api/clubs/${clubId}/events`, { json: body, cookie: who.cookie }), { id: String(clubId) });
const put = (who: M, clubId: number, eventId: number, body: unknown) =>
  call(eventApi.action, makeRequest(`/api/clubs/${clubId}/events/${eventId}`, { method: "PUT", json: body, cookie: who.cookie }), {
    id: String(clubId),
    eventId: String(eventId),
  });
const del = (who: M, clubId: number, eventId: number) =>
  call(eventApi.action, makeRequest(`/api/clubs/${clubId}/events/${eventId}`, { method: "DELETE", cookie: who.cookie }), {
    id: String(clubId),
    eventId: String(eventId),
  });
const rsvp = (who: M, clubId: number, eventId: number, status: string) =>
  call(rsvpApi.action, makeRequest(`/api/clubs/${clubId}/events/${eventId}/rsvp`, { json: { status }, cookie: who.cookie }), {
    id: String(clubId),
    eventId: String(eventId),
  });

async function cast(isPrivate = false) {
  const owner = await createMember();
  const club = await newClub(owner, { isPrivate });
  const members: M[] = [];
  for (let i = 0; i < 3; i++) {
    const m = await createMember();
    if (isPrivate) await setClubRole(club.id, m.id, "member");
    else await joinClub(m, club.id);
    members.push(m);
  }
  return { owner, club, members, outsider: await createMember() };
}

async function plan(who: M, clubId: number, startsAt: string) {
  const res = await post(who, clubId, { title: "Opening morning", startsAt });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

/** Who holds a notice of this kind about this hunt (member ids, sorted). */
async function told(eventId: number, kind: "club_event" | "event_reminder" | "event_cancelled") {
  const rows = await db
    .select({ userId: notifications.userId })
    .from(notifications)
    .where(and(eq(notifications.eventId, eventId), eq(notifications.kind, kind)));
  return rows.map((r) => r.userId).sort((a, b) => a - b);
}
const ids = (...ms: M[]) => ms.map((m) => m.id).sort((a, b) => a - b);

/** Everything due by `now`, as the scheduled run would do it. */
async function runAll(now = new Date()) {
  await drainEventJobs();
  while (await runEventJobBatch(500, { now }));
}

describe("club_event: every member hears of a new hunt, once", () => {
  it("tells every member but its maker after the hunt commits, in the app with the hunt's link", async () => {
    const { owner, club, members, outsider } = await cast();
    const eventId = await plan(owner, club.id, inHours(72));
    await runAll();
    expect(await told(eventId, "club_event")).toEqual(ids(...members));
    expect(await told(eventId, "club_event")).not.toContain(outsider.id);
    const { items } = await listNotifications(members[0]!);
    expect(items[0]).toMatchObject({
      kind: "club_event",
      href: `/clubs/${club.id}/events/${eventId}`,
      club: { id: club.id, name: club.name },
      event: { id: eventId, title: "Opening morning" },
    });
    expect(items[0]!.text).toContain(`planned “Opening morning” in ${club.name}`);
    await runAll();
    expect(await told(eventId, "club_event")).toHaveLength(3);
  });

  it("goes on after a restart from its last whole batch: a batch of two, then a fresh drain, tell each member once", async () => {
    const { owner, club, members } = await cast();
    // The request's own nudge runs first; take the rows back to owed, as a process killed before its run leaves them.
    const eventId = await plan(owner, club.id, inHours(72));
    await drainEventJobs();
    await db.delete(notifications).where(eq(notifications.eventId, eventId));
    await db.update(clubEventJobs).set({ doneAt: null, cursor: 0 }).where(eq(clubEventJobs.eventId, eventId));
    // A batch of two: the owner (who is never told of their own hunt) and the first member.
    expect(await runEventJobBatch(2)).toBe(true);
    expect(await told(eventId, "club_event")).toHaveLength(1);
    // "Restart": the next process drains what is owed.
    await runAll();
    expect(await told(eventId, "club_event")).toEqual(ids(...members));
  });

  it("a failing batch changes nothing but its attempts and next try, and is told on the retry", async () => {
    const { owner, club, members } = await cast();
    const eventId = await plan(owner, club.id, inHours(72));
    await drainEventJobs();
    await db.delete(notifications).where(eq(notifications.eventId, eventId));
    await db.update(clubEventJobs).set({ doneAt: null, cursor: 0 }).where(eq(clubEventJobs.eventId, eventId));
    const fail = () => Promise.reject(new Error("database hiccup"));
    expect(await runEventJobBatch(500, { tell: fail })).toBe(true);
    const [job] = await db
      .select()
      .from(clubEventJobs)
      .where(and(eq(clubEventJobs.eventId, eventId), eq(clubEventJobs.kind, "announce")));
    expect(job).toMatchObject({ attempts: 1, doneAt: null, cursor: 0 });
    expect(job!.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    expect(await told(eventId, "club_event")).toEqual([]);
    expect((await eventJobQueue()).retrying).toBeGreaterThanOrEqual(1);
    await runAll(new Date(job!.nextAttemptAt!.getTime() + 1));
    expect(await told(eventId, "club_event")).toEqual(ids(...members));
  });
});

describe("event_reminder: once, 24 hours before, to those going or maybe", () => {
  it("waits for its time, then tells going and maybe (not no, not the silent), once", async () => {
    const { owner, club, members } = await cast();
    const startsAt = inHours(72);
    const eventId = await plan(owner, club.id, startsAt);
    const [going, maybe, no] = members as [M, M, M];
    expect((await rsvp(going, club.id, eventId, "going")).status).toBe(200);
    expect((await rsvp(maybe, club.id, eventId, "maybe")).status).toBe(200);
    expect((await rsvp(no, club.id, eventId, "no")).status).toBe(200);
    const start = Date.parse(startsAt);
    await runAll(new Date(start - 25 * HOUR));
    expect(await told(eventId, "event_reminder")).toEqual([]);
    expect((await eventJobQueue(new Date(start - 25 * HOUR))).scheduled).toBeGreaterThanOrEqual(1);
    await runAll(new Date(start - 23 * HOUR));
    expect(await told(eventId, "event_reminder")).toEqual(ids(going, maybe));
    await runAll(new Date(start - 22 * HOUR));
    expect(await told(eventId, "event_reminder")).toHaveLength(2);
    const { items } = await listNotifications(going);
    expect(items.find((i) => i.kind === "event_reminder")!.text).toContain("Reminder: “Opening morning”");
  });

  it("follows an edited start; a cancelled hunt reminds nobody", async () => {
    const { owner, club, members } = await cast();
    const first = Date.now() + 72 * HOUR;
    const eventId = await plan(owner, club.id, new Date(first).toISOString());
    await rsvp(members[0]!, club.id, eventId, "going");
    const later = first + 48 * HOUR;
    expect((await put(owner, club.id, eventId, { startsAt: new Date(later).toISOString() })).status).toBe(200);
    await runAll(new Date(first - 23 * HOUR));
    expect(await told(eventId, "event_reminder")).toEqual([]);
    await runAll(new Date(later - 23 * HOUR));
    expect(await told(eventId, "event_reminder")).toEqual(ids(members[0]!));

    const other = await plan(owner, club.id, new Date(first).toISOString());
    await rsvp(members[1]!, club.id, other, "going");
    expect((await del(owner, club.id, other)).status).toBe(204);
    await runAll(new Date(first - 23 * HOUR));
    expect(await told(other, "event_reminder")).toEqual([]);
  });
});

describe("event_cancelled: those going or maybe hear of it, once", () => {
  it("tells going and maybe, not the one who cancelled, not no", async () => {
    const { owner, club, members } = await cast();
    const eventId = await plan(owner, club.id, inHours(48));
    const [going, maybe, no] = members as [M, M, M];
    await rsvp(going, club.id, eventId, "going");
    await rsvp(maybe, club.id, eventId, "maybe");
    await rsvp(no, club.id, eventId, "no");
    await rsvp(owner, club.id, eventId, "going");
    expect((await del(owner, club.id, eventId)).status).toBe(204);
    expect((await del(owner, club.id, eventId)).status).toBe(204);
    await runAll();
    expect(await told(eventId, "event_cancelled")).toEqual(ids(going, maybe));
    const { items } = await listNotifications(maybe);
    expect(items.find((i) => i.kind === "event_cancelled")!.text).toContain("was cancelled");
  });
});

describe("told only what they may read", () => {
  it("a member who left a private club no longer sees or counts its hunt's notice", async () => {
    const { owner, club, members } = await cast(true);
    const eventId = await plan(owner, club.id, inHours(72));
    await runAll();
    const leaver = members[0]!;
    expect(await told(eventId, "club_event")).toContain(leaver.id);
    expect(await unreadCount(leaver.id)).toBe(1);
    await leaveClub(leaver, club.id);
    expect(await unreadCount(leaver.id)).toBe(0);
    expect((await listNotifications(leaver)).items).toEqual([]);
  });
});

describe("a club deleted", () => {
  it("takes its hunts, their answers, jobs and notices with it", async () => {
    const { deleteClub } = await import("~/models/clubs/club.server");
    const { clubEvents } = await import("#db/schema");
    const { owner, club, members } = await cast();
    const eventId = await plan(owner, club.id, inHours(72));
    await rsvp(members[0]!, club.id, eventId, "going");
    await runAll();
    expect(await told(eventId, "club_event")).toHaveLength(3);
    await deleteClub(owner, club.id);
    expect(await db.select().from(clubEvents).where(eq(clubEvents.id, eventId))).toEqual([]);
    expect(await db.select().from(notifications).where(eq(notifications.eventId, eventId))).toEqual([]);
    expect(await db.select().from(clubEventJobs).where(eq(clubEventJobs.eventId, eventId))).toEqual([]);
  });
});

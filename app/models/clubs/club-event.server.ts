import { and, asc, eq, gte, isNull, lt, sql } from "drizzle-orm";
import { clubEventJobs, clubEventRsvps, clubEvents, clubs, users, type RsvpStatus } from "#db/schema";
import {
  createEventSchema,
  editEventSchema,
  EVENT_NOT_FOUND,
  rsvpSchema,
  type CreateEventInput,
  type EditEventInput,
} from "~/schemas/club-event";
import { CLUB_NOT_FOUND } from "~/schemas/club";
import { afterCommit, db, first, writeTransaction, type Tx } from "~/utils/db.server";
import { conflict, forbidden, invalid, notFound } from "~/utils/errors";
import { consumeLimit } from "~/utils/rate-limit.server";
import { knownTimeZone } from "~/utils/time-zone";
import { zodFieldErrors } from "~/utils/validation";
import { canReadClub, getClubRow, getMembership, requireSignedIn } from "~/models/access.server";
import { memberByFeedToken } from "~/models/feeds/feed-token.server";
import type { Actor } from "~/models/members/user.server";
import { nudgeEventJobs } from "./club-event-jobs.server";
import { requireClubStaff } from "./club-membership.server";

/**
 * Club hunts (issue 44, CONTRACT.md §14 "Club hunts", docs/decisions/0089-club-hunts.md). The club's
 * owner and admins make, edit and cancel them; members answer going, maybe or no; whoever may read
 * the club's posts (`canReadClub`) reads them. Times are instants; the club's `timeZone` only says how
 * a form without JavaScript reads a wall clock. Each write is one transaction that also writes the
 * notifications it owes as job rows (club-event-jobs.server.ts), told only after it commits.
 */

export const NOT_MEMBER_RSVP = "Only members of this club can answer";
export const NOT_READER = "Only members can see this club's hunts";
export const HUNT_CANCELLED = "This hunt was cancelled";
export const HUNT_OVER = "This hunt is over";
export const ENDS_BEFORE_START = "End time must be after the start time";
/** The reminder goes this long before the start (CONTRACT.md §14). */
export const REMINDER_BEFORE_MS = 24 * 3_600_000;
/** A page of hunts: more than a club plans in a season. */
export const EVENT_LIST_MAX = 200;
/** How many names of who is going an event page lists. */
export const ATTENDEE_LIST_MAX = 100;

/** CONTRACT.md §14's event object. */
export type ClubEvent = {
  id: number;
  clubId: number;
  title: string;
  description: string;
  startsAt: string;
  endsAt: string | null;
  location: string | null;
  cancelled: boolean;
  createdBy: { username: string; displayName: string } | null;
  going: number;
  maybe: number;
  myRsvp: RsvpStatus | null;
};

type EventRow = typeof clubEvents.$inferSelect;
type CreatorCols = { creatorUsername: string | null; creatorDisplayName: string | null };

const eventColumns = {
  event: clubEvents,
  creatorUsername: users.username,
  creatorDisplayName: users.displayName,
};

function eventView(row: EventRow, creator: CreatorCols, myRsvp: RsvpStatus | null): ClubEvent {
  return {
    id: row.id,
    clubId: row.clubId,
    title: row.title,
    description: row.description,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt ? row.endsAt.toISOString() : null,
    location: row.location,
    cancelled: row.cancelledAt !== null,
    createdBy: creator.creatorUsername
      ? { username: creator.creatorUsername, displayName: creator.creatorDisplayName ?? creator.creatorUsername }
      : null,
    going: row.going,
    maybe: row.maybe,
    myRsvp,
  };
}

function parse<T>(
  schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false; error: unknown } },
  body: unknown,
): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalid(zodFieldErrors(parsed.error as Parameters<typeof zodFieldErrors>[0]));
  return parsed.data;
}

/** 404 no such club, 403 (or the same 404 for a private club's hunt to a visitor) when the actor may not read it. */
async function requireReader(actor: Actor, clubId: number): Promise<void> {
  if (!(await getClubRow(clubId))) throw notFound(CLUB_NOT_FOUND);
  if (!(await canReadClub(actor, clubId))) throw forbidden(NOT_READER);
}

async function eventRow(q: Tx, clubId: number, eventId: number): Promise<EventRow> {
  const row = first(
    await q
      .select()
      .from(clubEvents)
      .where(and(eq(clubEvents.id, eventId), eq(clubEvents.clubId, clubId))),
  );
  if (!row) throw notFound(EVENT_NOT_FOUND);
  return row;
}

async function loadEvent(q: Tx, clubId: number, eventId: number, viewerId: number | null): Promise<ClubEvent> {
  const row = first(
    await q
      .select(eventColumns)
      .from(clubEvents)
      .leftJoin(users, eq(users.id, clubEvents.createdById))
      .where(and(eq(clubEvents.id, eventId), eq(clubEvents.clubId, clubId))),
  );
  if (!row) throw notFound(EVENT_NOT_FOUND);
  const mine = viewerId
    ? first(
        await q
          .select({ status: clubEventRsvps.status })
          .from(clubEventRsvps)
          .where(and(eq(clubEventRsvps.eventId, eventId), eq(clubEventRsvps.userId, viewerId))),
      )
    : undefined;
  return eventView(row.event, row, mine?.status ?? null);
}

function checkTimes(startsAt: Date, endsAt: Date | null | undefined) {
  if (endsAt && endsAt.getTime() <= startsAt.getTime()) throw invalid({ endsAt: [ENDS_BEFORE_START] });
}

/** The zone the club's forms read wall clocks in: its own, else UTC. */
export async function clubTimeZone(clubId: number): Promise<string> {
  const row = first(await db.select({ zone: clubs.timeZone }).from(clubs).where(eq(clubs.id, clubId)));
  return knownTimeZone(row?.zone) ?? "UTC";
}

/** The reminder's due time: 24 hours before the start. */
const reminderDue = (startsAt: Date) => new Date(startsAt.getTime() - REMINDER_BEFORE_MS);

/** Once an event's write commits, its notices start going (club-event-jobs.server.ts). */
const nudge = () => nudgeEventJobs();

/**
 * POST /api/clubs/{id}/events (the club's owner and admins): 201 the event. `creatorZone` is the
 * zone of the maker's browser (their `tz` cookie): the club keeps it as its zone when it has none
 * yet, and a zone chosen on the form replaces it. Announces the hunt to every member once committed.
 */
export async function createEvent(
  actor: Actor,
  clubId: number,
  body: unknown,
  { now = new Date(), creatorZone }: { now?: Date; creatorZone?: string } = {},
): Promise<ClubEvent> {
  const { me } = await requireClubStaff(actor, clubId);
  const input: CreateEventInput = parse(createEventSchema, body);
  checkTimes(input.startsAt, input.endsAt);
  await consumeLimit("eventsPerUser", String(me.id), now.getTime());
  const zone = knownTimeZone(input.timeZone) ?? knownTimeZone(creatorZone);
  const id = await writeTransaction(async (tx) => {
    await requireClubStaff(actor, clubId, tx);
    const [row] = await tx
      .insert(clubEvents)
      .values({
        clubId,
        createdById: me.id,
        title: input.title,
        description: input.description ?? "",
        location: input.location ?? null,
        startsAt: input.startsAt,
        endsAt: input.endsAt ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: clubEvents.id });
    const eventId = row!.id;
    if (input.timeZone && zone) await tx.update(clubs).set({ timeZone: zone }).where(eq(clubs.id, clubId));
    else if (zone)
      await tx
        .update(clubs)
        .set({ timeZone: zone })
        .where(and(eq(clubs.id, clubId), isNull(clubs.timeZone)));
    await tx.insert(clubEventJobs).values([
      { eventId, kind: "announce", actorId: me.id, dueAt: now },
      { eventId, kind: "reminder", actorId: null, dueAt: reminderDue(input.startsAt) },
    ]);
    afterCommit(() => nudge());
    return eventId;
  });
  return loadEvent(db, clubId, id, me.id);
}

/** GET /api/clubs/{id}/events?from=&to=: by start time, those not yet over at `from` (now by default) and starting before `to`. */
export async function listEvents(
  actor: Actor,
  clubId: number,
  { from, to }: { from?: Date; to?: Date } = {},
  now = new Date(),
): Promise<ClubEvent[]> {
  await requireReader(actor, clubId);
  const since = from ?? now;
  const conditions = [eq(clubEvents.clubId, clubId), gte(sql`COALESCE(${clubEvents.endsAt}, ${clubEvents.startsAt})`, since.getTime())];
  if (to) conditions.push(lt(clubEvents.startsAt, to));
  return eventsWhere(actor, and(...conditions)!, "asc");
}

/** The hunts that are over (the Hunts tab's folded part), the latest first. */
export async function listPastEvents(actor: Actor, clubId: number, now = new Date(), limit = 50): Promise<ClubEvent[]> {
  await requireReader(actor, clubId);
  return eventsWhere(
    actor,
    and(eq(clubEvents.clubId, clubId), lt(sql`COALESCE(${clubEvents.endsAt}, ${clubEvents.startsAt})`, now.getTime()))!,
    "desc",
    limit,
  );
}

async function eventsWhere(actor: Actor, where: ReturnType<typeof and> & object, order: "asc" | "desc", limit = EVENT_LIST_MAX) {
  const rows = await db
    .select({ ...eventColumns, myRsvp: clubEventRsvps.status })
    .from(clubEvents)
    .leftJoin(users, eq(users.id, clubEvents.createdById))
    .leftJoin(clubEventRsvps, and(eq(clubEventRsvps.eventId, clubEvents.id), eq(clubEventRsvps.userId, actor?.id ?? 0)))
    .where(where)
    .orderBy(
      order === "asc" ? asc(clubEvents.startsAt) : sql`${clubEvents.startsAt} DESC`,
      order === "asc" ? asc(clubEvents.id) : sql`${clubEvents.id} DESC`,
    )
    .limit(limit);
  return rows.map((r) => eventView(r.event, r, r.myRsvp ?? null));
}

/** One hunt, to whoever may read the club's posts. */
export async function getEvent(actor: Actor, clubId: number, eventId: number): Promise<ClubEvent> {
  await requireReader(actor, clubId);
  return loadEvent(db, clubId, eventId, actor?.id ?? null);
}

export type Attendee = { username: string; displayName: string; avatar: string | null };

/** Who answered going and maybe (the event page), earliest answer first. */
export async function eventAttendees(actor: Actor, clubId: number, eventId: number): Promise<{ going: Attendee[]; maybe: Attendee[] }> {
  await requireReader(actor, clubId);
  await eventRow(db, clubId, eventId);
  const rows = await db
    .select({ status: clubEventRsvps.status, username: users.username, displayName: users.displayName, avatar: users.avatar })
    .from(clubEventRsvps)
    .innerJoin(users, eq(users.id, clubEventRsvps.userId))
    .where(and(eq(clubEventRsvps.eventId, eventId), sql`${clubEventRsvps.status} <> 'no'`))
    .orderBy(asc(clubEventRsvps.updatedAt), asc(clubEventRsvps.userId))
    .limit(ATTENDEE_LIST_MAX * 2);
  const pick = (status: RsvpStatus) =>
    rows
      .filter((r) => r.status === status)
      .slice(0, ATTENDEE_LIST_MAX)
      .map(({ username, displayName, avatar }) => ({ username, displayName, avatar }));
  return { going: pick("going"), maybe: pick("maybe") };
}

/** May the actor edit and cancel this club's hunts (the pages show the controls by it)? */
export async function mayManageEvents(actor: Actor, clubId: number): Promise<boolean> {
  if (!actor) return false;
  const role = (await getMembership(clubId, actor.id))?.role;
  return role === "owner" || role === "admin";
}

/**
 * PUT /api/clubs/{id}/events/{eventId} (staff): the fields sent replace the stored ones. A cancelled
 * hunt cannot be edited (409). A new start moves the reminder that has not gone yet.
 */
export async function editEvent(actor: Actor, clubId: number, eventId: number, body: unknown, now = new Date()): Promise<ClubEvent> {
  const { me } = await requireClubStaff(actor, clubId);
  const input: EditEventInput = parse(editEventSchema, body);
  await writeTransaction(async (tx) => {
    await requireClubStaff(actor, clubId, tx);
    const row = await eventRow(tx, clubId, eventId);
    if (row.cancelledAt) throw conflict(HUNT_CANCELLED);
    const startsAt = input.startsAt ?? row.startsAt;
    const endsAt = input.endsAt === undefined ? row.endsAt : input.endsAt;
    checkTimes(startsAt, endsAt);
    await tx
      .update(clubEvents)
      .set({
        title: input.title ?? row.title,
        description: input.description ?? row.description,
        location: input.location === undefined ? row.location : input.location,
        startsAt,
        endsAt,
        sequence: row.sequence + 1,
        updatedAt: now,
      })
      .where(eq(clubEvents.id, eventId));
    const zone = knownTimeZone(input.timeZone);
    if (zone) await tx.update(clubs).set({ timeZone: zone }).where(eq(clubs.id, clubId));
    if (startsAt.getTime() !== row.startsAt.getTime()) {
      await tx
        .update(clubEventJobs)
        .set({ dueAt: reminderDue(startsAt), nextAttemptAt: null })
        .where(and(eq(clubEventJobs.eventId, eventId), eq(clubEventJobs.kind, "reminder"), isNull(clubEventJobs.doneAt)));
      afterCommit(() => nudge());
    }
  });
  return loadEvent(db, clubId, eventId, me.id);
}

/**
 * DELETE /api/clubs/{id}/events/{eventId} (staff): cancels the hunt, kept for calendars as
 * STATUS:CANCELLED. Tells those going or maybe once; a reminder not yet sent is dropped. Cancelling
 * again changes nothing.
 */
export async function cancelEvent(actor: Actor, clubId: number, eventId: number, now = new Date()): Promise<void> {
  const { me } = await requireClubStaff(actor, clubId);
  await writeTransaction(async (tx) => {
    await requireClubStaff(actor, clubId, tx);
    const row = await eventRow(tx, clubId, eventId);
    if (row.cancelledAt) return;
    await tx
      .update(clubEvents)
      .set({ cancelledAt: now, sequence: row.sequence + 1, updatedAt: now })
      .where(eq(clubEvents.id, eventId));
    await tx
      .update(clubEventJobs)
      .set({ doneAt: now })
      .where(and(eq(clubEventJobs.eventId, eventId), eq(clubEventJobs.kind, "reminder"), isNull(clubEventJobs.doneAt)));
    // A hunt that is already over tells nobody of its cancelling.
    if ((row.endsAt ?? row.startsAt).getTime() > now.getTime()) {
      await tx.insert(clubEventJobs).values({ eventId, kind: "cancel", actorId: me.id, dueAt: now }).onConflictDoNothing();
      afterCommit(() => nudge());
    }
  });
}

/**
 * POST …/rsvp {status} (members; others 403): the member's answer, replacing any earlier one; the
 * counts move in the same transaction. A cancelled hunt or one that is over takes no answers (409).
 */
export async function rsvpEvent(actor: Actor, clubId: number, eventId: number, body: unknown, now = new Date()): Promise<ClubEvent> {
  const me = requireSignedIn(actor);
  if (!(await getClubRow(clubId))) throw notFound(CLUB_NOT_FOUND);
  if (!(await getMembership(clubId, me.id))) {
    // A private club's hunt stays unconfirmed to outsiders, as its posts do.
    if (!(await canReadClub(actor, clubId))) throw forbidden(NOT_READER);
    throw forbidden(NOT_MEMBER_RSVP);
  }
  const { status } = parse(rsvpSchema, body);
  await writeTransaction(async (tx) => {
    if (!(await getMembership(clubId, me.id, tx))) throw forbidden(NOT_MEMBER_RSVP);
    const row = await eventRow(tx, clubId, eventId);
    if (row.cancelledAt) throw conflict(HUNT_CANCELLED);
    if ((row.endsAt ?? row.startsAt).getTime() < now.getTime()) throw conflict(HUNT_OVER);
    const before = first(
      await tx
        .select({ status: clubEventRsvps.status })
        .from(clubEventRsvps)
        .where(and(eq(clubEventRsvps.eventId, eventId), eq(clubEventRsvps.userId, me.id))),
    )?.status;
    if (before === status) return;
    if (before) {
      await tx
        .update(clubEventRsvps)
        .set({ status, updatedAt: now })
        .where(and(eq(clubEventRsvps.eventId, eventId), eq(clubEventRsvps.userId, me.id)));
    } else {
      await tx.insert(clubEventRsvps).values({ eventId, userId: me.id, status, updatedAt: now });
    }
    const delta = (s: RsvpStatus) => (status === s ? 1 : 0) - (before === s ? 1 : 0);
    await tx
      .update(clubEvents)
      .set({ going: sql`${clubEvents.going} + ${delta("going")}`, maybe: sql`${clubEvents.maybe} + ${delta("maybe")}` })
      .where(eq(clubEvents.id, eventId));
  });
  return loadEvent(db, clubId, eventId, me.id);
}

/** How far back the calendar feed reaches (CONTRACT.md §14). */
export const FEED_PAST_MS = 30 * 24 * 3_600_000;
export const FEED_EVENTS_MAX = 500;

export type CalendarEvent = {
  id: number;
  title: string;
  description: string;
  location: string | null;
  startsAt: Date;
  endsAt: Date | null;
  cancelled: boolean;
  sequence: number;
  updatedAt: Date;
  createdAt: Date;
};

/**
 * GET /clubs/{id}/events.ics's content: the club's hunts from 30 days ago on. A private club's only
 * with `?token=` of one of its members (the personal feed token of the Atom feeds, CONTRACT.md §7);
 * anything else is the same 404 as a club that does not exist, so the feed confirms nothing.
 */
export async function calendarFeed(
  clubId: number,
  token: string | null,
  now = new Date(),
): Promise<{ club: { id: number; name: string; isPrivate: boolean }; events: CalendarEvent[] }> {
  const club = await getClubRow(clubId);
  if (!club) throw notFound(CLUB_NOT_FOUND);
  if (club.isPrivate) {
    const member = await memberByFeedToken(token, now.getTime());
    if (!member || !(await getMembership(clubId, member.id))) throw notFound(CLUB_NOT_FOUND);
  }
  const rows = await db
    .select()
    .from(clubEvents)
    .where(and(eq(clubEvents.clubId, clubId), gte(clubEvents.startsAt, new Date(now.getTime() - FEED_PAST_MS))))
    .orderBy(asc(clubEvents.startsAt), asc(clubEvents.id))
    .limit(FEED_EVENTS_MAX);
  return {
    club: { id: club.id, name: club.name, isPrivate: club.isPrivate },
    events: rows.map((r) => ({
      id: r.id,
      title: r.title,
      description: r.description,
      location: r.location,
      startsAt: r.startsAt,
      endsAt: r.endsAt,
      cancelled: r.cancelledAt !== null,
      sequence: r.sequence,
      updatedAt: r.updatedAt,
      createdAt: r.createdAt,
    })),
  };
}

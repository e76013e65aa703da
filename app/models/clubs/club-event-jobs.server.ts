import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, or, type SQL } from "drizzle-orm";
import { clubEventJobs, clubEventRsvps, clubEvents, clubMembers, type EventJobKind, type NotificationKind } from "#db/schema";
import { countWhere, db, first, writeTransaction, type Tx } from "~/utils/db.server";
import { afterFailedTry, batchDrainer, runEvery } from "~/utils/jobs.server";
import { logger, logServerError } from "~/utils/logger.server";
import { notify, type NotificationEvent } from "~/models/notifications/notification.server";

/**
 * What a club hunt owes its members (issue 44, CONTRACT.md §11 and §14), worked off the request:
 * the event's transaction writes one row per notice (`club_event_jobs`: announce, reminder, cancel),
 * and this worker tells the recipients in batches once a row is due, each batch in one transaction
 * with the row's cursor (the last member id told), so a restart, even `kill -9`, goes on from the
 * last whole batch and nobody hears twice (the notifications' unique (event, member, kind) index
 * says the same once more). A batch that fails is tried again with backoff; after MAX_ATTEMPTS it is
 * given up (`failedAt`) and counted (ADR 0069). Each notice then goes through every channel like any
 * other (the delivery job: in-app, instant mail or digest, push).
 *
 * - announce (`club_event`): every member but its maker, at once; not if cancelled meanwhile.
 * - reminder (`event_reminder`): once, 24 hours before the start, to those going or maybe then;
 *   moved by an edit of the start while not sent; dropped by a cancelling; not sent after the start.
 * - cancel (`event_cancelled`): those going or maybe, at once.
 */
export const EVENT_JOB_BATCH = 500;

const KIND: Record<EventJobKind, NotificationKind> = { announce: "club_event", reminder: "event_reminder", cancel: "event_cancelled" };

type Tell = (recipients: number[], event: NotificationEvent, tx: Tx) => Promise<unknown>;

const unfinished = and(isNull(clubEventJobs.doneAt), isNull(clubEventJobs.failedAt));

/** The next recipients of a job past its cursor: members (announce) or those going or maybe (reminder, cancel). */
async function recipients(tx: Tx, kind: EventJobKind, event: { id: number; clubId: number }, cursor: number, batch: number) {
  if (kind === "announce") {
    const rows = await tx
      .select({ userId: clubMembers.userId })
      .from(clubMembers)
      .where(and(eq(clubMembers.clubId, event.clubId), gt(clubMembers.userId, cursor)))
      .orderBy(asc(clubMembers.userId))
      .limit(batch);
    return rows.map((r) => r.userId);
  }
  const rows = await tx
    .select({ userId: clubEventRsvps.userId })
    .from(clubEventRsvps)
    .where(and(eq(clubEventRsvps.eventId, event.id), inArray(clubEventRsvps.status, ["going", "maybe"]), gt(clubEventRsvps.userId, cursor)))
    .orderBy(asc(clubEventRsvps.userId))
    .limit(batch);
  return rows.map((r) => r.userId);
}

/**
 * One batch of the oldest job that is due. False when nothing was due. `tell` is notify() (tests give
 * one that fails).
 */
export async function runEventJobBatch(
  batch = EVENT_JOB_BATCH,
  { now = new Date(), tell = notify }: { now?: Date; tell?: Tell } = {},
): Promise<boolean> {
  const due = and(
    unfinished,
    lte(clubEventJobs.dueAt, now),
    or(isNull(clubEventJobs.nextAttemptAt), lte(clubEventJobs.nextAttemptAt, now)),
  );
  const next = first(await db.select().from(clubEventJobs).where(due).orderBy(asc(clubEventJobs.dueAt), asc(clubEventJobs.id)).limit(1));
  if (!next) return false;
  try {
    await writeTransaction(async (tx) => {
      // Read again inside the transaction: another process may have done this batch meanwhile.
      const job = first(
        await tx
          .select()
          .from(clubEventJobs)
          .where(and(eq(clubEventJobs.id, next.id), due)),
      );
      if (!job) return;
      const event = first(await tx.select().from(clubEvents).where(eq(clubEvents.id, job.eventId)));
      const stale =
        !event ||
        (job.kind !== "cancel" && event.cancelledAt !== null) ||
        (job.kind === "reminder" && event.startsAt.getTime() <= now.getTime());
      const ids = stale ? [] : await recipients(tx, job.kind, event, job.cursor, batch);
      if (ids.length > 0) await tell(ids, { kind: KIND[job.kind], actorId: job.actorId, clubId: event!.clubId, eventId: event!.id }, tx);
      const done = ids.length < batch;
      await tx
        .update(clubEventJobs)
        .set({ cursor: ids.at(-1) ?? job.cursor, nextAttemptAt: null, ...(done ? { doneAt: now } : {}) })
        .where(eq(clubEventJobs.id, job.id));
    });
  } catch (error) {
    logServerError(error, { path: "job:club-event-notices" });
    const { attempts, givenUp, nextAttemptAt } = afterFailedTry(next.attempts, now);
    await db
      .update(clubEventJobs)
      .set(givenUp ? { attempts, failedAt: now, doneAt: now } : { attempts, nextAttemptAt })
      .where(eq(clubEventJobs.id, next.id));
    if (givenUp) logger.warn({ job: next.id, event: next.eventId, kind: next.kind, attempts }, "club hunt notice given up");
  }
  return true;
}

const queue = batchDrainer(runEventJobBatch);
/** Works through every job that is due, one batch per turn (other requests go between batches). */
export const drainEventJobs = queue.drain;
/** After a hunt's write commits: tell now rather than at the next tick. */
export const nudgeEventJobs = queue.nudge;

/** The server's own schedule: reminders fall due, and what a restart left unfinished is picked up, within `everyMs`. */
export function scheduleEventJobs(everyMs = 60_000): () => void {
  return runEvery("club-event-notices", everyMs, () => drainEventJobs());
}

/** The queue as an operator sees it (`npm run jobs`, /metrics): owed now, waiting for their time (reminders), retrying, given up. */
export async function eventJobQueue(at = new Date()): Promise<{ due: number; scheduled: number; retrying: number; failed: number }> {
  const count = (where: SQL | undefined) => countWhere(clubEventJobs, where);
  return {
    due: await count(and(isNull(clubEventJobs.doneAt), lte(clubEventJobs.dueAt, at))),
    scheduled: await count(and(isNull(clubEventJobs.doneAt), gt(clubEventJobs.dueAt, at))),
    retrying: await count(and(isNull(clubEventJobs.doneAt), isNotNull(clubEventJobs.nextAttemptAt), gt(clubEventJobs.nextAttemptAt, at))),
    failed: await count(isNotNull(clubEventJobs.failedAt)),
  };
}

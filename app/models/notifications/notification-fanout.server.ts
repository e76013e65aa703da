import { and, asc, eq, gt, isNotNull, isNull, lte, or, type SQL } from "drizzle-orm";
import { clubMembers, notificationFanouts } from "#db/schema";
import { afterCommit, countWhere, db, first, writeTransaction, type Tx } from "~/utils/db.server";
import { afterFailedTry, batchDrainer, runEvery } from "~/utils/jobs.server";
import { logger, logServerError } from "~/utils/logger.server";
import { notify, type NotificationEvent } from "./notification.server";

/**
 * A club post's notifications to the members who asked for them (CONTRACT.md §7 `club_post`), told
 * off the request: the post's transaction only writes a fan-out row; a worker tells the members in
 * batches, each batch in one transaction with the fan-out's cursor (the last member id done), so a
 * restart, even `kill -9`, goes on from the last whole batch and nobody hears twice. A batch that
 * fails is tried again after a backoff (1, 2, 4 … minutes, an hour at most) while the fan-outs
 * behind it go on; after MAX_ATTEMPTS it is given up (`failedAt`) and counted (ADR 0069).
 */
export const FANOUT_BATCH = 500;

/** Called inside the post's transaction; the worker is nudged once it has committed (`nudgeFanouts`). */
export async function queueClubPostFanout(tx: Tx, post: { postId: number; clubId: number; actorId: number }): Promise<void> {
  await tx.insert(notificationFanouts).values(post);
  afterCommit(nudgeFanouts);
}

type Tell = (recipients: number[], event: NotificationEvent, tx: Tx) => Promise<unknown>;

const unfinished = and(isNull(notificationFanouts.doneAt), isNull(notificationFanouts.failedAt));

/**
 * One batch of the oldest unfinished fan-out that is due. Returns false when there was nothing to
 * do. A failing batch changes nothing but its attempt count and next try, and returns true, so the
 * fan-outs behind it are not held up. `tell` is notify() (tests give one that fails).
 */
export async function runFanoutBatch(
  batch = FANOUT_BATCH,
  { now = new Date(), tell = notify }: { now?: Date; tell?: Tell } = {},
): Promise<boolean> {
  const due = or(isNull(notificationFanouts.nextAttemptAt), lte(notificationFanouts.nextAttemptAt, now));
  const next = first(await db.select().from(notificationFanouts).where(and(unfinished, due)).orderBy(asc(notificationFanouts.id)).limit(1));
  if (!next) return false;
  try {
    await writeTransaction(async (tx) => {
      // Read again inside the transaction: another process may have done this batch meanwhile.
      const job = first(
        await tx
          .select()
          .from(notificationFanouts)
          .where(and(eq(notificationFanouts.id, next.id), unfinished)),
      );
      if (!job) return;
      const members = await tx
        .select({ userId: clubMembers.userId })
        .from(clubMembers)
        .where(and(eq(clubMembers.clubId, job.clubId), eq(clubMembers.notifyPosts, true), gt(clubMembers.userId, job.cursor)))
        .orderBy(asc(clubMembers.userId))
        .limit(batch);
      const ids = members.map((m) => m.userId);
      if (ids.length > 0) await tell(ids, { kind: "club_post", actorId: job.actorId, postId: job.postId, clubId: job.clubId }, tx);
      const done = ids.length < batch;
      await tx
        .update(notificationFanouts)
        .set({ cursor: ids.at(-1) ?? job.cursor, nextAttemptAt: null, ...(done ? { doneAt: new Date() } : {}) })
        .where(eq(notificationFanouts.id, job.id));
    });
  } catch (error) {
    logServerError(error, { path: "job:notification-fanout" });
    const { attempts, givenUp, nextAttemptAt } = afterFailedTry(next.attempts, now);
    await db
      .update(notificationFanouts)
      .set(givenUp ? { attempts, failedAt: now, doneAt: now } : { attempts, nextAttemptAt })
      .where(eq(notificationFanouts.id, next.id));
    if (givenUp) logger.warn({ fanout: next.id, post: next.postId, attempts }, "club post fan-out given up");
  }
  return true;
}

const queue = batchDrainer(runFanoutBatch);
/** Works through every unfinished fan-out, one batch per turn (other requests go between batches). */
export const drainFanouts = queue.drain;
/** After a club post commits: start telling its members now rather than at the next tick. */
export const nudgeFanouts = queue.nudge;

/** The server's own schedule: what a restart left unfinished is picked up within `everyMs`. */
export function scheduleFanouts(everyMs = 30_000): () => void {
  return runEvery("notification-fanout", everyMs, () => drainFanouts());
}

/** Fan-outs not yet finished (given-up ones are finished). */
export async function pendingFanouts(): Promise<number> {
  return (await db.select({ id: notificationFanouts.id }).from(notificationFanouts).where(isNull(notificationFanouts.doneAt))).length;
}

/** The fan-outs' queue as an operator sees it (`npm run jobs`, /metrics). */
export async function fanoutQueue(at = new Date()): Promise<{ unfinished: number; retrying: number; failed: number }> {
  const count = (where: SQL | undefined) => countWhere(notificationFanouts, where);
  return {
    unfinished: await count(isNull(notificationFanouts.doneAt)),
    retrying: await count(
      and(isNull(notificationFanouts.doneAt), isNotNull(notificationFanouts.nextAttemptAt), gt(notificationFanouts.nextAttemptAt, at)),
    ),
    failed: await count(isNotNull(notificationFanouts.failedAt)),
  };
}

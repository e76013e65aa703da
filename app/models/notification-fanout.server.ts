import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { clubMembers, notificationFanouts } from "#db/schema";
import { afterCommit, db, first, writeTransaction, type Tx } from "~/utils/db.server";
import { runEvery } from "~/utils/jobs.server";
import { notify } from "./notification.server";

/**
 * A club post's notifications to the members who asked for them (CONTRACT.md §7 `club_post`), told
 * off the request: the post's transaction only writes a fan-out row; a worker tells the members in
 * batches, each batch in one transaction with the fan-out's cursor (the last member id done), so a
 * restart, even `kill -9`, goes on from the last whole batch and nobody hears twice.
 */
export const FANOUT_BATCH = 500;

/** Called inside the post's transaction; the worker is nudged once it has committed (`nudgeFanouts`). */
export async function queueClubPostFanout(tx: Tx, post: { postId: number; clubId: number; actorId: number }): Promise<void> {
  await tx.insert(notificationFanouts).values(post);
  afterCommit(nudgeFanouts);
}

/** One batch of the oldest unfinished fan-out. Returns false when there was nothing to do. */
export async function runFanoutBatch(batch = FANOUT_BATCH): Promise<boolean> {
  return writeTransaction(async (tx) => {
    const job = first(
      await tx.select().from(notificationFanouts).where(isNull(notificationFanouts.doneAt)).orderBy(asc(notificationFanouts.id)).limit(1),
    );
    if (!job) return false;
    const members = await tx
      .select({ userId: clubMembers.userId })
      .from(clubMembers)
      .where(and(eq(clubMembers.clubId, job.clubId), eq(clubMembers.notifyPosts, true), gt(clubMembers.userId, job.cursor)))
      .orderBy(asc(clubMembers.userId))
      .limit(batch);
    const ids = members.map((m) => m.userId);
    if (ids.length > 0) await notify(ids, { kind: "club_post", actorId: job.actorId, postId: job.postId, clubId: job.clubId }, tx);
    const done = ids.length < batch;
    await tx
      .update(notificationFanouts)
      .set({ cursor: ids.at(-1) ?? job.cursor, ...(done ? { doneAt: new Date() } : {}) })
      .where(eq(notificationFanouts.id, job.id));
    return true;
  });
}

let draining: Promise<void> | null = null;

/** Works through every unfinished fan-out, one batch per turn (other requests go between batches). */
export function drainFanouts(): Promise<void> {
  draining ??= (async () => {
    try {
      while (await runFanoutBatch()) await new Promise((resolve) => setImmediate(resolve));
    } finally {
      draining = null;
    }
  })();
  return draining;
}

/** After a club post commits: start telling its members now rather than at the next tick. */
export function nudgeFanouts(): void {
  void drainFanouts().catch(() => {
    // The scheduled run logs and retries (scheduleFanouts).
  });
}

/** The server's own schedule: what a restart left unfinished is picked up within `everyMs`. */
export function scheduleFanouts(everyMs = 30_000): () => void {
  return runEvery("notification-fanout", everyMs, () => drainFanouts());
}

/** Tests: whether any fan-out is unfinished. */
export async function pendingFanouts(): Promise<number> {
  return (await db.select({ id: notificationFanouts.id }).from(notificationFanouts).where(isNull(notificationFanouts.doneAt))).length;
}

import { and, eq, gt, inArray, isNotNull, isNull, lt, type SQL } from "drizzle-orm";
import { notifications, users } from "#db/schema";
import { countWhere, db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { afterFailedTry, runEvery } from "~/utils/jobs.server";
import { logger, logServerError } from "~/utils/logger.server";
import { leaseDue } from "./job-lease.server";
import { mailInstant } from "./notification-mail.server";
import { settingsRow } from "./notification-settings.server";
import { notificationItems, onNotified } from "./notification.server";
import { pushToMember, type PushSendOptions } from "./push.server";

/**
 * The instant half of notifications (CONTRACT.md §7, §11; docs/decisions/0069-deliveries-as-rows.md).
 * Each new row (sentAt null) is pushed to members with push on and mailed to members who chose
 * "instant". The rows are the queue:
 * - a run **leases** the rows it takes (`claimedUntil`), so two processes never take the same row,
 *   and a process killed mid-run leaves them to be taken again once the lease ends;
 * - each channel is **marked after it went** (`pushedAt`, `mailedAt`): a crash between a send and
 *   its mark repeats that one message (the same push tag, the same Message-ID), never loses it;
 * - a refused mail is **tried again with capped exponential backoff** (`attempts`,
 *   `nextAttemptAt`), without pushing again; past MAX_ATTEMPTS the row is `failedAt` and counted;
 * - an instant **mail waits** INSTANT_MAIL_DELAY_SECONDS (2 minutes) after the notification (ux-3
 *   U21, ADR 0085): the push goes at once, and the row is given back with `nextAttemptAt` at its
 *   mail's time, so a restart keeps the wait and nothing is held in memory. As the mail goes,
 *   `mailInstant` leaves out what was read, removed, hidden or blocked meanwhile;
 * - `sentAt` is set once every channel the member wants is settled.
 * Works off the request: notify() only nudges it after its commit, and the schedule picks up what a
 * restart or a refusal left.
 */
export const DELIVERY_BATCH = 200;
/** Read notifications older than this are pruned (the table stays a working set, not an archive). */
export const KEEP_READ_MS = 90 * 24 * 3600_000;

/** How long an instant mail waits after its notification (INSTANT_MAIL_DELAY_SECONDS). */
export const INSTANT_MAIL_DELAY_MS = env.INSTANT_MAIL_DELAY_SECONDS * 1000;

type Claimed = { id: number; userId: number; pushedAt: Date | null; mailedAt: Date | null; attempts: number; createdAt: Date };
const mailTime = (row: Claimed) => new Date(row.createdAt.getTime() + INSTANT_MAIL_DELAY_MS);

export async function deliverPending(
  batch = DELIVERY_BATCH,
  push: PushSendOptions = {},
  now: () => Date = () => new Date(),
): Promise<number> {
  const claimed = await claim(batch, now());
  if (claimed.length === 0) return 0;
  const byMember = new Map<number, Claimed[]>();
  for (const row of claimed) byMember.set(row.userId, [...(byMember.get(row.userId) ?? []), row]);
  const members = await db
    .select({ id: users.id, email: users.email, username: users.username, displayName: users.displayName })
    .from(users)
    .where(inArray(users.id, [...byMember.keys()]));
  for (const member of members) {
    const rows = byMember.get(member.id)!;
    const settings = await settingsRow(member.id);
    // Only what the member may still read (a private club they have left since: nothing of it).
    const readable = new Map((await notificationItems(rows.map((r) => r.id))).map((item) => [item.id, item]));
    const itemsOf = (list: Claimed[]) => list.flatMap((r) => readable.get(r.id) ?? []);

    const toPush = settings.push ? rows.filter((r) => !r.pushedAt) : [];
    if (itemsOf(toPush).length) {
      // Best effort per device: a gone subscription is dropped, a failing one logged (push.server.ts).
      await pushToMember(member.id, itemsOf(toPush), push);
      await mark(toPush, { pushedAt: now() });
    }
    const wantMail = settings.email === "instant" ? rows.filter((r) => !r.mailedAt) : [];
    // Not yet their time: they wait (the push went), and the rest are mailed now.
    const at = now();
    const waiting = wantMail.filter((r) => mailTime(r) > at);
    const toMail = wantMail.filter((r) => !waiting.includes(r));
    if (itemsOf(toMail).length) {
      try {
        await mailInstant(member, itemsOf(toMail));
        await mark(toMail, { mailedAt: now() });
      } catch (error) {
        // The mail server refused: these rows are tried again later; the push already went.
        logServerError(error, { path: "job:notification-delivery" });
        await retryLater(toMail, now());
        await waitForMail(waiting);
        await settle(
          rows.filter((r) => !wantMail.includes(r)),
          now(),
        );
        continue;
      }
    }
    await waitForMail(waiting);
    await settle(
      rows.filter((r) => !waiting.includes(r)),
      now(),
    );
  }
  return claimed.length;
}

/** Due, unleased rows not yet settled (up to `batch`), leased to this run. */
const claim = (batch: number, at: Date): Promise<Claimed[]> => leaseDue(notifications, isNull(notifications.sentAt), at, batch);

const ids = (rows: Claimed[]) => rows.map((r) => r.id);

async function mark(rows: Claimed[], set: { pushedAt: Date } | { mailedAt: Date }) {
  if (rows.length)
    await db
      .update(notifications)
      .set(set)
      .where(inArray(notifications.id, ids(rows)));
}

/** Every channel the member wants is settled: the rows leave the queue. */
async function settle(rows: Claimed[], at: Date) {
  if (rows.length)
    await db
      .update(notifications)
      .set({ sentAt: at, claimedUntil: null })
      .where(inArray(notifications.id, ids(rows)));
}

/** Rows whose instant mail is not due yet leave the run, to be taken again at its time. */
async function waitForMail(rows: Claimed[]) {
  for (const row of rows)
    await db
      .update(notifications)
      .set({ nextAttemptAt: mailTime(row), claimedUntil: null })
      .where(eq(notifications.id, row.id));
}

/** A refused mail: tried again after the backoff, or given up (counted) past MAX_ATTEMPTS. */
async function retryLater(rows: Claimed[], at: Date) {
  for (const row of rows) {
    const { attempts, givenUp, nextAttemptAt } = afterFailedTry(row.attempts, at);
    await db
      .update(notifications)
      .set(givenUp ? { attempts, failedAt: at, sentAt: at, claimedUntil: null } : { attempts, nextAttemptAt, claimedUntil: null })
      .where(eq(notifications.id, row.id));
    if (givenUp) logger.warn({ notification: row.id, attempts }, "notification mail given up");
  }
}

/**
 * The queue as an operator sees it (`npm run jobs`, /metrics): owed, waiting out the instant mail's
 * delay, waiting on a retry, leased, given up.
 */
export async function deliveryQueue(
  at = new Date(),
): Promise<{ owed: number; waiting: number; retrying: number; leased: number; failed: number }> {
  const count = (where: SQL | undefined) => countWhere(notifications, where);
  const later = and(isNull(notifications.sentAt), gt(notifications.nextAttemptAt, at));
  return {
    owed: await count(isNull(notifications.sentAt)),
    waiting: await count(and(later, eq(notifications.attempts, 0))),
    retrying: await count(and(later, gt(notifications.attempts, 0))),
    leased: await count(and(isNull(notifications.sentAt), gt(notifications.claimedUntil, at))),
    failed: await count(isNotNull(notifications.failedAt)),
  };
}

let running: Promise<void> | null = null;

/** Delivers until nothing is pending (one run at a time in this process). */
export function drainDeliveries(): Promise<void> {
  running ??= (async () => {
    try {
      while ((await deliverPending()) > 0);
    } finally {
      running = null;
    }
  })();
  return running;
}

export async function pruneReadNotifications(now = Date.now()): Promise<void> {
  await db.delete(notifications).where(lt(notifications.readAt, new Date(now - KEEP_READ_MS)));
}

/**
 * The server's own schedule: new rows are delivered right after they are written (notify's nudge,
 * after its commit), and every `everyMs` whatever a restart, a lease run out or a refused mail left.
 */
export function scheduleDeliveries(everyMs = 60_000): () => void {
  onNotified(() => {
    setImmediate(() => void drainDeliveries().catch((error: unknown) => logServerError(error, { path: "job:notification-delivery" })));
  });
  const stopDelivery = runEvery("notification-delivery", everyMs, () => drainDeliveries());
  return () => {
    onNotified(() => {});
    stopDelivery();
  };
}

/** Read notifications past KEEP_READ_MS go, hourly. */
export function scheduleReadPruning(everyMs = 3600_000): () => void {
  return runEvery("notification-prune", everyMs, () => pruneReadNotifications());
}

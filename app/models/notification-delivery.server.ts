import { and, asc, inArray, isNull, lt } from "drizzle-orm";
import { notifications, users } from "#db/schema";
import { db } from "~/utils/db.server";
import { runEvery } from "~/utils/jobs.server";
import { logServerError } from "~/utils/logger.server";
import { mailInstant } from "./notification-mail.server";
import { settingsRow } from "./notification-settings.server";
import { notificationItems, onNotified } from "./notification.server";
import { pushToMember, type PushSendOptions } from "./push.server";

/**
 * The instant half of notifications (CONTRACT.md §7): each new row (sentAt null) is mailed to
 * members who chose "instant" and pushed to those with push on, then marked sent. Rows are marked
 * before the sending, in the claim, so two processes never tell a member twice; a mail server that
 * refuses gives the rows back for the next run. Works off the request: notify() only nudges it, and
 * the schedule picks up what a restart left (the rows are the queue: nothing is forgotten on kill -9).
 */
export const DELIVERY_BATCH = 200;
/** Read notifications older than this are pruned (the table stays a working set, not an archive). */
export const KEEP_READ_MS = 90 * 24 * 3600_000;

export async function deliverPending(batch = DELIVERY_BATCH, push: PushSendOptions = {}): Promise<number> {
  const claimed = await claim(batch);
  if (claimed.length === 0) return 0;
  const byMember = new Map<number, number[]>();
  for (const row of claimed) byMember.set(row.userId, [...(byMember.get(row.userId) ?? []), row.id]);
  const members = await db
    .select({ id: users.id, email: users.email, username: users.username, displayName: users.displayName })
    .from(users)
    .where(inArray(users.id, [...byMember.keys()]));
  for (const member of members) {
    const ids = byMember.get(member.id)!;
    const settings = await settingsRow(member.id);
    if (settings.email !== "instant" && !settings.push) continue;
    // Only what the member may still read (a private club they have left since: nothing of it).
    const items = await notificationItems(ids);
    if (items.length === 0) continue;
    if (settings.push) await pushToMember(member.id, items, push);
    if (settings.email === "instant") {
      try {
        await mailInstant(member, items);
      } catch (error) {
        // The mail server refused: these rows are owed again (the next run tries; push already went).
        logServerError(error, { path: "job:notification-delivery" });
        await db.update(notifications).set({ sentAt: null }).where(inArray(notifications.id, ids));
      }
    }
  }
  return claimed.length;
}

/** Takes up to `batch` unsent rows for this process: the update that marks them is the claim. */
async function claim(batch: number): Promise<{ id: number; userId: number }[]> {
  const pending = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(isNull(notifications.sentAt))
    .orderBy(asc(notifications.id))
    .limit(batch);
  if (pending.length === 0) return [];
  return db
    .update(notifications)
    .set({ sentAt: new Date() })
    .where(
      and(
        inArray(
          notifications.id,
          pending.map((p) => p.id),
        ),
        isNull(notifications.sentAt),
      ),
    )
    .returning({ id: notifications.id, userId: notifications.userId });
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
 * The server's own schedule: new rows are delivered right after they are written (notify's nudge),
 * and every `everyMs` whatever a restart or a refused mail left; old read rows are pruned hourly.
 */
export function scheduleDeliveries(everyMs = 60_000): () => void {
  onNotified(() => {
    setImmediate(() => void drainDeliveries().catch((error: unknown) => logServerError(error, { path: "job:notification-delivery" })));
  });
  const stopDelivery = runEvery("notification-delivery", everyMs, () => drainDeliveries());
  const stopPrune = runEvery("notification-prune", 3600_000, () => pruneReadNotifications());
  return () => {
    onNotified(() => {});
    stopDelivery();
    stopPrune();
  };
}

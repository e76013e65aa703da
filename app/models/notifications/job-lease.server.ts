import { and, asc, inArray, isNull, lte, or, type SQL } from "drizzle-orm";
import type { notificationDigests, notifications } from "#db/schema";
import { db } from "~/utils/db.server";
import { LEASE_MS } from "~/utils/jobs.server";

/** Tables whose rows are jobs with a lease (`claimedUntil`) and a next try (`nextAttemptAt`), ADR 0069. */
type LeasedTable = typeof notifications | typeof notificationDigests;

/**
 * Takes up to `limit` rows of a job's table that are `open`, due and not leased, oldest first, and
 * leases them to this run for LEASE_MS: the UPDATE that leases them is the claim. The lease is
 * checked again as each row is written, so of two processes racing for a row the second finds it
 * leased (PostgreSQL re-reads a row it waited for) and leaves it. A process killed mid-run leaves
 * its rows to be taken again once the lease ends.
 */
export async function leaseDue<T extends LeasedTable>(table: T, open: SQL, at: Date, limit: number): Promise<T["$inferSelect"][]> {
  // Both tables name these columns alike; one of them types the query.
  const t = table as unknown as typeof notificationDigests;
  const free = or(isNull(t.claimedUntil), lte(t.claimedUntil, at));
  const due = or(isNull(t.nextAttemptAt), lte(t.nextAttemptAt, at));
  const pending = await db
    .select({ id: t.id })
    .from(t)
    .where(and(open, free, due))
    .orderBy(asc(t.id))
    .limit(limit);
  if (pending.length === 0) return [];
  const leased = await db
    .update(t)
    .set({ claimedUntil: new Date(at.getTime() + LEASE_MS) })
    .where(
      and(
        inArray(
          t.id,
          pending.map((p) => p.id),
        ),
        open,
        free,
      ),
    )
    .returning();
  return leased as unknown as T["$inferSelect"][];
}

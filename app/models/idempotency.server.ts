import { and, eq, lt } from "drizzle-orm";
import { idempotencyKeys, type StoredReply } from "#db/schema";
import { writeTransaction } from "~/utils/db.server";

/**
 * The store behind idempotency keys (CONTRACT.md §6, docs/decisions/0030-idempotency-keys.md). The
 * HTTP side (reading keys, replaying answers) is `web/idempotency.server.ts`.
 */

/** How long a key's first answer is replayed. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** A claim still unanswered after this long belongs to a request that died with its process. */
export const ABANDONED_AFTER_MS = 5 * 60 * 1000;

export type StoredAnswer = { status: number; reply: StoredReply };

export type Claim =
  { kind: "claimed" } | { kind: "replay"; answer: StoredAnswer } | { kind: "in-flight" } | { kind: "mismatch"; fingerprint: string };

/**
 * Claim `key` for this member's request `fingerprint` (method and path). One IMMEDIATE transaction
 * reads and writes, so of two identical requests in flight exactly one is `claimed`; the other sees
 * `in-flight`, or, once the first has answered, `replay`. Expired rows go in the same transaction.
 */
export function claimKey(userId: number, key: string, fingerprint: string, now = Date.now()): Claim {
  return writeTransaction((tx) => {
    tx.delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, new Date(now - KEY_LIFETIME_MS)))
      .run();
    const row = tx
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
      .get();
    if (row) {
      if (row.fingerprint !== fingerprint) return { kind: "mismatch", fingerprint: row.fingerprint };
      if (row.status !== null && row.response) return { kind: "replay", answer: { status: row.status, reply: row.response } };
      if (row.createdAt.getTime() > now - ABANDONED_AFTER_MS) return { kind: "in-flight" };
      tx.delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
        .run();
    }
    tx.insert(idempotencyKeys)
      .values({ userId, key, fingerprint, createdAt: new Date(now) })
      .run();
    return { kind: "claimed" };
  });
}

/** The claimed request answered: keep its answer for repeats. */
export function recordAnswer(userId: number, key: string, answer: StoredAnswer): void {
  writeTransaction((tx) =>
    tx
      .update(idempotencyKeys)
      .set({ status: answer.status, response: answer.reply })
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
      .run(),
  );
}

/** The claimed request changed nothing (it failed): the key is free for a retry. */
export function releaseKey(userId: number, key: string): void {
  writeTransaction((tx) =>
    tx
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
      .run(),
  );
}

import { and, asc, count, eq, gt, lt } from "drizzle-orm";
import { idempotencyKeys, type StoredReply } from "#db/schema";
import { db, writeTransaction } from "~/utils/db.server";

/**
 * The store behind idempotency keys (CONTRACT.md §6 and §10, docs/decisions/0030-idempotency-keys.md,
 * docs/decisions/0055-idempotency-key-covers-the-body-and-stores-little.md). The HTTP side (reading keys, fingerprinting
 * bodies, replaying answers) is `web/idempotency.server.ts`.
 */

/** How long a key's first answer is replayed. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** A claim still unanswered after this long belongs to a request that died with its process. */
export const ABANDONED_AFTER_MS = 5 * 60 * 1000;
/** The most keys one member holds at once (within KEY_LIFETIME_MS); a new key past it is refused. */
export const KEYS_PER_MEMBER = 1_000;

export type StoredAnswer = { status: number; reply: StoredReply };

export type Claim =
  | { kind: "claimed" }
  | { kind: "replay"; answer: StoredAnswer }
  | { kind: "in-flight" }
  | { kind: "mismatch"; fingerprint: string }
  | { kind: "full"; retryAfterMs: number };

/**
 * A stored fingerprint matches when it is the same; one stored before bodies were fingerprinted
 * (just "METHOD path", security-2 N16) matches any body sent to that method and path.
 */
const sameRequest = (stored: string, fingerprint: string) =>
  stored === fingerprint || (!stored.includes(" sha256=") && fingerprint.startsWith(`${stored} sha256=`));

/**
 * Claim `key` for this member's request `fingerprint` (method, path and body digest). One IMMEDIATE
 * transaction reads and writes, so of two identical requests in flight exactly one is `claimed`; the
 * other sees `in-flight`, or, once the first has answered, `replay`. A new key of a member who
 * already holds KEYS_PER_MEMBER live ones is `full` (nothing stored), with the time until their
 * oldest expires. Expired rows go in the same transaction.
 */
export function claimKey(userId: number, key: string, fingerprint: string, now = Date.now()): Promise<Claim> {
  return writeTransaction(async (tx): Promise<Claim> => {
    const oldest = new Date(now - KEY_LIFETIME_MS);
    await tx.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, oldest));
    const [row] = await tx
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    if (row) {
      if (!sameRequest(row.fingerprint, fingerprint)) return { kind: "mismatch", fingerprint: row.fingerprint };
      if (row.status !== null && row.response) return { kind: "replay", answer: { status: row.status, reply: row.response } };
      if (row.createdAt.getTime() > now - ABANDONED_AFTER_MS) return { kind: "in-flight" };
      await tx.delete(idempotencyKeys).where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    } else {
      const [held] = await tx
        .select({ n: count() })
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), gt(idempotencyKeys.createdAt, oldest)));
      if ((held?.n ?? 0) >= KEYS_PER_MEMBER) {
        const [first] = await tx
          .select({ createdAt: idempotencyKeys.createdAt })
          .from(idempotencyKeys)
          .where(eq(idempotencyKeys.userId, userId))
          .orderBy(asc(idempotencyKeys.createdAt))
          .limit(1);
        const frees = (first?.createdAt.getTime() ?? now) + KEY_LIFETIME_MS;
        return { kind: "full", retryAfterMs: Math.max(1_000, frees - now) };
      }
    }
    await tx.insert(idempotencyKeys).values({ userId, key, fingerprint, createdAt: new Date(now) });
    return { kind: "claimed" };
  });
}

/** The claimed request answered: keep its answer for repeats. */
export async function recordAnswer(userId: number, key: string, answer: StoredAnswer): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ status: answer.status, response: answer.reply })
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
}

/** The claimed request changed nothing (it failed): the key is free for a retry. */
export async function releaseKey(userId: number, key: string): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
}

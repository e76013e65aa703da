import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { ERRORS, type Lock, type Locker, type RequestRelease } from "@tus/server";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { uploadLocks } from "#db/schema";
import { db } from "../db.server";
import { databaseNowMs } from "../db/sql-dialect.server";
import { logger } from "../logger.server";

/**
 * Who may write a resumable (tus) upload right now, shared by every process and machine on the
 * database (docs/decisions/0062-upload-locks-in-the-database.md, issue 25). tus takes a lock for each
 * POST, HEAD, PATCH and DELETE of an upload; with its `MemoryLocker` two PATCHes of one upload that
 * reach two app nodes (a client resuming while the first node still reads the dead request) both
 * write, and the store's offset or S3 parts are corrupted.
 *
 * A lock is a row of `upload_locks`, a lease:
 * - Taking it is one statement on both engines: insert the row, or take it over when its lease has
 *   run out (a holder that crashed), `INSERT … ON CONFLICT DO UPDATE … WHERE expires_at < now`.
 *   The row comes back only when this lock got it.
 * - The holder watches its row every `pollMs` while it holds it, and renews the lease every
 *   `leaseMs / 3`. A request that finds the upload held sets `release_requested_at`; the holder sees
 *   it and calls tus's `requestRelease` (tus ends that request within its drain time and unlocks).
 *   The waiter tries again every `retryMs` until it gets the row or `acquireTimeoutMs` passes
 *   (tus answers 500, as with its own locker).
 * - Unlocking deletes the row only while this lock still holds it: a lock whose lease was taken over
 *   removes nothing of its successor's.
 * - Times are the database's clock, so app machines whose clocks differ agree on when a lease ran out.
 *
 * Within one process a waiter also calls the holder's `requestRelease` at once, as tus's own locker
 * does, instead of waiting for the holder's next look at its row.
 *
 * What a lease cannot promise: a holder whose process stalls for longer than `leaseMs` (the event
 * loop blocked, the machine paused) may write once more before it sees that its lease was taken.
 */

export type UploadLockerOptions = {
  /** How long a lease lasts unless renewed: the longest a crashed holder keeps an upload. */
  leaseMs?: number;
  /** How often a holder looks whether another request asked for its upload. */
  pollMs?: number;
  /** How often a waiter tries to take the upload again. */
  retryMs?: number;
  /** How long a request waits for an upload before giving up (tus answers 500). */
  acquireTimeoutMs?: number;
  /** Names this locker's holders in the table (a machine and process by default). */
  name?: string;
};

const DEFAULTS = { leaseMs: 10_000, pollMs: 250, retryMs: 100, acquireTimeoutMs: 30_000 };

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });

export class DatabaseLocker implements Locker {
  readonly options: Required<UploadLockerOptions>;
  /** The locks this locker holds now, by upload id: a waiter in this process asks them directly. */
  readonly held = new Map<string, DatabaseLock>();

  constructor(options: UploadLockerOptions = {}) {
    this.options = { ...DEFAULTS, name: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`, ...options };
  }

  newLock(id: string): Lock {
    return new DatabaseLock(id, this);
  }
}

class DatabaseLock implements Lock {
  /** This lock's name in the table: the locker's, and one per request. */
  private readonly holder: string;
  private watcher: NodeJS.Timeout | undefined;
  private requestRelease: RequestRelease | undefined;
  private releaseAsked = false;

  constructor(
    readonly id: string,
    private readonly locker: DatabaseLocker,
  ) {
    this.holder = `${locker.options.name}/${randomUUID()}`;
  }

  async lock(stopSignal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const { retryMs, acquireTimeoutMs } = this.locker.options;
    // A deadline, not AbortSignal.timeout inside AbortSignal.any: a timeout signal nothing else holds
    // may be garbage-collected before it fires, and then the wait never ends (a CI rehearsal's
    // upload-lock test hung 20 s with nothing else that could block it).
    const deadline = Date.now() + acquireTimeoutMs;
    for (;;) {
      if (await this.take()) {
        this.hold(requestRelease);
        return;
      }
      if (stopSignal.aborted || Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      // Asked again after each try: the upload may have passed to a third request meanwhile.
      await this.askForRelease();
      await sleep(Math.min(retryMs, Math.max(0, deadline - Date.now())), stopSignal);
    }
  }

  async unlock(): Promise<void> {
    clearInterval(this.watcher);
    this.watcher = undefined;
    if (this.locker.held.get(this.id) === this) this.locker.held.delete(this.id);
    await db.delete(uploadLocks).where(and(eq(uploadLocks.uploadId, this.id), eq(uploadLocks.holder, this.holder)));
  }

  /** The row, inserted or taken over from an expired lease; true when this lock now holds it. */
  private async take(): Promise<boolean> {
    const expiresAt = sql`${databaseNowMs()} + ${this.locker.options.leaseMs}`;
    const rows = await db
      .insert(uploadLocks)
      .values({ uploadId: this.id, holder: this.holder, expiresAt, releaseRequestedAt: null })
      .onConflictDoUpdate({
        target: uploadLocks.uploadId,
        set: { holder: this.holder, expiresAt, releaseRequestedAt: null },
        setWhere: lt(uploadLocks.expiresAt, databaseNowMs()),
      })
      .returning({ holder: uploadLocks.holder });
    return rows[0]?.holder === this.holder;
  }

  /** Tell the holder, wherever it runs, that a request is waiting for this upload. */
  private async askForRelease(): Promise<void> {
    await db
      .update(uploadLocks)
      .set({ releaseRequestedAt: databaseNowMs() })
      .where(and(eq(uploadLocks.uploadId, this.id), isNull(uploadLocks.releaseRequestedAt)));
    this.locker.held.get(this.id)?.release();
  }

  /** Held: watch the row for a waiter and keep the lease alive until unlocked. */
  private hold(requestRelease: RequestRelease): void {
    const { pollMs, leaseMs } = this.locker.options;
    this.requestRelease = requestRelease;
    this.locker.held.set(this.id, this);
    let renewedAt = Date.now();
    let busy = false;
    this.watcher = setInterval(() => {
      if (busy) return;
      busy = true;
      const renew = Date.now() - renewedAt >= leaseMs / 3;
      this.look(renew)
        .then((row) => {
          if (renew && row) renewedAt = Date.now();
          // Gone (taken over after the lease ran out) or asked for: stop writing.
          if (!row || row.releaseRequestedAt !== null) this.release();
        })
        .catch((error: unknown) => {
          logger.warn({ err: error, upload: this.id }, "upload lock: cannot reach the database");
          // Without a renewal the lease runs out; stop before another request may take it.
          if (Date.now() - renewedAt >= leaseMs / 2) this.release();
        })
        .finally(() => {
          busy = false;
        });
    }, pollMs);
    this.watcher.unref();
  }

  /** The row while this lock holds it (renewing its lease when `renew`), or undefined. */
  private async look(renew: boolean): Promise<{ releaseRequestedAt: Date | null } | undefined> {
    const mine = and(eq(uploadLocks.uploadId, this.id), eq(uploadLocks.holder, this.holder));
    const rows = renew
      ? await db
          .update(uploadLocks)
          .set({ expiresAt: sql`${databaseNowMs()} + ${this.locker.options.leaseMs}` })
          .where(mine)
          .returning({ releaseRequestedAt: uploadLocks.releaseRequestedAt })
      : await db.select({ releaseRequestedAt: uploadLocks.releaseRequestedAt }).from(uploadLocks).where(mine);
    return rows[0];
  }

  /** Ask tus, once, to end the request that holds this lock (it unlocks when it has). */
  private release(): void {
    if (this.releaseAsked || !this.requestRelease) return;
    this.releaseAsked = true;
    void Promise.resolve()
      .then(this.requestRelease)
      .catch(() => undefined);
  }
}

/** Leases whose holders are gone and that no request took over since (the hourly upload sweep). */
export async function pruneExpiredUploadLocks(): Promise<number> {
  const rows = await db.delete(uploadLocks).where(lt(uploadLocks.expiresAt, databaseNowMs())).returning({ id: uploadLocks.uploadId });
  return rows.length;
}

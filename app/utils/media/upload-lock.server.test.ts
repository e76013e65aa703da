import { randomUUID } from "node:crypto";
import { ERRORS, MemoryLocker, type Lock, type Locker } from "@tus/server";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { uploadLocks } from "#db/schema";
import { db, first } from "../db.server";
import { DatabaseLocker, pruneExpiredUploadLocks, type UploadLockerOptions } from "./upload-lock.server";

/**
 * The upload lock shared through the database (issue 25, docs/decisions/0062): two app nodes are
 * two lockers here, each with its own name, on the one database of the test run (SQLite, or
 * PostgreSQL with TEST_DATABASE_URL).
 */

const fast: UploadLockerOptions = { pollMs: 30, retryMs: 10, leaseMs: 5_000, acquireTimeoutMs: 5_000 };
const node = (name: string, options: UploadLockerOptions = {}) => new DatabaseLocker({ ...fast, name, ...options });
const newId = () => `_${randomUUID().replaceAll("-", "")}`;
const never = () => new AbortController().signal;
const row = async (id: string) => first(await db.select().from(uploadLocks).where(eq(uploadLocks.uploadId, id)));
const settled = async (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

/**
 * Node A holds an upload; node B's request for it waits, asks A to let go, and gets the upload only
 * after A has unlocked. The order of events is what a second writer would break.
 */
async function twoNodesTakeTurns(a: Locker, b: Locker) {
  const id = newId();
  const events: string[] = [];
  const lockA = a.newLock(id);
  let asked = () => {};
  const askedA = new Promise<void>((resolve) => (asked = resolve));
  await lockA.lock(never(), () => {
    events.push("A asked to release");
    asked();
  });

  const lockB: Lock = b.newLock(id);
  const gotB = lockB.lock(never(), () => undefined).then(() => events.push("B holds"));
  // B does not hold the upload while A does, however long A takes…
  expect(await settled(gotB, 300)).toBe(false);
  // …but A has been asked to finish.
  await askedA;
  events.push("A unlocks");
  await lockA.unlock();
  await gotB;
  expect(events).toEqual(["A asked to release", "A unlocks", "B holds"]);
  await lockB.unlock();
}

describe("DatabaseLocker: one lock per upload across processes and nodes", () => {
  it("makes a second node's request wait, asks the holder to release, and hands over after unlock", async () => {
    await twoNodesTakeTurns(node("node-a"), node("node-b"));
  });

  it.fails("(tus's MemoryLocker, one per process, does not: node B writes while node A still holds the upload)", async () => {
    await twoNodesTakeTurns(new MemoryLocker(), new MemoryLocker());
  });

  it("names the holder in the table and removes the row on unlock", async () => {
    const id = newId();
    const lock = node("node-a").newLock(id);
    await lock.lock(never(), () => undefined);
    expect((await row(id))?.holder).toMatch(/^node-a\//);
    expect((await row(id))?.releaseRequestedAt).toBeNull();
    await lock.unlock();
    expect(await row(id)).toBeUndefined();
  });

  it("takes over the lease of a holder that crashed once it has run out", async () => {
    const id = newId();
    await db.insert(uploadLocks).values({ uploadId: id, holder: "crashed-node/1", expiresAt: new Date(Date.now() - 60_000) });
    const lock = node("node-b").newLock(id);
    await lock.lock(never(), () => undefined);
    expect((await row(id))?.holder).toMatch(/^node-b\//);
    await lock.unlock();
  });

  it("does not take a live lease: a request gives up after its timeout (tus's lock timeout) and leaves the holder its row", async () => {
    const id = newId();
    await db.insert(uploadLocks).values({ uploadId: id, holder: "busy-node/1", expiresAt: new Date(Date.now() + 60_000) });
    const lock = node("node-b", { acquireTimeoutMs: 300 }).newLock(id);
    await expect(lock.lock(never(), () => undefined)).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    const held = await row(id);
    expect(held?.holder).toBe("busy-node/1");
    // The holder was asked to let go, wherever it runs.
    expect(held?.releaseRequestedAt).toBeInstanceOf(Date);
  });

  it("stops waiting when tus's request ends (its stop signal)", async () => {
    const id = newId();
    await db.insert(uploadLocks).values({ uploadId: id, holder: "busy-node/2", expiresAt: new Date(Date.now() + 60_000) });
    const stop = new AbortController();
    const waiting = node("node-b")
      .newLock(id)
      .lock(stop.signal, () => undefined);
    setTimeout(() => stop.abort(), 50);
    await expect(waiting).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
  });

  it("keeps a live holder's lease past its length by renewing it", async () => {
    const id = newId();
    const a = node("node-a", { leaseMs: 300 });
    const lock = a.newLock(id);
    await lock.lock(never(), () => undefined);
    const firstExpiry = (await row(id))!.expiresAt.getTime();
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await row(id))!.expiresAt.getTime()).toBeGreaterThan(firstExpiry);
    // Node B cannot take it as expired.
    const b = node("node-b", { acquireTimeoutMs: 200 }).newLock(id);
    await expect(b.lock(never(), () => undefined)).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    await lock.unlock();
  });

  it("does nothing when a lock that does not hold the upload unlocks, not even one whose lease was taken over", async () => {
    const id = newId();
    const a = node("node-a");
    const lockA = a.newLock(id);
    const releaseA = vi.fn();
    await lockA.lock(never(), releaseA);

    // A request of node B that never got the upload unlocks (tus's error path): A keeps it.
    await node("node-b").newLock(id).unlock();
    expect((await row(id))?.holder).toMatch(/^node-a\//);

    // A stalls past its lease (made to run out here); node B takes the upload over.
    await db
      .update(uploadLocks)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(uploadLocks.uploadId, id));
    const lockB = node("node-b").newLock(id);
    await lockB.lock(never(), () => undefined);
    // A notices it lost the upload and is told to stop writing; its unlock leaves B's row alone.
    await vi.waitFor(() => expect(releaseA).toHaveBeenCalledTimes(1));
    await lockA.unlock();
    expect((await row(id))?.holder).toMatch(/^node-b\//);
    await lockB.unlock();
    expect(await row(id)).toBeUndefined();
  });

  it("asks a holder in the same process at once, without waiting for its next look at the table", async () => {
    const id = newId();
    const locker = node("node-a", { pollMs: 60_000 });
    const lockA = locker.newLock(id);
    const releaseA = vi.fn(() => lockA.unlock());
    await lockA.lock(never(), releaseA);
    const lockB = locker.newLock(id);
    await lockB.lock(never(), () => undefined);
    expect(releaseA).toHaveBeenCalledTimes(1);
    expect((await row(id))?.holder).not.toBe(undefined);
    await lockB.unlock();
  });

  it("lets the hourly sweep remove leases that ran out, and only those", async () => {
    const gone = newId();
    const live = newId();
    await db.insert(uploadLocks).values([
      { uploadId: gone, holder: "crashed-node/2", expiresAt: new Date(Date.now() - 60_000) },
      { uploadId: live, holder: "busy-node/3", expiresAt: new Date(Date.now() + 60_000) },
    ]);
    expect(await pruneExpiredUploadLocks()).toBeGreaterThanOrEqual(1);
    expect(await row(gone)).toBeUndefined();
    expect(await row(live)).toBeDefined();
  });
});

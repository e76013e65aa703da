import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "~/utils/db/db-engine.server";
import { ALONE_AFTER, openPostgres, WRITE_TURN } from "~/utils/db/db-postgres.server";
import { createTestDatabase, NO_POSTGRES, pgTestUrl, type TestDatabase } from "#tests/fixtures/pg-database";

/**
 * No write starves on PostgreSQL (CI's 16-writer race, tests/integration/concurrent-writes.test.ts,
 * once answered a comment with 500 after its twentieth serialization failure). A transaction refused
 * ALONE_AFTER times runs again alone: it waits for the write transactions under way, and its
 * snapshot is taken after they end, so none of them can make it fail again.
 */
describe.skipIf(!pgTestUrl)("a write transaction refused again and again runs alone", () => {
  let database: TestDatabase;
  let engine: Engine;

  beforeAll(async () => {
    database = await createTestDatabase("whitetail_turn");
    engine = await openPostgres(database.url, 4);
  });

  afterAll(async () => {
    await engine?.close();
    await database?.drop();
  });

  const serializationFailure = () => Object.assign(new Error("could not serialize access"), { code: "40001" });
  const advisoryLocks = () =>
    engine.rows<{ pid: number; mode: string; granted: boolean }>(
      "SELECT pid, mode, granted FROM pg_locks WHERE locktype = 'advisory' AND objid = @turn",
      { turn: WRITE_TURN },
    );
  const until = async (check: () => boolean | Promise<boolean>) => {
    for (let i = 0; i < 500 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await check()).toBe(true);
  };

  it("waits for the write under way, sees what it wrote, holds the turn alone, and gives it back", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // A write under way: it has written a row and not committed.
    let began = false;
    const other = engine.transaction(async () => {
      await engine.rows(
        "INSERT INTO users (username, display_name, email, password_hash) VALUES ('under_way', 'U', 'u@example.com', 'x')",
        [],
      );
      began = true;
      await gate;
    });
    await until(() => began);

    let attempts = 0;
    let seen: { users: number; locks: { pid: number; mode: string; granted: boolean }[]; pid: number } | undefined;
    const unlucky = engine.transaction(async () => {
      attempts += 1;
      if (attempts <= ALONE_AFTER) throw serializationFailure();
      const [row] = await engine.rows<{ n: number; pid: number }>(
        "SELECT count(*)::int AS n, pg_backend_pid() AS pid FROM users WHERE username = 'under_way'",
        [],
      );
      seen = { users: row!.n, pid: row!.pid, locks: await advisoryLocks() };
    });

    // Its next attempt waits for the other to end: it has not begun while the other is open.
    await until(async () => (await advisoryLocks()).some((lock) => lock.mode === "ExclusiveLock" && !lock.granted));
    expect((await advisoryLocks()).map((lock) => [lock.mode, lock.granted]).sort()).toEqual([
      ["ExclusiveLock", false],
      ["ShareLock", true],
    ]);
    expect(attempts).toBe(ALONE_AFTER);

    release();
    await other;
    await unlucky;
    expect(attempts).toBe(ALONE_AFTER + 1);
    // Begun after the other committed: its row is there, so nothing the other did can refuse this one.
    expect(seen!.users).toBe(1);
    expect(seen!.locks).toEqual([{ pid: seen!.pid, mode: "ExclusiveLock", granted: true }]);
    // The turn is given back: the next transaction goes straight in.
    expect(await advisoryLocks()).toEqual([]);
    await engine.transaction(async () => {
      expect((await advisoryLocks()).map((lock) => [lock.mode, lock.granted])).toEqual([["ShareLock", true]]);
    });
  });

  it("gives the turn back when the lone attempt fails for good", async () => {
    let attempts = 0;
    const failing = engine.transaction(async () => {
      attempts += 1;
      if (attempts <= ALONE_AFTER) throw serializationFailure();
      throw new Error("a bug, not a conflict");
    });
    await expect(failing).rejects.toThrow("a bug, not a conflict");
    expect(attempts).toBe(ALONE_AFTER + 1);
    expect(await advisoryLocks()).toEqual([]);
  });
});

describe.skipIf(pgTestUrl)("a write transaction refused again and again runs alone", () => {
  it.skip(NO_POSTGRES, () => {});
});

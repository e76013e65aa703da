import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "~/utils/db/db-engine.server";
import { openPostgres, sharedReads } from "~/utils/db/db-postgres.server";
import { createTestDatabase, NO_POSTGRES, pgTestUrl, type TestDatabase } from "#tests/fixtures/pg-database";

/**
 * The data version on PostgreSQL (issue 25, CONTRACT.md §9): what every node's validators, visitor
 * page cache and trending cache key on, so a write on one node reaches the others' visitors. It is
 * a sequence moved on by triggers, and sequences are not transactional: these tests hold the engine
 * to never giving out a version whose writes are not yet visible, and to reading it fresh for every
 * caller while sharing one query among callers that ask together.
 */
describe.skipIf(!pgTestUrl)("the data version on PostgreSQL", () => {
  let database: TestDatabase;
  let engine: Engine;
  let writer: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase("whitetail_version");
    engine = await openPostgres(database.url, 4);
    writer = new pg.Client({ connectionString: database.url });
    await writer.connect();
  });

  afterAll(async () => {
    await writer?.end();
    await engine?.close();
    await database?.drop();
  });

  const insertUser = (client: pg.Client, name: string) =>
    client.query("INSERT INTO users (username, display_name, email, password_hash) VALUES ($1, $1, $2, 'x')", [
      name,
      `${name}@example.com`,
    ]);

  it("moves on with the first write of a fresh database", async () => {
    const before = await engine.dataVersion();
    await insertUser(writer, "first_writer");
    expect(await engine.dataVersion()).not.toBe(before);
  });

  it("never names data a reader cannot see yet: while a counted write is open, each read gets a version of its own", async () => {
    const before = await engine.dataVersion();
    await writer.query("BEGIN");
    await insertUser(writer, `open_${Date.now().toString(36)}`);
    // The sequence has moved on, the row is not visible: a page drawn now must not be kept under
    // the version that will be current after the commit.
    const during = [await engine.dataVersion(), await engine.dataVersion()];
    await writer.query("COMMIT");
    const after = await engine.dataVersion();
    expect(after).not.toBe(before);
    for (const version of during) expect(version).not.toBe(after);
    for (const version of during) expect(version).not.toBe(before);
    expect(during[0]).not.toBe(during[1]);
    // Settled again: the same version until the next write.
    expect(await engine.dataVersion()).toBe(after);
    await writer.query("BEGIN");
    await writer.query("SELECT count(*) FROM users");
    await writer.query("COMMIT");
    expect(await engine.dataVersion()).toBe(after);
  });

  it("a write open in another database copied from the same template (the same relation ids) does not count", async () => {
    const template = await createTestDatabase("whitetail_version_tpl");
    await (await openPostgres(template.url, 1)).close();
    const admin = new pg.Client({ connectionString: pgTestUrl });
    await admin.connect();
    const name = (suffix: string) => `${new URL(template.url).pathname.slice(1)}_${suffix}`;
    const url = (suffix: string) => Object.assign(new URL(template.url), { pathname: `/${name(suffix)}` }).toString();
    let mine: Engine | undefined;
    const theirs = new pg.Client({ connectionString: url("b") });
    try {
      for (const suffix of ["a", "b"]) await admin.query(`CREATE DATABASE "${name(suffix)}" TEMPLATE "${name("").slice(0, -1)}"`);
      mine = await openPostgres(url("a"), 2);
      await theirs.connect();
      const [ours, other] = await Promise.all([
        mine.rows<{ oid: number }>("SELECT 'data_version'::regclass::oid AS oid", []),
        theirs.query("SELECT 'data_version'::regclass::oid AS oid"),
      ]);
      expect(Number(other.rows[0].oid)).toBe(Number(ours[0]!.oid));
      const before = await mine.dataVersion();
      await theirs.query("BEGIN");
      await theirs.query("SELECT nextval('data_version')");
      expect(await mine.dataVersion()).toBe(before);
      await theirs.query("COMMIT");
    } finally {
      await theirs.end().catch(() => undefined);
      await mine?.close();
      for (const suffix of ["a", "b"]) await admin.query(`DROP DATABASE IF EXISTS "${name(suffix)}" WITH (FORCE)`);
      await admin.end();
      await template.drop();
    }
  });

  it("a transaction reads its own writes' version", async () => {
    const outside = await engine.dataVersion();
    const inside = await engine.transaction(async () => {
      await engine.rows("UPDATE users SET bio = 'inside' WHERE username = 'first_writer'", []);
      return engine.dataVersion();
    });
    expect(inside).toBeGreaterThan(outside);
    expect(await engine.dataVersion()).toBe(inside);
  });

  it("a write committed before a caller asks is always in its answer, with many callers at once", async () => {
    for (let round = 0; round < 20; round++) {
      const readers = Array.from({ length: 8 }, () => engine.dataVersion());
      await insertUser(writer, `burst_${round}_${Date.now().toString(36)}`);
      const committed = Number((await writer.query("SELECT last_value FROM data_version")).rows[0].last_value);
      const late = await Promise.all(Array.from({ length: 8 }, () => engine.dataVersion()));
      await Promise.all(readers);
      for (const version of late) expect(version).toBeGreaterThanOrEqual(committed);
    }
  });
});

describe("sharedReads", () => {
  it("shares a read among callers who asked before it began, never one that began before they asked", async () => {
    let reads = 0;
    const pending: Array<(value: number) => void> = [];
    const read = sharedReads(
      () =>
        new Promise<number>((resolve) => {
          reads += 1;
          const n = reads;
          pending.push(() => resolve(n));
        }),
    );
    const first = read();
    expect(reads).toBe(1);
    // Asked while the first read is under way: they wait for the next one, and share it.
    const second = read();
    const third = read();
    expect(reads).toBe(1);
    pending.shift()!(0);
    expect(await first).toBe(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(reads).toBe(2);
    // Asked while the second is under way: a third read, after it.
    const fourth = read();
    pending.shift()!(0);
    expect(await second).toBe(2);
    expect(await third).toBe(2);
    await new Promise((r) => setTimeout(r, 0));
    expect(reads).toBe(3);
    pending.shift()!(0);
    expect(await fourth).toBe(3);
  });

  it("a failed read fails its callers only; the next caller reads again", async () => {
    let calls = 0;
    const read = sharedReads(async () => {
      calls += 1;
      if (calls === 1) throw new Error("lost");
      return calls;
    });
    await expect(read()).rejects.toThrow("lost");
    expect(await read()).toBe(2);
  });
});

describe.skipIf(pgTestUrl)("the data version on PostgreSQL", () => {
  it.skip(NO_POSTGRES, () => {});
});

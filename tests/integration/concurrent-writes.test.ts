import { users } from "#db/schema";
import { describe, expect, it } from "vitest";
import { createPost } from "~/models/posts/post.server";
import { db, queryRows } from "~/utils/db.server";
import { raceProcesses } from "#tests/fixtures/processes";

/**
 * Security review H3: two processes on one database (the SQLite file, or with TEST_DATABASE_URL one
 * PostgreSQL database: two app nodes), rate limits on, 16 writers posting, commenting, liking,
 * unliking, sharing and deleting at once. Every write either succeeds or is refused by the domain
 * (404 for a post deleted meanwhile, 429 over a limit): never a raw SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT,
 * an unretried serialization failure (40001) or a foreign-key failure, which the site would answer with 500.
 */

type Counts = { ok: number; refused: Record<string, number>; failures: string[] };

const PROCESSES = 2;
const WRITERS_PER_PROCESS = 8;
// Each writer does a fixed number of writes, so how much races does not depend on the machine's
// speed: with a time limit (8 s on PostgreSQL) a loaded CI run got 172 writes done, under the 200
// the check below wants. The limit is now only a bound on a run that hangs.
const OPS_PER_WRITER = 30;
const TIME_LIMIT_MS = 40_000;

const mismatches = async (query: string) => (await queryRows(query)).length;

describe("writers in two processes on one database", () => {
  it("16 writers with rate limits on: no write fails with a database error, and counters equal their rows", async () => {
    // Written straight to the table: the writers never sign in, so no password is hashed (that would cost seconds).
    const members = await db
      .insert(users)
      .values(
        Array.from({ length: PROCESSES * WRITERS_PER_PROCESS }, (_, i) => ({
          username: `writer${i}`,
          displayName: `Writer ${i}`,
          email: `writer${i}@example.com`,
          passwordHash: "unused",
        })),
      )
      .returning({ id: users.id });
    for (const m of members.slice(0, 4)) {
      await createPost(m, { title: "Seed", content: "Something to comment on.", type: "article" }, { preview: async () => null });
    }
    const groups = Array.from({ length: PROCESSES }, (_, p) => members.filter((_, i) => i % PROCESSES === p).map((m) => m.id));

    const results = await raceProcesses<Counts>(
      "tests/integration/write-race.worker.ts",
      groups.map((ids) => [ids.join(","), String(OPS_PER_WRITER), String(TIME_LIMIT_MS)]),
    );

    const failures = results.flatMap((r) => r.failures);
    const ok = results.reduce((n, r) => n + r.ok, 0);
    expect(failures.slice(0, 5), `${failures.length} writes failed with a database error`).toEqual([]);
    expect(ok, JSON.stringify(results.map((r) => r.refused))).toBeGreaterThan(200);
    for (const r of results) for (const status of Object.keys(r.refused)) expect(["404", "429"]).toContain(status);

    expect(await mismatches("SELECT id FROM posts p WHERE likes_count <> (SELECT count(*) FROM likes WHERE post_id = p.id)")).toBe(0);
    expect(
      await mismatches(
        "SELECT id FROM posts p WHERE comments_count <> (SELECT count(*) FROM comments WHERE post_id = p.id AND hidden_at IS NULL)",
      ),
    ).toBe(0);
    expect(await mismatches("SELECT id FROM posts p WHERE shares_count <> (SELECT count(*) FROM shares WHERE post_id = p.id)")).toBe(0);
    expect(
      await mismatches(
        "SELECT id FROM users u WHERE posts_count <> (SELECT count(*) FROM posts WHERE author_id = u.id AND hidden_at IS NULL)",
      ),
    ).toBe(0);
  }, 90_000);
});

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { seedDemoIfEmpty } from "./seed-demo";
import { checkFieldReport } from "~/models/places/field-report.server";
import { getPulse, PULSE_FLOOR, pulseWindow } from "~/models/places/pulse.server";
import { db as appDb, queryColumn, queryRow, queryRows, writeTransaction } from "~/utils/db.server";

/** Every stored counter equals its rows, clubs have their owner, club posts their members: each query counts what breaks it. */
const COUNTER_CHECKS = [
  `SELECT count(*) AS n FROM posts p WHERE likes_count != (SELECT count(*) FROM likes l WHERE l.post_id = p.id)`,
  `SELECT count(*) AS n FROM posts p WHERE comments_count != (SELECT count(*) FROM comments c WHERE c.post_id = p.id)`,
  `SELECT count(*) AS n FROM posts p WHERE shares_count != (SELECT count(*) FROM shares s WHERE s.post_id = p.id)`,
  `SELECT count(*) AS n FROM users u WHERE posts_count != (SELECT count(*) FROM posts p WHERE p.author_id = u.id)`,
  `SELECT count(*) AS n FROM users u WHERE followers_count != (SELECT count(*) FROM follows f WHERE f.followee_id = u.id)`,
  `SELECT count(*) AS n FROM users u WHERE following_count != (SELECT count(*) FROM follows f WHERE f.follower_id = u.id)`,
  `SELECT count(*) AS n FROM clubs c WHERE member_count != (SELECT count(*) FROM club_members m WHERE m.club_id = c.id)`,
  `SELECT count(*) AS n FROM clubs c WHERE NOT EXISTS (SELECT 1 FROM club_members m WHERE m.club_id = c.id AND m.user_id = c.creator_id AND m.role = 'owner')`,
  `SELECT count(*) AS n FROM posts p WHERE p.club_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM club_members m WHERE m.club_id = p.club_id AND m.user_id = p.author_id)`,
  `SELECT count(*) AS n FROM likes l JOIN posts p ON p.id = l.post_id WHERE l.user_id = p.author_id`,
  `SELECT count(*) AS n FROM posts p WHERE p.tags IS NOT NULL AND NOT EXISTS (SELECT 1 FROM post_tags t WHERE t.post_id = p.id)`,
];

/** The synthetic seed (npm run seed): realistic proportions and every counter equal to its rows. */
describe("db/seed.ts", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "whitetail-seed-"));
  const file = path.join(dir, "seed.db");
  // The seed writes a SQLite file (PostgreSQL gets a copy with npm run db:move), so these run it
  // without the PostgreSQL run's DATABASE_URL, on a file of their own, on either engine's run.
  const { DATABASE_URL, ...sqliteEnv } = process.env;
  const run = (...args: string[]) =>
    execFileSync(path.resolve("node_modules/.bin/tsx"), ["db/seed.ts", ...args], {
      env: { ...sqliteEnv, DATABASE_PATH: file, NODE_ENV: "development" },
      encoding: "utf8",
      stdio: "pipe",
    });

  it("fills an empty database with consistent counters, tags and FTS rows", { timeout: 60_000 }, () => {
    expect(run("--users", "60", "--posts", "1500")).toMatch(/Seeded 60 members, 1500 posts/);
    const db = new Database(file, { readonly: true });
    const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(n(`SELECT count(*) AS n FROM posts`)).toBe(1500);
    expect(n(`SELECT count(*) AS n FROM users`)).toBe(60);
    expect(n(`SELECT count(*) AS n FROM likes`)).toBeGreaterThan(1500);
    expect(n(`SELECT count(*) AS n FROM comments`)).toBeGreaterThan(750);
    expect(n(`SELECT count(*) AS n FROM follows`)).toBeGreaterThan(60);
    expect(n(`SELECT count(*) AS n FROM clubs`)).toBeGreaterThanOrEqual(2);
    expect(n(`SELECT count(*) AS n FROM posts WHERE club_id IS NOT NULL`)).toBeGreaterThan(0);
    for (const sql of COUNTER_CHECKS) {
      expect(n(sql), sql).toBe(0);
    }
    // The FTS index is filled by the triggers.
    expect(n(`SELECT count(*) AS n FROM posts_fts WHERE posts_fts MATCH 'deer'`)).toBeGreaterThan(0);
    expect((db.prepare(`PRAGMA integrity_check`).get() as { integrity_check: string }).integrity_check).toBe("ok");
    db.close();
  });

  it("refuses a database that already has members", { timeout: 60_000 }, () => {
    expect(() => run("--users", "5", "--posts", "5")).toThrow(/already has members/);
  });

  it("refuses unknown arguments", { timeout: 60_000 }, () => {
    expect(() => run("--posts", "lots")).toThrow(/Usage: npm run seed/);
  });

  // Only the PostgreSQL run has a database to point it at.
  it.skipIf(!DATABASE_URL)("refuses PostgreSQL with a sentence saying how to seed it, writing nothing", { timeout: 60_000 }, async () => {
    const pgRun = () =>
      execFileSync(path.resolve("node_modules/.bin/tsx"), ["db/seed.ts", "--users", "5", "--posts", "5"], {
        env: { ...process.env, NODE_ENV: "development" },
        encoding: "utf8",
        stdio: "pipe",
      });
    expect(pgRun).toThrow(
      /fills the SQLite file at DATABASE_PATH: unset DATABASE_URL, seed, then copy the file into PostgreSQL with npm run db:move/,
    );
    expect(await queryRow<{ n: number }>(`SELECT count(*) AS n FROM users`)).toEqual({ n: 0 });
  });
});

/** The demo content (SEED_DEMO=1) holds the same checks (security review L15d: shares counted without rows). */
describe("db/seed-demo.ts", () => {
  it("fills an empty database with counters equal to their rows", { timeout: 60_000 }, async () => {
    expect(await seedDemoIfEmpty(appDb, writeTransaction)).toBe(true);
    // Read through the app's engine: the test's SQLite file, or its PostgreSQL database.
    const n = async (sql: string) => (await queryRow<{ n: number }>(sql))!.n;
    expect(await n(`SELECT count(*) AS n FROM shares`)).toBeGreaterThan(0);
    for (const sql of COUNTER_CHECKS) expect(await n(sql), sql).toBe(0);
    // Every demo club has a picture of its own: a small WebP the server serves from public/ (issue 14, beyond SPEC #18).
    const images = await queryColumn<string | null>(`SELECT image_url AS url FROM clubs`);
    expect(images.length).toBeGreaterThan(0);
    expect(new Set(images).size).toBe(images.length);
    for (const url of images) {
      expect(url).toMatch(/^\/demo\/[a-z0-9-]+\.webp$/);
      const file = path.join("public", url!);
      expect(fs.statSync(file).size).toBeLessThan(20_000);
      expect((await sharp(file).metadata()).format).toBe("webp");
    }
    // Demo members have heard of what happened to them (issue 26): never of their own doing, some
    // still unread, nothing owed to mail or push.
    expect(await n(`SELECT count(*) AS n FROM notifications`)).toBeGreaterThan(10);
    expect(await n(`SELECT count(*) AS n FROM notifications WHERE actor_id = user_id OR sent_at IS NULL`)).toBe(0);
    expect(await n(`SELECT count(*) AS n FROM notifications WHERE read_at IS NULL`)).toBeGreaterThan(0);
    for (const kind of ["comment", "like", "follow", "join_request"]) {
      expect(await n(`SELECT count(*) AS n FROM notifications WHERE kind = '${kind}'`), kind).toBeGreaterThan(0);
    }
  });

  // A newcomer's /pulse has counties to show (issue 45 follow-up): a few over the floor in different
  // states, a couple under it, one reaching it only in the 30-day window.
  it("writes field reports that put a few counties on the pulse and leave others under the floor", { timeout: 60_000 }, async () => {
    // Seeded by the test above, or now; a second call writes nothing (only an empty database is filled).
    await seedDemoIfEmpty(appDb, writeTransaction);
    expect(await seedDemoIfEmpty(appDb, writeTransaction)).toBe(false);

    const week = await getPulse("7");
    expect(week.counties.length).toBeGreaterThanOrEqual(3);
    expect(new Set(week.counties.map((c) => c.state)).size).toBeGreaterThanOrEqual(3);
    for (const county of week.counties) expect(county.reporters).toBeGreaterThanOrEqual(PULSE_FLOOR);

    type Row = {
      county: string;
      kind: string;
      observed_on: string;
      rut_phase: string | null;
      author_id: number;
      post_author: number;
      created_at: number | string;
    };
    const rows = await queryRows<Row>(
      `SELECT f.county AS county, f.kind AS kind, f.observed_on AS observed_on, f.rut_phase AS rut_phase, f.author_id AS author_id,
        p.author_id AS post_author, f.created_at AS created_at FROM field_reports f JOIN posts p ON p.id = f.post_id`,
    );
    // Each report is its post author's, in a county the list knows, seen no later than the county's today and no later than written.
    for (const row of rows) {
      expect(row.author_id).toBe(row.post_author);
      expect(() => checkFieldReport({ kind: row.kind as "sighting", county: row.county, observedOn: row.observed_on })).not.toThrow();
      expect(row.observed_on <= new Date(Number(row.created_at)).toISOString().slice(0, 10)).toBe(true);
    }
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(["sighting", "rut_sign", "harvest"]));
    expect(new Set(rows.map((r) => r.rut_phase).filter(Boolean)).size).toBeGreaterThanOrEqual(4);

    // Counties reported in the week but under the floor: not listed.
    const { from } = pulseWindow(7);
    const listed = new Set(week.counties.map((c) => c.fips));
    const reporters = new Map<string, Set<number>>();
    for (const row of rows.filter((r) => r.observed_on >= from)) {
      reporters.set(row.county, (reporters.get(row.county) ?? new Set()).add(row.author_id));
    }
    const under = [...reporters].filter(([, who]) => who.size < PULSE_FLOOR).map(([fips]) => fips);
    expect(under.length).toBeGreaterThanOrEqual(2);
    for (const fips of under) expect(listed.has(fips)).toBe(false);

    // The month adds a county the week leaves under the floor.
    const month = await getPulse("30");
    expect(month.counties.length).toBeGreaterThan(week.counties.length);
    expect(rows.some((r) => r.observed_on < from)).toBe(true);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { fieldReports } from "#db/schema";
import { pulseSql, pulseWindow } from "~/models/places/pulse.server";
import { databaseEngine, db, queryRows } from "~/utils/db.server";

/**
 * Issue 45 item 5: the pulse's aggregate is one indexed statement at 100k posts, on both engines
 * (docs/decisions/0094-the-pulse.md records the plans this prints). 100,000 posts by 500 members, 5%
 * in clubs (every third of them private), and 40,000 field reports over a year and 300 counties; then
 * EXPLAIN of the 7- and 30-day windows and of one county's figures: the window read through
 * `field_reports_pulse` (a county through `field_reports_county`), each post by its key, never a whole
 * read of posts or field_reports.
 */
const onPostgres = databaseEngine() === "postgres";
const POSTS = 100_000;
const REPORTS = 40_000;
const DAY = 86_400_000;
const plans: Record<string, string> = {};

beforeAll(async () => {
  const now = Date.now();
  // RETURNING: queryRows runs statements that answer rows, on either engine.
  const series = (n: number) => `WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${n})`;
  await queryRows(
    `INSERT INTO users (username, display_name, email, password_hash)
     ${series(500)} SELECT 'pulse_' || n, 'Pulse ' || n, 'pulse_' || n || '@example.com', 'x' FROM g RETURNING id`,
  );
  const [{ first }] = (await queryRows<{ first: number }>(`SELECT min(id) AS first FROM users WHERE username LIKE 'pulse_%'`)) as [
    { first: number },
  ];
  await queryRows(
    `INSERT INTO clubs (name, description, is_private, creator_id, member_count)
     ${series(300)} SELECT 'Pulse club ' || n, 'A club', n % 3 = 0, ${first} + n % 500, 1 FROM g RETURNING id`,
  );
  const [{ club }] = (await queryRows<{ club: number }>(`SELECT min(id) AS club FROM clubs WHERE name LIKE 'Pulse club %'`)) as [
    { club: number },
  ];
  await queryRows(
    `INSERT INTO posts (author_id, club_id, type, title, content, created_at)
     ${series(POSTS)} SELECT ${first} + n % 500, CASE WHEN n % 20 = 0 THEN ${club} + n % 300 ELSE NULL END, 'opinion',
       'Post ' || n, 'Deer at the field edge ' || n, ${now} - CAST(n AS BIGINT) * 300000 FROM g RETURNING id`,
  );
  const posts = await queryRows<{ id: number; author_id: number; created_at: number }>(
    `SELECT id, author_id, created_at FROM posts WHERE title LIKE 'Post %' ORDER BY id LIMIT ${REPORTS}`,
  );
  const phases = ["pre", "seeking", "chasing", "lockdown", "post", null] as const;
  const rows = posts.map((p, i) => ({
    postId: Number(p.id),
    authorId: Number(p.author_id),
    kind: "sighting" as const,
    county: String(1001 + (i % 300) * 2).padStart(5, "0"),
    observedOn: new Date(now - (i % 365) * DAY).toISOString().slice(0, 10),
    rutPhase: phases[i % phases.length]!,
    createdAt: new Date(Number(p.created_at)),
  }));
  for (let i = 0; i < rows.length; i += 2000) await db.insert(fieldReports).values(rows.slice(i, i + 2000));
  if (onPostgres) await queryRows(`VACUUM ANALYZE`);
}, 300_000);

async function plan(label: string, sql: string, params: Record<string, string>): Promise<string> {
  const lines = onPostgres
    ? (await queryRows<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, params)).map((r) => r["QUERY PLAN"])
    : (await queryRows<{ id: number; parent: number; detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params)).map((r) => r.detail);
  plans[label] = lines.join("\n");
  console.log(`-- ${databaseEngine()} ${label}\n${plans[label]}`);
  return plans[label];
}

describe("the pulse's statement at 100k posts", () => {
  it("has the posts and reports it should", async () => {
    const [{ n }] = (await queryRows<{ n: number }>(`SELECT count(*) AS n FROM posts`)) as [{ n: number }];
    expect(Number(n)).toBeGreaterThanOrEqual(POSTS);
  });

  for (const days of [7, 30]) {
    it(`reads a ${days}-day window through field_reports_pulse and each post by its key`, async () => {
      const text = await plan(`pulse, ${days} days`, pulseSql(false), pulseWindow(days));
      expect(text).toMatch(/field_reports_pulse/);
      if (onPostgres) {
        expect(text).not.toMatch(/Seq Scan on (posts|field_reports)/);
      } else {
        expect(text).toMatch(/SEARCH p USING INTEGER PRIMARY KEY/);
        expect(text).not.toMatch(/^SCAN (p|f)\b/m);
      }
    });
  }

  it("answers in milliseconds (printed for the ADR)", async () => {
    for (const days of [7, 30]) {
      await queryRows(pulseSql(false), pulseWindow(days));
      const started = performance.now();
      for (let i = 0; i < 5; i++) await queryRows(pulseSql(false), pulseWindow(days));
      console.log(`-- ${databaseEngine()} pulse, ${days} days: ${((performance.now() - started) / 5).toFixed(1)} ms a statement`);
    }
  });

  it("reads one county's window through field_reports_county", async () => {
    const text = await plan("one county, 30 days", pulseSql(true), { ...pulseWindow(30), county: "01001" });
    expect(text).toMatch(/field_reports_county/);
    if (onPostgres) expect(text).not.toMatch(/Seq Scan on (posts|field_reports)/);
    else expect(text).not.toMatch(/^SCAN (p|f)\b/m);
  });
});

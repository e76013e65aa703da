import { beforeAll, describe, expect, it } from "vitest";
import { planProblems } from "../../scripts/bench/explain";
import { commentPageQuery, COMMENT_PAGE_SIZE } from "~/models/comment.server";
import { clubListQuery } from "~/models/club.server";
import { memberListQuery } from "~/models/club-membership.server";
import { followPageQuery } from "~/models/follow.server";
import { hashtagGapSql, hashtagHalves, hashtagRowsSql } from "~/models/feed-hashtag.server";
import { sqlite } from "~/utils/db.server";
import { createMember } from "../fixtures/members";

/**
 * Every list outside the feed is index-backed (issue 13, "Flat cost with data"): the statement each
 * model runs, through EXPLAIN QUERY PLAN and the bench's own check (scripts/bench/explain.ts), which
 * refuses a whole-table read or a temp B-tree over an unbounded set. No ANALYZE, as in production.
 */

let viewer: { id: number };
beforeAll(async () => {
  viewer = { id: (await createMember()).id };
});

function problems(query: { toSQL(): { sql: string; params: unknown[] } }, bounded = false) {
  const { sql, params } = query.toSQL();
  const rows = sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { id: number; parent: number; detail: string }[];
  return { problems: planProblems(rows, bounded), plan: rows.map((r) => r.detail) };
}

const cursor = (text: string) => Buffer.from(text).toString("base64url");

describe("list query plans", () => {
  it.each([
    ["comments, first page", () => commentPageQuery(1, null, COMMENT_PAGE_SIZE)],
    ["comments, after a cursor", () => commentPageQuery(1, cursor(`c.${Date.now()}.5`), COMMENT_PAGE_SIZE)],
    ["followers", () => followPageQuery("followers", 1, null, 30)],
    ["followers, after a cursor", () => followPageQuery("followers", 1, `${Date.now()}.5`, 30)],
    ["following", () => followPageQuery("following", 1, null, 30)],
    ["following, after a cursor", () => followPageQuery("following", 1, `${Date.now()}.5`, 30)],
    ["clubs", () => clubListQuery(viewer, {}, 24)],
    ["public clubs", () => clubListQuery(viewer, { onlyPublic: true }, 24)],
    ["clubs, after a cursor", () => clubListQuery(viewer, { cursor: cursor(`${Date.now()}:3`) }, 24)],
  ])("%s: walks an index in the list's order", (_label, query) => {
    const { problems: found, plan } = problems(query());
    expect(found, plan.join("\n")).toEqual([]);
    expect(plan.join("\n"), "no sort step at all").not.toMatch(/TEMP B-TREE FOR (LAST TERM OF )?ORDER BY/);
  });

  it("a club's members and My Clubs are read through their indexes (their sorts are bounded: one club, one member)", () => {
    for (const query of [memberListQuery(1), clubListQuery(viewer, { onlyMine: true }, 24)]) {
      const { problems: found, plan } = problems(query, true);
      expect(found, plan.join("\n")).toEqual([]);
      expect(plan.join("\n")).toMatch(/USING (COVERING )?INDEX (club_members_club_joined|club_members_user)/);
    }
  });

  it("a #hashtag's newest-first reads: each half in id order with a bound, rows by id, the check through the feed's index", () => {
    const explainRaw = (sql: string, params: Record<string, unknown>) =>
      sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { id: number; parent: number; detail: string }[];
    const at = { cursorValue: Date.now(), cursorId: 50 };
    for (const dir of ["DESC", "ASC"] as const) {
      const halves = hashtagHalves(dir);
      const statements: Array<[string, Record<string, unknown>, RegExp]> = [
        [halves.tags, { tagKey: "bowhunting", from: 50, n: 42 }, /USING COVERING INDEX post_tags_key \(key=\? AND post_id[<>]\?\)/],
        [halves.text, { fts: '"bowhunting" OR "bow hunting"', from: 50, n: 42 }, /VIRTUAL TABLE INDEX/],
        [hashtagRowsSql(dir, true, true), { ids: "[1]", type: "video", ...at }, /INTEGER PRIMARY KEY \(rowid=\?\)/],
        [hashtagGapSql(dir, true, true), { ...at, lastValue: 0, lastId: 1, lo: 1, hi: 50 }, /USING (COVERING )?INDEX posts_feed_recent/],
        [hashtagGapSql(dir, true, false), { ...at, lo: 1, hi: 50 }, /INTEGER PRIMARY KEY \(rowid[<>]\?\)/],
      ];
      for (const [sql, params, expected] of statements) {
        const rows = explainRaw(sql, params);
        const plan = rows.map((r) => r.detail).join("\n");
        expect(planProblems(rows, false), plan).toEqual([]);
        expect(plan).toMatch(expected);
        expect(plan, "no sort step: the read stops at its LIMIT").not.toMatch(/TEMP B-TREE/);
      }
    }
  });
});

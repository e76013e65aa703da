/**
 * The bench's query-plan check: EXPLAIN QUERY PLAN of every feed query on a seeded database, flagging
 * a full scan of posts or a temp B-tree sort over an unbounded set. `explain(file)` runs
 * `scripts/bench.ts --explain <db>` in a child so the app's database module opens that file.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

export type PlanCheck = { label: string; detail: string[]; problems: string[] };

export async function explainMode(file: string) {
  process.env.DATABASE_PATH = file;
  const { planFeed, TRENDING_SQL, SEARCH_DRIVES_BELOW } = await import("../../app/models/feed.server");
  const { sqlite } = await import("../../app/utils/db.server");
  const viewer = { id: 1 };
  const cases: Array<[string, Parameters<typeof planFeed>[1]]> = [];
  for (const sortBy of ["recent", "popular", "discussed", "oldest"] as const) {
    cases.push([`home sortBy=${sortBy}`, { sortBy }]);
    cases.push([`home type=video sortBy=${sortBy}`, { sortBy, type: "video" }]);
  }
  cases.push(["home sortBy=popular, 2nd page (cursor)", { sortBy: "popular", cursor: Buffer.from("popular.3.500").toString("base64url") }]);
  cases.push(["search 'deer' (dense)", { search: "deer" }]);
  cases.push(["search 'deer' sortBy=popular", { search: "deer", sortBy: "popular" }]);
  cases.push(["search 'cedar swamp' sortBy=popular", { search: "cedar swamp", sortBy: "popular" }]);
  cases.push(["search '#BowHunting' sortBy=popular", { search: "#BowHunting", sortBy: "popular" }]);
  cases.push(["search 'zzyzx' (rare)", { search: "zzyzx" }]);
  cases.push(["following (member 1)", { following: true }]);
  cases.push(["author 1's posts", { authorId: 1 }]);
  cases.push(["club 1's posts", { clubId: 1 }]);

  const out: PlanCheck[] = [];
  const check = (label: string, sql: string, params: Record<string, unknown>, boundedSort: boolean) => {
    const rows = sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { id: number; parent: number; detail: string }[];
    const detail = rows.map((r) => r.detail);
    const problems: string[] = [];
    for (const d of detail) {
      if (/^SCAN (p|posts)( |$)/.test(d) && !/USING (COVERING )?INDEX/.test(d)) problems.push(`full scan: ${d}`);
    }
    // The outermost ORDER BY is the last temp B-tree line at parent 0.
    const outerSort = rows.some((r) => r.parent === 0 && r.detail === "USE TEMP B-TREE FOR ORDER BY");
    if (outerSort && !boundedSort) problems.push("temp B-tree for the sort over an unbounded set");
    out.push({ label, detail, problems });
  };
  for (const [label, query] of cases) {
    const plan = planFeed(viewer, query);
    // A temp B-tree sort is accepted only where the set it sorts is bounded by construction: a
    // search with at most SEARCH_DRIVES_BELOW matches, a few followed members' posts, one author's
    // or one club's posts.
    const bounded =
      plan.sql.includes("NOT INDEXED") ||
      plan.sql.includes("INDEXED BY posts_author_recent") ||
      query.authorId !== undefined ||
      query.clubId !== undefined;
    check(`${label}${bounded ? " [bounded sort]" : ""}`, plan.sql, plan.params, bounded);
  }
  check(
    "trending (candidates: newest 1000 + top 100 liked + top 100 discussed) [bounded sort]",
    TRENDING_SQL,
    { now: Date.now(), viewer: 1 },
    true,
  );
  process.stdout.write(JSON.stringify({ checks: out, searchDrivesBelow: SEARCH_DRIVES_BELOW }));
}

/** The plan checks of the database at `file`, from a child process. */
export function explain(root: string, file: string): PlanCheck[] {
  const explained = spawnSync(path.join(root, "node_modules/.bin/tsx"), ["scripts/bench.ts", "--explain", file], {
    env: { ...process.env, NODE_ENV: "development" },
    encoding: "utf8",
    timeout: 120_000,
  });
  if (explained.status !== 0) throw new Error(`explain failed: ${explained.stderr}`);
  return (JSON.parse(explained.stdout.slice(explained.stdout.indexOf("{"))) as { checks: PlanCheck[] }).checks;
}

/** Prints each check (with its plan when `verbose` or when it failed); the number that failed. */
export function printPlans(scale: string, checks: PlanCheck[], verbose: boolean): number {
  console.log(`\n== EXPLAIN QUERY PLAN of the feed queries at ${scale} posts${verbose ? "" : " (plans: --plans)"}`);
  let bad = 0;
  for (const c of checks) {
    console.log(`  ${c.problems.length ? "FAIL" : "ok  "} ${c.label}`);
    if (verbose || c.problems.length) for (const d of c.detail) console.log(`         ${d}`);
    for (const problem of c.problems) console.log(`         !! ${problem}`);
    bad += c.problems.length ? 1 : 0;
  }
  return bad;
}

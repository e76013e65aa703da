/**
 * The bench's query-plan check: EXPLAIN QUERY PLAN of every list's query on a seeded database (the
 * feed in each sort, searches, hashtags, profile and club posts, following, comments on the longest
 * thread, followers and following, the club list and a club's members), flagging a full scan of a
 * list's table or a temp B-tree sort over an unbounded set. `explain(file)` runs
 * `scripts/bench.ts --explain <db>` in a child so the app's database module opens that file.
 *
 * On PostgreSQL (`explain(postgres://…)`, issue 25) the same statements, as the models write them for
 * that engine, go through `EXPLAIN (FORMAT JSON)` on the ANALYZEd copy: a Seq Scan of a list's table
 * (of at least PG_SMALL_TABLE rows: below that, reading it whole is the planner's right choice) or a
 * Sort of more than PG_BOUNDED_SORT estimated rows where the set is not bounded by construction fails.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

export type PlanCheck = { label: string; detail: string[]; problems: string[] };

type PlanRow = { id: number; parent: number; detail: string };

/** A list's table smaller than this may be read whole on PostgreSQL (its planner's choice, from statistics). */
export const PG_SMALL_TABLE = 5_000;
/** A sort of at most this many estimated rows is a bounded one on PostgreSQL (a search's driving set is at most 1,000). */
export const PG_BOUNDED_SORT = 2_000;

/** One node of PostgreSQL's EXPLAIN (FORMAT JSON). */
type PgNode = {
  "Node Type": string;
  "Relation Name"?: string;
  Alias?: string;
  "Index Name"?: string;
  "Plan Rows": number;
  "Parent Relationship"?: string;
  "Subplan Name"?: string;
  Filter?: string;
  "Index Cond"?: string;
  "Recheck Cond"?: string;
  "Sort Key"?: string[];
  Plans?: PgNode[];
};

const LIST_TABLES = /^(posts|comments|follows|clubs|club_members|notifications)$/;

/** The plan as indented lines, and what is wrong with it (see the header). `sizes`: rows per table (pg_class.reltuples). */
export function pgPlanProblems(
  root: PgNode,
  sizes: Record<string, number>,
  boundedSort: boolean,
): { detail: string[]; problems: string[] } {
  const detail: string[] = [];
  const problems: string[] = [];
  const walk = (node: PgNode, depth: number) => {
    const on = node["Relation Name"]
      ? ` on ${node["Relation Name"]}${node.Alias && node.Alias !== node["Relation Name"] ? ` ${node.Alias}` : ""}`
      : "";
    const using = node["Index Name"] ? ` using ${node["Index Name"]}` : "";
    const cond = node["Index Cond"] ?? node["Recheck Cond"] ?? node.Filter;
    const sub = node["Subplan Name"] ? `${node["Subplan Name"]}: ` : "";
    const keys = node["Sort Key"] ? ` by ${node["Sort Key"].join(", ")}` : "";
    detail.push(
      `${"  ".repeat(depth)}${sub}${node["Node Type"]}${using}${on}${keys} (est. ${node["Plan Rows"]} rows)${cond ? ` [${cond.slice(0, 90)}]` : ""}`,
    );
    const table = node["Relation Name"];
    if (node["Node Type"] === "Seq Scan" && table && LIST_TABLES.test(table) && (sizes[table] ?? 0) >= PG_SMALL_TABLE)
      problems.push(`full scan: Seq Scan on ${table} (${sizes[table]} rows)`);
    if (node["Node Type"] === "Sort" && !boundedSort && node["Plan Rows"] > PG_BOUNDED_SORT)
      problems.push(`sort over an unbounded set: ${node["Plan Rows"]} estimated rows`);
    for (const child of node.Plans ?? []) walk(child, depth + 1);
  };
  walk(root, 0);
  return { detail, problems };
}

/**
 * What is wrong with one EXPLAIN QUERY PLAN: a list's own table read whole (posts, comments,
 * follows, clubs, club_members; a lookup by primary key or through an index is fine), or a temp
 * B-tree for the outermost ORDER BY when the set it sorts is not bounded by construction.
 */
export function planProblems(rows: PlanRow[], boundedSort: boolean): string[] {
  const problems: string[] = [];
  for (const { detail: d } of rows) {
    if (/^SCAN (p|n|posts|comments|follows|clubs|club_members|notifications)( |$)/.test(d) && !/USING (COVERING )?INDEX/.test(d))
      problems.push(`full scan: ${d}`);
  }
  // The outermost ORDER BY is the last temp B-tree line at parent 0.
  const outerSort = rows.some((r) => r.parent === 0 && r.detail === "USE TEMP B-TREE FOR ORDER BY");
  if (outerSort && !boundedSort) problems.push("temp B-tree for the sort over an unbounded set");
  return problems;
}

export async function explainMode(target: string) {
  const onPostgres = /^postgres(ql)?:\/\//.test(target);
  if (onPostgres) process.env.DATABASE_URL = target;
  else process.env.DATABASE_PATH = target;
  const { planFeed, TRENDING_SQL, SEARCH_DRIVES_BELOW } = await import("../../app/models/feeds/feed.server");
  const { sqlite, queryRow, closeDatabase } = await import("../../app/utils/db.server");
  const { commentPageQuery, COMMENT_PAGE_SIZE } = await import("../../app/models/posts/comment.server");
  const { followPageQuery } = await import("../../app/models/members/follow.server");
  const { clubListQuery } = await import("../../app/models/clubs/club.server");
  const { memberListQuery } = await import("../../app/models/clubs/club-membership.server");
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
  cases.push(["search '#BowHunting' (the set, where the newest-first halves give way)", { search: "#BowHunting" }]);
  cases.push(["search '#BowHunting' sortBy=popular", { search: "#BowHunting", sortBy: "popular" }]);
  cases.push(["search '#rut' sortBy=popular (one word: the row probe)", { search: "#rut", sortBy: "popular" }]);
  cases.push(["search 'zzyzx' (rare)", { search: "zzyzx" }]);
  cases.push(["following (member 1)", { following: true }]);
  cases.push(["author 1's posts", { authorId: 1 }]);
  cases.push(["club 1's posts", { clubId: 1 }]);

  const out: PlanCheck[] = [];
  // PostgreSQL: a client of its own, so drizzle's statements ($1…, positional values) and the
  // hand-written ones (@name, turned into $n as the app's engine does) are explained alike.
  const { positional } = await import("../../app/utils/db/db-postgres.server");
  const pg = onPostgres ? new (await import("pg")).default.Client({ connectionString: target }) : null;
  await pg?.connect();
  const sizes: Record<string, number> = {};
  if (pg) {
    const rel = await pg.query<{ relname: string; n: number }>(
      `SELECT relname, reltuples::bigint AS n FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace`,
    );
    for (const r of rel.rows) sizes[r.relname] = Number(r.n);
  }
  /** `mustUse`: an index the plan has to name (the notification checks: an index lookup, not merely no full scan). */
  const check = async (label: string, sql: string, params: Record<string, unknown> | unknown[], boundedSort: boolean, mustUse?: RegExp) => {
    let found: { detail: string[]; problems: string[] };
    if (pg) {
      const { text, values } = Array.isArray(params) && /\$1\b/.test(sql) ? { text: sql, values: params } : positional(sql, params);
      const res = await pg.query<{ "QUERY PLAN": Array<{ Plan: PgNode }> }>(`EXPLAIN (FORMAT JSON) ${text}`, values);
      found = pgPlanProblems(res.rows[0]!["QUERY PLAN"][0]!.Plan, sizes, boundedSort);
    } else {
      const rows = sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as PlanRow[];
      found = { detail: rows.map((r) => r.detail), problems: planProblems(rows, boundedSort) };
    }
    if (mustUse && !found.detail.some((d) => mustUse.test(d))) found.problems.push(`not read through ${mustUse.source}`);
    out.push({ label, ...found });
  };
  for (const [label, query] of cases) {
    const plan = await planFeed(viewer, query);
    // A temp B-tree sort is accepted only where the set it sorts is bounded by construction: a
    // search with at most SEARCH_DRIVES_BELOW matches, a few followed members' posts, one author's
    // or one club's posts. (PostgreSQL's SQL has no index hints to tell: its estimate says.)
    const bounded =
      plan.sql.includes("NOT INDEXED") ||
      plan.sql.includes("INDEXED BY posts_author_recent") ||
      query.authorId !== undefined ||
      query.clubId !== undefined;
    await check(`${label}${bounded ? " [bounded sort]" : ""}`, plan.sql, plan.params, bounded);
  }
  // A #hashtag newest or oldest first (feed-hashtag.server.ts): each half read in id order with a
  // bound, the candidates' rows by id, and the check that no post outside the ids read sits in the page.
  const { hashtagHalves, hashtagRowsSql, hashtagGapSql } = await import("../../app/models/feeds/feed-hashtag.server");
  const { searchSet } = await import("../../app/models/feeds/feed-search.server");
  const parts = searchSet("#BowHunting")!.hashtag!;
  const cursorAt = { cursorValue: Date.now(), cursorId: 50_000 };
  for (const dir of ["DESC", "ASC"] as const) {
    const halves = hashtagHalves(dir);
    await check(`#BowHunting ${dir}: tag half, 42 ids from a cursor`, halves.tags, { tagKey: parts.tagKey, from: 50_000, n: 42 }, false);
    await check(`#BowHunting ${dir}: text half, 42 ids from a cursor`, halves.text, { fts: parts.fts, from: 50_000, n: 42 }, false);
    await check(
      `#BowHunting ${dir}: the candidates' rows`,
      hashtagRowsSql(dir, true, true),
      { ids: "[1,2,3]", type: "video", viewer: 1, ...cursorAt },
      false,
    );
    await check(
      `#BowHunting ${dir}: no post outside the ids read within the page`,
      hashtagGapSql(dir, true, true),
      {
        ...cursorAt,
        lastValue: Date.now() - 86_400_000,
        lastId: 49_000,
        lo: 49_000,
        hi: 50_000,
      },
      false,
    );
    await check(
      `#BowHunting ${dir}: the last page, no post past the cursor's id`,
      hashtagGapSql(dir, true, false),
      { ...cursorAt, lo: 0, hi: 50_000 },
      false,
    );
  }
  await check(
    "trending (candidates: newest 1000 + top 100 liked + top 100 discussed) [bounded sort]",
    TRENDING_SQL,
    { now: Date.now(), viewer: 1 },
    true,
  );

  // The other lists, each through the statement its model runs (drizzle's SQL with positional params).
  const one = async <T>(sql: string) => (await queryRow<T>(sql))!;
  const longest = await one<{ id: number; n: number }>(`SELECT id, comments_count AS n FROM posts ORDER BY comments_count DESC LIMIT 1`);
  const lastComment = await one<{ at: number; id: number }>(
    `SELECT created_at AS at, id FROM comments WHERE post_id = ${longest.id} ORDER BY created_at, id LIMIT 1 OFFSET ${COMMENT_PAGE_SIZE - 1}`,
  );
  const followed = await one<{ id: number }>(`SELECT id FROM users ORDER BY followers_count DESC LIMIT 1`);
  const follower = await one<{ id: number }>(`SELECT id FROM users ORDER BY following_count DESC LIMIT 1`);
  const bigClub = await one<{ id: number }>(`SELECT id FROM clubs ORDER BY member_count DESC LIMIT 1`);
  const drizzle = (label: string, query: { toSQL(): { sql: string; params: unknown[] } }, bounded = false) => {
    const { sql, params } = query.toSQL();
    return check(`${label}${bounded ? " [bounded sort]" : ""}`, sql, params, bounded);
  };
  const commentCursor = lastComment ? Buffer.from(`c.${lastComment.at}.${lastComment.id}`).toString("base64url") : null;
  await drizzle(`comments, most-discussed post (${longest.n}), first page`, commentPageQuery(longest.id, null, COMMENT_PAGE_SIZE));
  await drizzle(`comments, most-discussed post, 2nd page (cursor)`, commentPageQuery(longest.id, commentCursor, COMMENT_PAGE_SIZE));
  await drizzle("followers of the most-followed member", followPageQuery("followers", followed.id, null, 30));
  await drizzle("followers, 2nd page (cursor)", followPageQuery("followers", followed.id, `${Date.now()}.1000`, 30));
  await drizzle("following of the member who follows most", followPageQuery("following", follower.id, null, 30));
  await drizzle("clubs list", clubListQuery(viewer, {}, 24));
  await drizzle("clubs list, public", clubListQuery(viewer, { onlyPublic: true }, 24));
  // My Clubs: the member's own memberships (club_members_user) sorted by the club's date.
  await drizzle("clubs list, mine", clubListQuery(viewer, { onlyMine: true }, 24), true);
  await drizzle(
    "clubs list, 2nd page (cursor)",
    clubListQuery(viewer, { cursor: Buffer.from(`${Date.now()}:10`).toString("base64url") }, 24),
  );
  // A club's members: at most its member limit (1,000 at most), sorted by role then joining date.
  await drizzle("members of the largest club", memberListQuery(bigClub.id), true);

  // Notifications (issue 26): the top bar's capped unread count on every member's page walks the
  // member's part of notifications_unread; /notifications reads notifications_user_recent newest first.
  const { UNREAD_COUNT_SQL, notificationPageSql, NOTIFICATION_PAGE } = await import("../../app/models/notifications/notification.server");
  const busiest = (await queryRow<{ id: number; top: number }>(
    `SELECT user_id AS id, max(id) AS top FROM notifications GROUP BY user_id ORDER BY count(*) DESC LIMIT 1`,
  )) ?? { id: 1, top: 0 };
  const page = { viewer: busiest.id, limit: NOTIFICATION_PAGE + 1 };
  const unreadIndex = pg ? /Index Only Scan using notifications_unread|Index Scan using notifications_unread/ : /notifications_unread/;
  const recentIndex = pg
    ? /Index (Only )?Scan (Backward )?using notifications_user_recent/
    : /USING (COVERING )?INDEX notifications_user_recent/;
  await check("unread notifications, counted up to the cap", UNREAD_COUNT_SQL, { viewer: busiest.id }, false, unreadIndex);
  await check("notifications, first page", notificationPageSql(false), { ...page, before: 0 }, false, recentIndex);
  await check(
    "notifications, 2nd page (cursor)",
    notificationPageSql(true),
    { ...page, before: Number(busiest.top) - NOTIFICATION_PAGE },
    false,
    recentIndex,
  );
  await pg?.end();
  await closeDatabase();
  process.stdout.write(JSON.stringify({ checks: out, searchDrivesBelow: SEARCH_DRIVES_BELOW }));
}

/** The plan checks of the database at `file` (or a postgres:// URL), from a child process. */
export function explain(root: string, file: string): PlanCheck[] {
  // The database goes in through the child's environment: bench.ts's static imports (uploads.ts's
  // fixtures) read env.server.ts before explainMode runs, so setting it there would come too late.
  const where = /^postgres(ql)?:\/\//.test(file) ? { DATABASE_URL: file } : { DATABASE_PATH: file, DATABASE_URL: "" };
  const explained = spawnSync(path.join(root, "node_modules/.bin/tsx"), ["scripts/bench.ts", "--explain", file], {
    env: { ...process.env, NODE_ENV: "development", ...where },
    encoding: "utf8",
    timeout: 120_000,
  });
  if (explained.status !== 0) throw new Error(`explain failed: ${explained.stderr}`);
  return (JSON.parse(explained.stdout.slice(explained.stdout.indexOf("{"))) as { checks: PlanCheck[] }).checks;
}

/** Prints each check (with its plan when `verbose` or when it failed); the number that failed. */
export function printPlans(scale: string, checks: PlanCheck[], verbose: boolean, engine = "SQLite"): number {
  const how = engine === "SQLite" ? "EXPLAIN QUERY PLAN" : "EXPLAIN (FORMAT JSON), after ANALYZE,";
  console.log(`\n== ${engine}: ${how} of every list at ${scale} posts${verbose ? "" : " (plans: --plans)"}`);
  let bad = 0;
  for (const c of checks) {
    console.log(`  ${c.problems.length ? "FAIL" : "ok  "} ${c.label}`);
    if (verbose || c.problems.length) for (const d of c.detail) console.log(`         ${d}`);
    for (const problem of c.problems) console.log(`         !! ${problem}`);
    bad += c.problems.length ? 1 : 0;
  }
  return bad;
}

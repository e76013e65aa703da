import Database from "better-sqlite3";
import pg from "pg";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { blockMember } from "~/models/members/block.server";
import { deleteAccount } from "~/models/members/account.server";
import { removeContent } from "~/models/moderation/moderation-removal.server";
import { createPost, deletePost, updatePost } from "~/models/posts/post.server";
import { loader as pulseLoader } from "~/routes/api.pulse";
import { loader as countyPulseLoader } from "~/routes/api.pulse.$fips";
import { loader as pulsePageLoader } from "~/routes/pulse/pulse-page.server";
import { loader as countyPageLoader } from "~/routes/pulse_.$fips/pulse-county-page.server";
import { databaseEngine } from "~/utils/db.server";
import { call, createMember, makeRequest, routeArgs } from "#tests/fixtures/members";
import { createStaff } from "#tests/fixtures/moderation";
import { ageAccount } from "#tests/fixtures/new-accounts";
import { postInput } from "#tests/fixtures/posts";

/**
 * The pulse read once per data version and window (docs/decisions/0094-the-pulse.md, addendum), both
 * engines: a second read of the same window runs no aggregate, for `/api/pulse` and the `/pulse` page
 * alike, and every kind of write that changes the pulse is in the next answer (a new report, one
 * edited or removed, a post hidden by moderation or deleted, a member who leaves). And a county's
 * page leaves out the posts of members the signed-in viewer blocked; its figures stay the county's.
 *
 * Queries are counted where the driver runs them (better-sqlite3's statements, pg's client): the
 * pulse's one statement is the one with `WITH w AS MATERIALIZED` over the whole window (not narrowed
 * to a county).
 */

type Member = Awaited<ReturnType<typeof createMember>>;

const isAggregate = (text: string) => text.includes("WITH w AS MATERIALIZED") && !text.includes("f.county =");

/** How many times the pulse's aggregate ran while `work` ran. */
async function aggregates<T>(work: () => Promise<T>): Promise<{ result: T; runs: number }> {
  if (databaseEngine() === "postgres") {
    const spy = vi.spyOn(pg.Client.prototype, "query");
    try {
      const result = await work();
      const runs = spy.mock.calls.filter(([q]) => {
        const text = typeof q === "string" ? q : (q as { text?: string } | undefined)?.text;
        return typeof text === "string" && isAggregate(text);
      }).length;
      return { result, runs };
    } finally {
      spy.mockRestore();
    }
  }
  const probe = new Database(":memory:");
  const proto = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, (...a: unknown[]) => unknown>;
  probe.close();
  type StatementSpy = { mockRestore(): void; mock: { contexts: ({ source?: string } | undefined)[] } };
  const spies = (["all", "get", "iterate"] as const).map((m) => vi.spyOn(proto as never, m as never) as StatementSpy);
  try {
    const result = await work();
    const runs = spies.flatMap((s) => s.mock.contexts).filter((statement) => isAggregate(statement?.source ?? "")).length;
    return { result, runs };
  } finally {
    for (const s of spies) s.mockRestore();
  }
}

type Row = { fips: string; reports: number; reporters: number };

async function apiPulse(query = "") {
  const res = await call(pulseLoader, makeRequest(`/api/pulse${query}`));
  expect(res.status).toBe(200);
  return (await res.json()) as { days: number; counties: Row[] };
}
const pagePulse = async (query = "") =>
  (await pulsePageLoader(routeArgs(makeRequest(`/pulse${query}`)))) as { counties: Row[]; svg: string };

const DAY = 86_400_000;
const daysAgo = (ago: number) => new Date(Date.now() - ago * DAY).toISOString().slice(0, 10);

async function member(): Promise<Member> {
  const m = await createMember();
  await ageAccount(m.id);
  return m;
}

/** An edit of a post with this report (null: none), as PUT /api/posts/{id} sends it. */
const edit = (field: { kind: "sighting"; county: string; observedOn: string } | null) => ({
  ...postInput(),
  mediaUrl: null,
  tags: null,
  field,
});

/** A post with a field report through createPost, as POST /api/posts writes it. */
async function report(author: Member, county: string, ago = 1): Promise<number> {
  const post = await createPost(
    author,
    postInput({ title: `Deer in ${county}`, field: { kind: "sighting", county, observedOn: daysAgo(ago) } }),
  );
  return post.id;
}

describe("the pulse, read once per data version", () => {
  it("a second read of a window runs no aggregate, for the API and the page alike", async () => {
    const county = "30001"; // Beaverhead, MT
    for (let i = 0; i < 3; i++) await report(await member(), county);

    const first = await aggregates(() => apiPulse());
    expect(first.runs).toBe(1);
    expect(first.result.counties.find((c) => c.fips === county)).toMatchObject({ reports: 3, reporters: 3 });
    const second = await aggregates(() => apiPulse());
    expect(second.runs).toBe(0);
    expect(second.result).toEqual(first.result);
    // The page reads the same pulse (days 7 by default, junk is 7): no aggregate of its own.
    const page = await aggregates(() => pagePulse("?days=abc"));
    expect(page.runs).toBe(0);
    expect(page.result.counties.find((c) => c.fips === county)).toMatchObject({ reports: 3 });

    // Another window is read once too.
    expect((await aggregates(() => apiPulse("?days=30"))).runs).toBe(1);
    expect((await aggregates(() => apiPulse("?days=30"))).runs).toBe(0);
    expect((await aggregates(() => pagePulse("?days=30"))).runs).toBe(0);
    // Callers at once share one read.
    const together = await aggregates(() => Promise.all([apiPulse("?days=12"), apiPulse("?days=12"), pagePulse("?days=12")]));
    expect(together.runs).toBe(1);
  });

  it("every write that changes the pulse is in the next answer, on the API and the page", async () => {
    const county = "16001"; // Ada, ID
    const elsewhere = "16003"; // Adams, ID
    const m = [] as Member[];
    const ids = [] as number[];
    for (let i = 0; i < 6; i++) {
      m.push(await member());
      ids.push(await report(m[i]!, county));
    }
    const moderator = await createStaff("moderator");

    /** The county as the API and the page answer it, after checking that a read before the write ran nothing. */
    const figures = async () => {
      const api = await aggregates(() => apiPulse());
      const page = await aggregates(() => pagePulse());
      // The API read it (the write moved the version on); the page took the API's read.
      expect(api.runs).toBe(1);
      expect(page.runs).toBe(0);
      const row = api.result.counties.find((c) => c.fips === county);
      expect(page.result.counties.find((c) => c.fips === county)).toEqual(row);
      // Nothing written since: read again, nothing runs.
      expect((await aggregates(() => apiPulse())).runs).toBe(0);
      return row && { reports: row.reports, reporters: row.reporters };
    };

    expect(await figures()).toEqual({ reports: 6, reporters: 6 });

    // A new report.
    const again = await report(m[0]!, county, 2);
    expect(await figures()).toEqual({ reports: 7, reporters: 6 });

    // A report edited: moved to another county.
    await updatePost(m[0]!, again, edit({ kind: "sighting", county: elsewhere, observedOn: daysAgo(2) }));
    expect(await figures()).toEqual({ reports: 6, reporters: 6 });

    // A report edited: its day moved out of the window.
    await updatePost(m[1]!, ids[1]!, edit({ kind: "sighting", county, observedOn: daysAgo(20) }));
    expect(await figures()).toEqual({ reports: 5, reporters: 5 });

    // A report removed from its post (the post stays).
    await updatePost(m[2]!, ids[2]!, edit(null));
    expect(await figures()).toEqual({ reports: 4, reporters: 4 });

    // A post hidden by moderation.
    await removeContent(moderator, { type: "post", id: ids[3]! }, "Spam links");
    expect(await figures()).toEqual({ reports: 3, reporters: 3 });

    // Back over the floor, then a post deleted by its author.
    const back = await report(m[3]!, county, 3);
    await report(m[4]!, county, 3);
    expect(await figures()).toEqual({ reports: 5, reporters: 4 });
    await deletePost(m[3]!, back);
    expect(await figures()).toEqual({ reports: 4, reporters: 3 });

    // A member who leaves: their reports go with them, and the county falls under the floor.
    await deleteAccount(m[4]!, { password: m[4]!.password });
    expect(await figures()).toBeUndefined();
  });
});

/**
 * Another node: a connection of its own to the same database (another process on the SQLite file,
 * another app server on PostgreSQL), writing rows as that node's app would, this process never told.
 */
async function otherNode() {
  if (databaseEngine() === "postgres") {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    return {
      run: async (sql: string, values: unknown[]) => {
        let n = 0;
        return (
          await client.query(
            sql.replace(/\?/g, () => `$${++n}`),
            values,
          )
        ).rows as { id: number }[];
      },
      close: () => client.end(),
    };
  }
  const sqlite = new Database(process.env.DATABASE_PATH!);
  sqlite.pragma("busy_timeout = 5000");
  return {
    run: async (sql: string, values: unknown[]) =>
      /^\s*(BEGIN|COMMIT)/i.test(sql) ? (sqlite.exec(sql), []) : (sqlite.prepare(sql).all(...values) as { id: number }[]),
    close: async () => void sqlite.close(),
  };
}

describe("the pulse on two nodes", () => {
  it("a report written on another node is in this node's next answer; while its write is open, nothing is kept", async () => {
    const county = "56001"; // Albany, WY
    const [a, b, c] = [await member(), await member(), await member()];
    await report(a, county);
    await report(b, county);
    const node = await otherNode();
    try {
      expect((await apiPulse()).counties.find((row) => row.fips === county)).toBeUndefined();
      expect((await aggregates(() => apiPulse())).runs).toBe(0);

      const write = async () => {
        const [post] = await node.run("INSERT INTO posts (author_id, type, title, content) VALUES (?, 'opinion', ?, ?) RETURNING id", [
          c.id,
          "Deer in Albany",
          "A buck crossing at dawn",
        ]);
        await node.run(
          "INSERT INTO field_reports (post_id, author_id, kind, county, observed_on) VALUES (?, ?, 'sighting', ?, ?) RETURNING post_id AS id",
          [Number(post!.id), c.id, county, daysAgo(1)],
        );
      };
      if (databaseEngine() === "postgres") {
        // The other node's transaction is open: its version is not given out (data-version: a reader
        // gets one no page is kept under), so each read runs and none is kept.
        await node.run("BEGIN", []);
        await write();
        for (let i = 0; i < 2; i++) {
          const open = await aggregates(() => apiPulse());
          expect(open.runs).toBe(1);
          expect(open.result.counties.find((row) => row.fips === county)).toBeUndefined();
        }
        await node.run("COMMIT", []);
      } else {
        await write();
      }
      const after = await aggregates(() => apiPulse());
      expect(after.runs).toBe(1);
      expect(after.result.counties.find((row) => row.fips === county)).toMatchObject({ reports: 3, reporters: 3 });
      const page = await aggregates(() => pagePulse());
      expect(page.runs).toBe(0);
      expect(page.result.counties.find((row) => row.fips === county)).toMatchObject({ reports: 3, reporters: 3 });
    } finally {
      await node.close();
    }
  });
});

describe("a county's page and the viewer's blocks", () => {
  let county: string;
  let blocked: Member;
  let blocker: Member;
  let other: Member;
  let blockedPost: number;
  const kept = [] as number[];

  beforeAll(async () => {
    county = "31001"; // Adams, NE
    blocked = await member();
    blocker = await member();
    other = await member();
    kept.push(await report(await member(), county, 1));
    blockedPost = await report(blocked, county, 2);
    kept.push(await report(await member(), county, 3));
    await blockMember(blocker, blocked.username);
  });

  const apiPage = async (cookie?: string) => {
    const res = await call(countyPulseLoader, makeRequest(`/api/pulse/${county}`, { cookie }), { fips: county });
    expect(res.status).toBe(200);
    return (await res.json()) as { county: Row; posts: { id: number }[] };
  };
  const htmlPage = async (cookie?: string) =>
    (await countyPageLoader(routeArgs(makeRequest(`/pulse/${county}`, { cookie }), { fips: county }))) as {
      county: Row;
      posts: { id: number }[];
    };

  for (const [who, viewer, sees] of [
    // Newest written first.
    ["a visitor", () => undefined, () => [kept[1]!, blockedPost, kept[0]!]],
    ["a member who blocked the author", () => blocker.cookie, () => [kept[1]!, kept[0]!]],
    ["another member", () => other.cookie, () => [kept[1]!, blockedPost, kept[0]!]],
  ] as const) {
    it(`${who}: the posts as the feeds show them, the figures the county's`, async () => {
      for (const answer of [await apiPage(viewer()), await htmlPage(viewer())]) {
        expect(answer.posts.map((p) => p.id)).toEqual(sees());
        expect(answer.county).toMatchObject({ fips: county, reports: 3, reporters: 3 });
      }
    });
  }
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleDataRequest } from "~/entry.server";
import { touchSession } from "~/models/members/session.server";
import { createPost } from "~/models/posts/post.server";
import * as trendingApi from "~/routes/api.posts.trending";
import * as homePage from "~/routes/_index/route";
import { eq } from "drizzle-orm";
import { sessions } from "#db/schema";
import { UNCOUNTED_TABLES } from "~/utils/db/data-version.server";
import { databaseEngine, dataVersion, db, queryColumn, queryRow, queryRows } from "~/utils/db.server";
import { applyCacheControl, MEMBER_VALUE, VISITOR_PUBLIC_VALUE } from "~/web/cache-control.server";
import { ifNoneMatchHits, validatorConfig, validatorFor } from "~/server/conditional.server";
import { serveSite } from "../fixtures/site";
import { clearVisitorCache } from "~/server/visitor-cache.server";
import { getToast, toastCookie } from "~/web/toast.server";
import { raceProcesses } from "#tests/fixtures/processes";
import { call, createMember, makeRequest, routeArgs } from "../fixtures/members";

/**
 * Issue 13, "Conditional requests everywhere" and "Visitor pages a shared cache can hold" (CONTRACT.md
 * §6, docs/decisions/0032-validators-and-shared-caching.md): validators computed without rendering,
 * 304s from the HTTP edge, and who may keep which answer. The running server's documents, `?_data=`
 * and `/api` answers are checked end to end in tests/e2e/validators.spec.ts.
 */

type Member = Awaited<ReturnType<typeof createMember>>;
let member: Member;
let other: Member;

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
});

const post = (author: { id: number }, title = "Scrape line on the north ridge") =>
  createPost(author, { title, content: "Fresh scrapes all along the ridge this morning.", type: "article" }, { preview: async () => null });

const NOW = Date.UTC(2026, 10, 23, 4, 0, 10);
const etag = (path: string, options: { cookie?: string; headers?: Record<string, string> } = {}, now = NOW) =>
  validatorFor(makeRequest(path, options), now);

describe("If-None-Match", () => {
  it("matches a tag in a list, compared weakly, and *", () => {
    expect(ifNoneMatchHits('W/"abc"', 'W/"abc"')).toBe(true);
    expect(ifNoneMatchHits('"abc"', 'W/"abc"')).toBe(true);
    expect(ifNoneMatchHits('"x", W/"y" ,W/"abc"', 'W/"abc"')).toBe(true);
    expect(ifNoneMatchHits("*", 'W/"abc"')).toBe(true);
    expect(ifNoneMatchHits('W/"abcd"', 'W/"abc"')).toBe(false);
    expect(ifNoneMatchHits("abc", 'W/"abc"')).toBe(false);
    expect(ifNoneMatchHits("", 'W/"abc"')).toBe(false);
    expect(ifNoneMatchHits(null, 'W/"abc"')).toBe(false);
  });
});

describe("a page's validator, without rendering it", () => {
  it("stays while nothing changes, and differs by viewer, URL, Host, X-Forwarded-Proto, Save-Data and the minute", async () => {
    const visitor = await etag("/");
    expect(visitor).toMatch(/^W\/"[\w-]+"$/);
    expect(await etag("/")).toBe(visitor);
    const asMember = await etag("/", { cookie: member.cookie });
    expect(asMember).not.toBe(visitor);
    expect(await etag("/", { cookie: member.cookie })).toBe(asMember);
    expect(await etag("/", { cookie: other.cookie })).not.toBe(asMember);
    expect(await etag("/?search=buck")).not.toBe(visitor);
    expect(await etag("/?_data=routes/_index")).not.toBe(visitor);
    expect(await etag("/", { headers: { "Save-Data": "on" } })).not.toBe(visitor);
    expect(await etag("/", { headers: { Host: "pulse.example" } })).not.toBe(visitor);
    expect(await etag("/", { headers: { "X-Forwarded-Proto": "https" } })).not.toBe(visitor);
    expect(await etag("/", {}, NOW + 60_000)).not.toBe(visitor);
  });

  it("a post page's covers the Referer its back link follows; other pages' do not", async () => {
    const fromFeed = await etag("/post/1", { headers: { Referer: "http://localhost/?type=video" } });
    expect(await etag("/post/1", { headers: { Referer: "http://localhost/profile/alice" } })).not.toBe(fromFeed);
    expect(await etag("/post/1", { headers: { Referer: "http://localhost/?type=video" } })).toBe(fromFeed);
    expect(await etag("/", { headers: { Referer: "http://localhost/clubs" } })).toBe(await etag("/"));
  });

  it("a page's data request (single fetch's .data) has a validator of its own, and a post's covers the Referer as its page's does", async () => {
    expect(await etag("/post/1.data")).not.toBe(await etag("/post/1"));
    expect(await etag("/_root.data")).not.toBe(await etag("/"));
    const fromFeed = await etag("/post/1.data", { headers: { Referer: "http://localhost/?type=video" } });
    expect(await etag("/post/1.data", { headers: { Referer: "http://localhost/profile/alice" } })).not.toBe(fromFeed);
    expect(await etag("/_root.data", { headers: { Referer: "http://localhost/clubs" } })).toBe(await etag("/_root.data"));
  });

  it("changes with every write (a post, a like, a sign-in elsewhere), not with a session's sliding expiry", async () => {
    const before = await etag("/", { cookie: member.cookie });
    const version = await dataVersion();
    const written = await post(other);
    expect(await dataVersion()).toBeGreaterThan(version);
    const afterPost = await etag("/", { cookie: member.cookie });
    expect(afterPost).not.toBe(before);

    await createMember(); // a sign-in: a new session row
    const afterSignIn = await etag("/", { cookie: member.cookie });
    expect(afterSignIn).not.toBe(afterPost);

    const { id: sessionId } = (await queryRow<{ id: number }>("SELECT id FROM sessions ORDER BY id DESC LIMIT 1"))!;
    const steady = await dataVersion();
    await touchSession(sessionId, Date.now() + 3_600_000);
    expect(await dataVersion()).toBe(steady);
    expect(written.id).toBeGreaterThan(0);
  });

  it("counts every table but bookkeeping: each has its insert, update and delete triggers", async () => {
    // The one list (data-version.server.ts); the full-text index's own tables besides.
    const bookkeeping = (t: string) => UNCOUNTED_TABLES.includes(t) || t.startsWith("posts_fts");
    // Each engine's triggers: SQLite's one per table and operation; PostgreSQL's statement triggers
    // that run data_version_bump, an operation each bit of tgtype (INSERT 4, DELETE 8, UPDATE 16) names
    // (db/migrations-pg/0001: sessions' update trigger is on the columns a request does not refresh).
    const ops = { insert: 4, delete: 8, update: 16 };
    const [tables, triggers] =
      databaseEngine() === "postgres"
        ? [
            await queryColumn<string>("SELECT tablename FROM pg_tables WHERE schemaname = 'public'"),
            new Set(
              (
                await queryRows<{ table_name: string; type: number }>(
                  `SELECT c.relname AS table_name, t.tgtype AS type FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
                   WHERE NOT t.tgisinternal AND t.tgfoid = 'data_version_bump'::regproc`,
                )
              ).flatMap(({ table_name, type }) =>
                Object.entries(ops)
                  .filter(([, bit]) => (Number(type) & bit) !== 0)
                  .map(([op]) => `data_version_${table_name}_${op}`),
              ),
            ),
          ]
        : [
            await queryColumn<string>(
              "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'",
            ),
            new Set(await queryColumn<string>("SELECT name FROM sqlite_master WHERE type = 'trigger'")),
          ];
    const counted = tables.filter((t) => !bookkeeping(t));
    expect(counted).toEqual(expect.arrayContaining(["posts", "comments", "likes", "users", "sessions", "clubs"]));
    for (const table of counted) {
      for (const op of ["insert", "update", "delete"]) expect(triggers.has(`data_version_${table}_${op}`), `${table} ${op}`).toBe(true);
    }
  });

  it("none when the answer sets a cookie: a toast to show, a session cookie naming no live session", async () => {
    const toast = (await toastCookie({ title: "Post published" })).split(";")[0]!;
    expect(await etag("/", { cookie: toast })).toBeNull();
    expect(await etag("/", { cookie: `${member.cookie}; ${toast}` })).toBeNull();
    const ended = await createMember();
    await db.delete(sessions).where(eq(sessions.userId, ended.id));
    expect(await etag("/", { cookie: ended.cookie })).toBeNull();
    // A toast cookie already shown (an empty flash session) is no toast.
    const { headers } = await getToast(makeRequest("/", { cookie: toast }));
    const shown = headers!.get("Set-Cookie")!.split(";")[0]!;
    expect(await etag("/", { cookie: shown })).toMatch(/^W\//);
  });
});

describe("a write in another process changes the validator this one serves", () => {
  it("two processes on one database", async () => {
    const before = await etag("/");
    const [result] = await raceProcesses<{ postId: number }>("tests/integration/data-version.worker.ts", [[String(other.id)]]);
    expect(result!.postId).toBeGreaterThan(0);
    expect(await etag("/")).not.toBe(before);
  }, 30_000);
});

describe("who may keep which answer", () => {
  it("/api and ?_data=: a visitor's is public for a shared cache with Vary: Cookie; a member's private, no-cache", async () => {
    const visitor = await call(trendingApi.loader, makeRequest("/api/posts/trending"));
    expect(visitor.headers.get("Cache-Control")).toBe(VISITOR_PUBLIC_VALUE);
    expect(visitor.headers.get("Vary")).toContain("Cookie");
    expect(visitor.headers.has("Set-Cookie")).toBe(false);
    const asMember = await call(trendingApi.loader, makeRequest("/api/posts/trending", { cookie: member.cookie }));
    expect(asMember.headers.get("Cache-Control")).toBe(MEMBER_VALUE);

    const request = makeRequest("/?_data=routes/_index");
    const data = await handleDataRequest(await call(homePage.loader, request), routeArgs(request));
    expect(data.headers.get("Cache-Control")).toBe(VISITOR_PUBLIC_VALUE);
    expect(data.headers.get("Vary")).toContain("Cookie");
  });

  it("an answer that sets a cookie (a toast shown) or is not a 200 is never public", async () => {
    const withCookie = new Headers({ "Set-Cookie": "__toast=; Path=/" });
    await applyCacheControl(makeRequest("/"), withCookie, [], 200);
    expect(withCookie.get("Cache-Control")).toBe(MEMBER_VALUE);
    const notFound = new Headers();
    await applyCacheControl(makeRequest("/post/999999"), notFound, [], 404);
    expect(notFound.get("Cache-Control")).toBe("no-cache");
  });
});

describe("the site's server answers 304 before anything renders", () => {
  let site: Awaited<ReturnType<typeof serveSite>>;
  let base: string;
  let rendered = 0;
  /** Stands in for Remix: counts renders, sets what the app would. */
  let answer: () => Response = () => new Response(null, { status: 500 });

  beforeAll(async () => {
    site = await serveSite(async () => {
      rendered += 1;
      return answer();
    });
    base = site.base;
  });
  afterAll(() => site.close());

  const page = (headers: Record<string, string> = {}) => {
    // A new answer for the same request is a new app: what the visitor cache holds of the old one goes.
    clearVisitorCache();
    answer = () => new Response("<html>the feed</html>", { headers: { "Cache-Control": VISITOR_PUBLIC_VALUE, ...headers } });
  };

  it("a 200 carries the validator; a matching If-None-Match is a 304 with no body and no render", async () => {
    page();
    const first = await fetch(`${base}/?tab=latest`);
    const tag = first.headers.get("ETag")!;
    expect(tag).toMatch(/^W\//);
    expect(await first.text()).toBe("<html>the feed</html>");

    const renders = rendered;
    const again = await fetch(`${base}/?tab=latest`, { headers: { "If-None-Match": `"other", ${tag.replace(/^W\//, "")}` } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("ETag")).toBe(tag);
    expect(again.headers.get("Vary")).toContain("Cookie");
    expect(again.headers.get("Cache-Control")).toBe(VISITOR_PUBLIC_VALUE);
    expect(rendered).toBe(renders);

    // Another page, or the same page after a write: drawn again, with a new validator.
    expect((await fetch(`${base}/?tab=trending`, { headers: { "If-None-Match": tag } })).status).toBe(200);
    await post(member, "A change since the last visit");
    const changed = await fetch(`${base}/?tab=latest`, { headers: { "If-None-Match": tag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(tag);
  });

  it("a member's 304 is private; a member never gets a visitor's validator", async () => {
    page();
    const visitorTag = (await fetch(`${base}/clubs`)).headers.get("ETag")!;
    const asMember = await fetch(`${base}/clubs`, { headers: { Cookie: member.cookie, "If-None-Match": visitorTag } });
    expect(asMember.status).toBe(200);
    const memberTag = asMember.headers.get("ETag")!;
    const again = await fetch(`${base}/clubs`, { headers: { Cookie: member.cookie, "If-None-Match": memberTag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("Cache-Control")).toBe(MEMBER_VALUE);
  });

  it("a toast to show is never a 304; an answer that sets a cookie gets no validator and is not public", async () => {
    page();
    const tag = (await fetch(`${base}/search`)).headers.get("ETag")!;
    const toast = (await toastCookie({ title: "Post published" })).split(";")[0]!;
    const withToast = await fetch(`${base}/search`, { headers: { Cookie: toast, "If-None-Match": "*" } });
    expect(withToast.status).toBe(200);
    expect(withToast.headers.has("ETag")).toBe(false);
    expect(tag).toMatch(/^W\//);

    page({ "Set-Cookie": "__toast=; Path=/" });
    const setsCookie = await fetch(`${base}/search`);
    expect(setsCookie.headers.has("ETag")).toBe(false);
    expect(setsCookie.headers.get("Cache-Control")).toBe(MEMBER_VALUE);

    page({ "Cache-Control": "private, no-store" });
    expect((await fetch(`${base}/settings`, { headers: { Cookie: member.cookie } })).headers.has("ETag")).toBe(false);
  });

  it("the build's assets and uploads keep their own validators", async () => {
    page();
    expect((await fetch(`${base}/assets/entry.client-ABC.js`)).headers.has("ETag")).toBe(false);
    expect((await fetch(`${base}/favicon.svg`)).headers.has("ETag")).toBe(false);
  });

  it("a page's data request (`/post/1.data`, `/_root.data`) is no file: it gets a validator and its 304, with the page's Vary", async () => {
    page();
    for (const path of ["/_root.data", "/post/1.data?_routes=routes%2Fpost.%24id"]) {
      const first = await fetch(`${base}${path}`);
      const tag = first.headers.get("ETag");
      expect(tag, path).toMatch(/^W\//);
      const again = await fetch(`${base}${path}`, { headers: { "If-None-Match": tag! } });
      expect(again.status, path).toBe(304);
    }
    const post = await fetch(`${base}/post/1.data`, { headers: { "If-None-Match": "*" } });
    expect(post.status).toBe(304);
    expect(post.headers.get("Vary")).toContain("Referer");
  });
});

describe("the same validator on every node of a site (issue 25)", () => {
  it("leaves out what differs between nodes: port, host, demo seeding, database address and pool, log level, upload mount, backups, timeouts", () => {
    const site = {
      NODE_ENV: "production",
      PUBLIC_URL: "https://pulse.example.org",
      RATE_LIMITS: true,
      TRUST_PROXY: 1,
      SESSION_SECRET: "s3cret",
    };
    const one = validatorConfig({
      ...site,
      PORT: 3001,
      HOST: "127.0.0.1",
      SEED_DEMO: true,
      DATABASE_URL: "postgres://db-a/pulse",
      DATABASE_POOL_SIZE: 10,
      LOG_LEVEL: "info",
      UPLOAD_DIR: "/srv/a",
      BACKUP_KEEP: 7,
      IDLE_TIMEOUT_MS: 30_000,
    });
    const two = validatorConfig({
      ...site,
      PORT: 3002,
      HOST: "0.0.0.0",
      SEED_DEMO: false,
      DATABASE_URL: "postgres://db-b/pulse",
      DATABASE_POOL_SIZE: 20,
      LOG_LEVEL: "debug",
      UPLOAD_DIR: "/mnt/b",
      BACKUP_KEEP: 3,
      IDLE_TIMEOUT_MS: 10_000,
    });
    expect(two).toEqual(one);
    expect(Object.fromEntries(one)).toEqual({
      NODE_ENV: "production",
      PUBLIC_URL: "https://pulse.example.org",
      RATE_LIMITS: true,
      TRUST_PROXY: 1,
    });
    // What a page shows still counts.
    expect(validatorConfig({ ...site, PUBLIC_URL: "https://other.example.org" })).not.toEqual(validatorConfig(site));
  });
});

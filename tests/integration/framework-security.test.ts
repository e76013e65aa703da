import { createRequestHandler } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as root from "~/root";
import * as home from "~/routes/_index/route";
import * as notFound from "~/routes/$";
import * as signIn from "~/routes/auth/route";
import * as clubsPage from "~/routes/clubs._index/route";
import * as postPage from "~/routes/post.$id/route";
import * as profilePage from "~/routes/profile.$username/route";
import { VIEWER_HEADER, VISITOR } from "~/offline/saved-pages";
import { clearVisitorCache, visitorCacheSize } from "~/server/visitor-cache.server";
import { MEMBER_VALUE } from "~/web/cache-control.server";
import { createMember, makeRequest } from "../fixtures/members";
import { serveSite } from "../fixtures/site";
import { handMadeBuild, type BuildRoute } from "#tests/fixtures/server-build";

/**
 * Issue 40 item 5, CONTRACT.md §13: the framework's own requests under the site, through React
 * Router's real request handler with the real routes and entry.server (a hand-made build, as in
 * single-fetch.test.ts). The browser's side (crafted data answers) is tests/e2e/framework-security.spec.ts.
 */

const routes: BuildRoute[] = [
  { id: "root", path: "", module: root },
  { id: "routes/_index", parentId: "root", index: true, module: home },
  { id: "routes/auth", parentId: "root", path: "auth", module: signIn },
  { id: "routes/clubs._index", parentId: "root", path: "clubs", index: true, module: clubsPage },
  { id: "routes/post.$id", parentId: "root", path: "post/:id", module: postPage },
  { id: "routes/profile.$username", parentId: "root", path: "profile/:username", module: profilePage },
  { id: "routes/$", parentId: "root", path: "*", module: notFound },
];

const VERSION = "test";
const build = handMadeBuild(routes, VERSION);
const handle = createRequestHandler(build, "production");

type Member = Awaited<ReturnType<typeof createMember>>;
let member: Member;

beforeAll(async () => {
  member = await createMember();
});

/**
 * How much route matching `run` does: route matching decodes every segment of the path it matches
 * (React Router's and Remix's `decodePath`, one `decodeURIComponent` a segment), so this counts the
 * path segments matched, the work that grows with how many paths, and how deep, a request makes the
 * server match. A count, not a clock.
 */
async function segmentsMatched(run: () => Promise<unknown>): Promise<number> {
  const original = globalThis.decodeURIComponent;
  let count = 0;
  globalThis.decodeURIComponent = (value: string) => {
    count += 1;
    return original(value);
  };
  try {
    await run();
  } finally {
    globalThis.decodeURIComponent = original;
  }
  return count;
}

/** A request's whole answer (a document streams: its work is done when its body is read). */
async function answer(path: string, cookie?: string) {
  const response = await handle(makeRequest(path, { cookie }));
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/**
 * A path `depth` segments deep that no route but the catch-all claims: /deer/deer/…/deer. Each
 * request below gets a word of its own, so what one matched can't be kept for the next.
 */
const deepPath = (depth: number, word: string) => `/${Array.from({ length: depth }, () => word).join("/")}`;

describe("the route manifest (CVE-2026-55685: every ancestor of a path matched, per request)", () => {
  // As long as the URL the browser's router may send (URL_LIMIT, 7680 characters) allows.
  const DEPTH = 1400;

  it("answers a /__manifest request for a path 1400 segments deep (its 1400 ancestors) with no more matching than that page's data", async () => {
    const deep = deepPath(DEPTH, "deer");
    // Written as the browser's router writes it (a path's slashes need no escaping in a query).
    const manifestUrl = `/__manifest?paths=${deep}&version=${VERSION}`;
    expect(manifestUrl.length).toBeLessThan(7680);

    let manifest = { status: 0, headers: new Headers(), text: "" };
    const manifestWork = await segmentsMatched(async () => {
      manifest = await answer(manifestUrl, member.cookie);
    });
    let page = { status: 0, headers: new Headers(), text: "" };
    const pageWork = await segmentsMatched(async () => {
      page = await answer(`${deepPath(DEPTH, "buck")}.data`, member.cookie);
    });

    // The answer: the routes the path's ancestors and itself need, nothing drawn.
    expect(manifest.status).toBe(200);
    expect(Object.keys(JSON.parse(manifest.text) as object).sort()).toEqual(["root", "routes/$"]);
    expect(page.status).toBe(404);
    // The page's own data request matched its path a few times; the manifest no more than that
    // (matching each of 1400 ancestors is about 1400 / 2 times the segments of the path).
    expect(pageWork).toBeGreaterThanOrEqual(DEPTH);
    expect(manifestWork).toBeLessThanOrEqual(pageWork);
  });

  it("draws the document of a page 1400 segments deep with no more matching than its data request", async () => {
    let document = { status: 0, headers: new Headers(), text: "" };
    const documentWork = await segmentsMatched(async () => {
      document = await answer(deepPath(DEPTH, "fawn"), member.cookie);
    });
    const dataWork = await segmentsMatched(() => answer(`${deepPath(DEPTH, "doe")}.data`, member.cookie));

    expect(document.status).toBe(404);
    expect(document.text).toContain("Page Not Found");
    // Drawing the page matches its path as its data request does, plus a few times for the page's
    // parts, never once for each of its ancestors to list the routes the browser may need.
    expect(documentWork).toBeLessThanOrEqual(2 * dataWork);
  });
});

describe("single-fetch data behind the site's server (CONTRACT.md §6, §13)", () => {
  let site: Awaited<ReturnType<typeof serveSite>>;
  beforeAll(async () => {
    site = await serveSite((request) => handle(request));
  });
  afterAll(() => site.close());

  it("a member's .data answer is private and never kept by the visitor cache, nor sent to the visitor after", async () => {
    clearVisitorCache();
    const get = (path: string, cookie?: string) =>
      fetch(`${site.base}${path}`, { headers: { Host: "localhost:3000", ...(cookie ? { Cookie: cookie } : {}) }, redirect: "manual" });

    for (const path of ["/_root.data", "/clubs.data", `/profile/${member.username}.data`, "/_root.data?_routes=root"]) {
      clearVisitorCache();
      const theirs = await get(path, member.cookie);
      const text = await theirs.text();
      expect(theirs.status, `${path}: ${text.slice(0, 200)}`).toBe(200);
      // private, no-cache (MEMBER_VALUE), or private, no-store where the data holds the member's email.
      expect(theirs.headers.get("Cache-Control"), path).toMatch(/^private, no-(cache|store)$/);
      if (path !== `/profile/${member.username}.data`) expect(theirs.headers.get("Cache-Control"), path).toBe(MEMBER_VALUE);
      expect(theirs.headers.get(VIEWER_HEADER), path).not.toBe(VISITOR);
      // What only this member's answer holds: their email on their own profile, their name in the top bar.
      const theirsOnly = path.startsWith("/profile/") ? member.email : member.username;
      expect(text, path).toContain(theirsOnly);
      // Nothing kept: the visitor cache holds visitors' public answers only.
      expect(visitorCacheSize().entries, path).toBe(0);

      const visitor = await get(path);
      const visitorText = await visitor.text();
      expect(visitor.headers.get(VIEWER_HEADER), path).toBe(VISITOR);
      expect(visitorText, path).not.toContain(theirsOnly);
    }
    clearVisitorCache();
  });

  it("a member's redirect as data (a signed-in member asking for the sign-in page) is private too", async () => {
    const response = await handle(makeRequest("/auth.data?redirectTo=%2Fclubs", { cookie: member.cookie }));
    const text = await response.text();
    expect(response.status, text.slice(0, 200)).toBe(202);
    expect(text).toContain('"/clubs"');
    expect(response.headers.get("Cache-Control")).toMatch(/\b(private|no-store)\b/);
    expect(response.headers.get("Cache-Control")).not.toMatch(/\bpublic\b/);
  });
});

/** The redirect target in a single-fetch answer (its first line: a flat list whose fields name indexes). */
function dataRedirect(text: string): unknown {
  const list = JSON.parse(text.split("\n")[0]!) as unknown[];
  const name = list.indexOf("redirect");
  for (const item of list) {
    if (item && typeof item === "object" && !Array.isArray(item) && `_${name}` in item) {
      return list[(item as Record<string, number>)[`_${name}`]!];
    }
  }
  return undefined;
}

/** Where a `Location` (or a redirect as data) sends a browser on http://localhost:3000. */
const landsOn = (target: string) => new URL(target, "http://localhost:3000/auth").origin;

describe("a redirect target a client supplies never leaves the site (sign-in's redirectTo)", () => {
  const TARGETS = [
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/%5Cevil.example",
    "%2F%2Fevil.example",
    "/%2F%2Fevil.example",
    "/%5C%5Cevil.example",
    "/\t/evil.example",
    " //evil.example",
    "https://evil.example",
  ];

  it.each(TARGETS)("sign-in with redirectTo %j, without JavaScript (a 302) and with it (a redirect as data)", async (target) => {
    const form = { intent: "login", username: member.username, password: member.password, redirectTo: target };
    // Host as a browser sends it (Remix 2 refuses an action without one).
    const headers = { Host: "localhost:3000" };
    const plain = await handle(makeRequest("/auth", { form, headers }));
    expect(plain.status).toBe(302);
    const location = plain.headers.get("Location")!;
    expect(landsOn(location)).toBe("http://localhost:3000");
    expect(location).toMatch(/^\/(?![/\\])/);

    const data = await handle(makeRequest("/auth.data", { form, headers }));
    const redirect = dataRedirect(await data.text());
    expect(typeof redirect).toBe("string");
    expect(landsOn(redirect as string)).toBe("http://localhost:3000");
    expect(redirect).toMatch(/^\/(?![/\\])/);
  });

  it.each(TARGETS)("a signed-in member opening the sign-in page with redirectTo %j", async (target) => {
    const response = await handle(makeRequest(`/auth?${new URLSearchParams({ redirectTo: target })}`, { cookie: member.cookie }));
    expect(response.status).toBe(302);
    expect(landsOn(response.headers.get("Location")!)).toBe("http://localhost:3000");
  });
});

import http from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createStaff } from "#tests/fixtures/moderation";
import { handleDataRequest } from "~/entry.server";
import { addComment } from "~/models/posts/comment.server";
import { hideForReports, removeContent } from "~/models/moderation/moderation-removal.server";
import { createPost } from "~/models/posts/post.server";
import * as homePage from "~/routes/_index/route";
import * as postPage from "~/routes/post.$id/route";
import * as profilePage from "~/routes/profile.$username/route";
import { serveSite } from "../fixtures/site";
import { clearVisitorCache, visitorCacheSize } from "~/server/visitor-cache.server";
import { writeTransaction } from "~/utils/db.server";
import { call, createMember, routeArgs } from "../fixtures/members";

/**
 * Issue 27: removed or auto-hidden content is gone for everyone else, the visitor cache included
 * (app/server/visitor-cache.server.ts). A visitor's page is kept under its validator, which covers
 * the data version every committed write moves on (conditional.server.ts): a removal is such a
 * write, so the next visitor's request misses the kept copy and gets the page drawn afresh, without
 * the post. The real loaders of the home page, a `#tag` search, the post page and the author's
 * profile answer behind the site's real server (their loader data, with the app's Cache-Control and
 * viewer headers, as `?_data=` answers are sent); each page is shown to come from the cache before
 * the removal, so the test is about the cache and not only the loaders. The clock is held within
 * one minute (the validator's other moving part).
 */

type Loader = Parameters<typeof call>[0];
const ROUTES: Array<{ path: RegExp; loader: Loader; params: (m: RegExpExecArray) => Record<string, string> }> = [
  { path: /^\/$/, loader: homePage.loader as Loader, params: () => ({}) },
  { path: /^\/post\/(\d+)$/, loader: postPage.loader as Loader, params: (m) => ({ id: m[1]! }) },
  { path: /^\/profile\/([^/]+)$/, loader: profilePage.loader as Loader, params: (m) => ({ username: decodeURIComponent(m[1]!) }) },
];

let site: Awaited<ReturnType<typeof serveSite>>;
let port: number;
/** How many answers the app drew (requests that got past the edge and its cache). */
let drawn = 0;

/** The app's answer to a visitor's GET: the route's loader data, with the headers the app sets. */
async function answer(request: Request): Promise<Response> {
  drawn += 1;
  const url = new URL(request.url);
  const route = ROUTES.map((r) => ({ r, m: r.path.exec(url.pathname) })).find(({ m }) => m);
  let response: Response = new Response("Not found", { status: 404 });
  if (route) {
    response = await call(route.r.loader, request, route.r.params(route.m!));
  }
  return handleDataRequest(response, routeArgs(request));
}

type Got = { status: number; text: string; cacheControl: string | undefined };
/** A visitor's GET (no cookie, no Accept-Encoding: the body comes back as it is). */
function get(path: string): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, headers: { Host: "localhost:3000" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), cacheControl: res.headers["cache-control"] }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

/** Each page twice: the second is the cache's copy (nothing drawn), and shows the post. */
async function keptShowing(paths: string[], title: string) {
  for (const path of paths) {
    const first = await get(path);
    expect(first.status, path).toBe(200);
    expect(first.cacheControl, path).toMatch(/\bpublic\b/);
    const before = drawn;
    const again = await get(path);
    expect(drawn, `${path} was drawn again: not from the visitor cache`).toBe(before);
    expect(again.status, path).toBe(200);
    expect(again.text, path).toContain(title);
  }
  expect(visitorCacheSize().entries).toBeGreaterThanOrEqual(paths.length);
}

beforeAll(async () => {
  site = await serveSite(answer);
  port = site.port;
});
afterAll(() => site.close());
afterEach(() => {
  vi.useRealTimers();
  clearVisitorCache();
});

/** Hold the clock at the start of a minute, so the validator's minute does not turn mid-test. */
function holdClock() {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(now - (now % 60_000) + 1_000);
}

describe("the visitor cache after a removal (issue 27)", () => {
  it("a post a moderator removes is no longer served from it: home, #tag search and profile drop it, its page is 404", async () => {
    holdClock();
    const author = await createMember();
    const moderator = await createStaff("moderator");
    const tag = `Ridge${Math.random().toString(36).slice(2, 8)}`;
    const title = `Tags for sale ${tag}`;
    const post = await createPost(
      author,
      { title, content: `Selling two doe tags, message me. #${tag}`, type: "article" },
      { preview: async () => null },
    );
    const lists = ["/", `/?search=${encodeURIComponent(`#${tag}`)}`, `/profile/${author.username}`];
    const postPath = `/post/${post.id}`;
    await keptShowing([...lists, postPath], title);

    await removeContent(moderator, { type: "post", id: post.id }, "Selling tags is not allowed here");

    for (const path of lists) {
      const after = await get(path);
      expect(after.status, path).toBe(200);
      expect(after.text, `${path} still shows the removed post`).not.toContain(title);
    }
    const page = await get(postPath);
    expect(page.status).toBe(404);
    expect(page.text).not.toContain(title);
    // Nor on the next request (nothing stored the old page again).
    expect((await get(postPath)).status).toBe(404);
  });

  it("a post hidden after reports is no longer served from it either", async () => {
    holdClock();
    const author = await createMember();
    const title = `Reported ${Math.random().toString(36).slice(2, 8)}`;
    const post = await createPost(
      author,
      { title, content: "A post enough members report.", type: "article" },
      { preview: async () => null },
    );
    const postPath = `/post/${post.id}`;
    await keptShowing(["/", postPath], title);

    await writeTransaction((tx) => hideForReports(tx, { type: "post", id: post.id }));

    expect((await get("/")).text).not.toContain(title);
    expect((await get(postPath)).status).toBe(404);
  });

  it("a removed comment leaves the post page it was kept on", async () => {
    holdClock();
    const author = await createMember();
    const commenter = await createMember();
    const moderator = await createStaff("moderator");
    const post = await createPost(
      author,
      { title: "Acorns on the flat", content: "White oaks dropping early.", type: "article" },
      { preview: async () => null },
    );
    const words = `Abusive words ${Math.random().toString(36).slice(2, 8)}`;
    const comment = await addComment(commenter, post.id, { content: words });
    const postPath = `/post/${post.id}`;
    await keptShowing([postPath], words);

    await removeContent(moderator, { type: "comment", id: comment.id }, "Harassment");

    const after = await get(postPath);
    expect(after.status).toBe(200);
    expect(after.text).toContain("Acorns on the flat");
    expect(after.text).not.toContain(words);
  });
});

import { createRequestHandler } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import * as root from "~/root";
import * as home from "~/routes/_index/route";
import * as clubPage from "~/routes/clubs.$id/route";
import * as clubInvitesTab from "~/routes/clubs.$id/tabs/invites";
import * as joinPage from "~/routes/join.$code/route";
import * as profilePage from "~/routes/profile.$username/route";
import * as followersPage from "~/routes/profile.$username_.followers";
import * as resetPage from "~/routes/reset-password.$token/route";
import * as settingsPage from "~/routes/settings/route";
import * as unsubscribePage from "~/routes/unsubscribe.$token/route";
import { unsubscribeToken } from "~/models/notifications/notification-mail.server";
import { VIEWER_HEADER, VISITOR } from "~/offline/saved-pages";
import { MEMBER_VALUE, NO_STORE_VALUE, VISITOR_PUBLIC_VALUE } from "~/web/cache-control.server";
import { reloadDocumentAnswer, routesOfData } from "~/sw/single-fetch";
import { captureLog } from "../fixtures/log";
import { createMember, makeRequest } from "../fixtures/members";
import { makeClub } from "../fixtures/posts";
import { handMadeBuild, type BuildRoute } from "#tests/fixtures/server-build";

/**
 * Single fetch (issue 40 step 2, docs/decisions/0079-single-fetch.md): with JavaScript, a page's
 * loader data is one `.data` answer of Remix's request handler for every route of the page, and its
 * headers are what the routes' `headers` exports return, never a loader's own. Here the real handler
 * runs the real routes and entry.server: who may keep each answer (CONTRACT.md §6, §13).
 */

const routes: BuildRoute[] = [
  { id: "root", path: "", module: root },
  { id: "routes/_index", parentId: "root", index: true, module: home },
  { id: "routes/settings", parentId: "root", path: "settings", module: settingsPage },
  { id: "routes/clubs.$id", parentId: "root", path: "clubs/:id", module: clubPage },
  { id: "routes/clubs.$id.invites", parentId: "routes/clubs.$id", path: "invites", module: clubInvitesTab },
  { id: "routes/join.$code", parentId: "root", path: "join/:code", module: joinPage },
  { id: "routes/profile.$username", parentId: "root", path: "profile/:username", module: profilePage },
  { id: "routes/profile.$username_.followers", parentId: "root", path: "profile/:username/followers", module: followersPage },
  { id: "routes/reset-password.$token", parentId: "root", path: "reset-password/:token", module: resetPage },
  { id: "routes/unsubscribe.$token", parentId: "root", path: "unsubscribe/:token", module: unsubscribePage },
];

const build = handMadeBuild(routes);
const handle = createRequestHandler(build, "production");

type Member = Awaited<ReturnType<typeof createMember>>;
let owner: Member;
let other: Member;
let clubId: number;

beforeAll(async () => {
  owner = await createMember();
  other = await createMember();
  clubId = await makeClub(owner.id, { isPrivate: true, name: "Cedar Swamp Camp" });
});

async function data(path: string, cookie?: string) {
  const response = await handle(makeRequest(path, { cookie }));
  await response.body?.cancel();
  return { status: response.status, cacheControl: response.headers.get("Cache-Control"), viewer: response.headers.get(VIEWER_HEADER) };
}

describe("a page's .data answer", () => {
  it("is private, no-store wherever its loader answers NO_STORE (an email, an invite code), as its document is", async () => {
    expect(await data("/settings.data", owner.cookie)).toMatchObject({ status: 200, cacheControl: NO_STORE_VALUE });
    expect(await data(`/clubs/${clubId}/invites.data`, owner.cookie)).toMatchObject({ status: 200, cacheControl: NO_STORE_VALUE });
    expect((await data("/join/not-a-real-code.data")).cacheControl).toBe(NO_STORE_VALUE);
    expect((await data("/reset-password/not-a-real-token.data")).cacheControl).toBe(NO_STORE_VALUE);
    expect(await data(`/unsubscribe/${unsubscribeToken(owner.id)}.data`)).toMatchObject({ status: 200, cacheControl: NO_STORE_VALUE });
    expect(await data(`/profile/${owner.username}.data`, owner.cookie)).toMatchObject({ status: 200, cacheControl: NO_STORE_VALUE });
    expect((await data(`/profile/${owner.username}/followers.data`, owner.cookie)).cacheControl).toBe(NO_STORE_VALUE);
  });

  it("is private, no-cache for a member otherwise, and public for a shared cache for a visitor, naming its viewer", async () => {
    expect(await data(`/profile/${owner.username}.data`, other.cookie)).toMatchObject({ status: 200, cacheControl: MEMBER_VALUE });
    expect(await data(`/clubs/${clubId}.data`, owner.cookie)).toMatchObject({ status: 200, cacheControl: MEMBER_VALUE });
    const member = await data("/_root.data", owner.cookie);
    expect(member).toMatchObject({ status: 200, cacheControl: MEMBER_VALUE });
    expect(member.viewer).not.toBe(VISITOR);
    expect(await data("/_root.data")).toMatchObject({ status: 200, cacheControl: VISITOR_PUBLIC_VALUE, viewer: VISITOR });
    // Only the root's data asked for: no email in it.
    expect((await data("/settings.data?_routes=root", owner.cookie)).cacheControl).toBe(MEMBER_VALUE);
  });
});

describe("a ?_data= request (a page of a build before single fetch)", () => {
  it("is answered as the page's document, for a member as a member's, and is no server error", async () => {
    const log = captureLog();
    try {
      const response = await handle(makeRequest("/?_data=root", { cookie: owner.cookie }));
      expect(response.status).toBe(200);
      expect(response.headers.get("Cache-Control")).toBe(MEMBER_VALUE);
      expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
      await response.body?.cancel();
    } finally {
      log.restore();
    }
    expect(log.lines.filter((line) => Number(line.level) >= 40)).toEqual([]);
  });
});

describe("what the service worker reads and writes of these answers (app/sw/single-fetch.ts)", () => {
  it("names the routes whose data a .data answer holds, for opening a page from it offline", async () => {
    const text = async (path: string, cookie?: string) => (await handle(makeRequest(path, { cookie }))).text();
    expect(routesOfData(await text(`/clubs/${clubId}/invites.data`, owner.cookie))).toEqual([
      "root",
      "routes/clubs.$id",
      "routes/clubs.$id.invites",
    ]);
    expect(routesOfData(await text("/_root.data"))).toEqual(["root", "routes/_index"]);
    expect(routesOfData(await text("/settings.data?_routes=routes%2Fsettings", owner.cookie))).toEqual(["routes/settings"]);
  });

  it("writes the redirect that reloads a page as a document as the server writes a redirect", async () => {
    // A club's old ?tab= address is sent to its tab's own: Remix's redirect, as data.
    const server = await handle(makeRequest(`/clubs/${clubId}.data?tab=members`, { cookie: owner.cookie }));
    expect(server.status).toBe(202);
    const worker = reloadDocumentAnswer("/settings");
    expect(worker.status).toBe(server.status);
    expect(worker.headers.get("Content-Type")).toBe(server.headers.get("Content-Type"));
    /** The first line's redirect, its fields by name (a list's items refer to each other by index). */
    const redirect = async (answer: Response) => {
      const list = JSON.parse((await answer.text()).split("\n")[0]!) as unknown[];
      expect(list[0]).toEqual(["SingleFetchRedirect", 1]);
      const fields = list[1] as Record<string, number>;
      return Object.fromEntries(Object.entries(fields).map(([name, value]) => [list[Number(name.slice(1))], list[value]]));
    };
    const [theirs, ours] = [await redirect(server), await redirect(worker)];
    expect(Object.keys(ours)).toEqual(Object.keys(theirs));
    expect(theirs).toMatchObject({ redirect: `/clubs/${clubId}/members`, reload: false });
    expect(ours).toEqual({ redirect: "/settings", status: 302, revalidate: false, reload: true, replace: false });
  });
});

describe("a document (its loaders' data streamed into it for the browser)", () => {
  it("is drawn whole, its data written in as inline scripts, for a member's page that runs scripts", async () => {
    const response = await handle(makeRequest(`/clubs/${clubId}`, { cookie: owner.cookie }));
    const html = await response.text();
    expect(response.status, html.slice(0, 300)).toBe(200);
    expect(html).toContain("Cedar Swamp Camp");
    expect(html).toMatch(/window\.__reactRouterContext\.streamController\.enqueue\(.*Cedar Swamp Camp.*\);/);
    expect(html).toContain("window.__reactRouterContext.streamController.close();");
    expect(response.headers.get("Cache-Control")).toBe(MEMBER_VALUE);
  });
});

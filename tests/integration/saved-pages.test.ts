import { describe, expect, it } from "vitest";
import { handleDataRequest } from "~/entry.server";
import { action as loginApi } from "~/routes/api.auth.login";
import { action as logoutApi } from "~/routes/api.auth.logout";
import { action as logoutPage } from "~/routes/logout/route";
import { VIEWER_HEADER, VISITOR } from "~/offline/saved-pages";
import { viewerTag } from "~/web/session.server";
import { call, cookiesFrom, createMember, makeRequest, routeArgs } from "../fixtures/members";

/**
 * Issue 12, "Reading offline": what the server tells the service worker and the browser so a
 * member's saved pages are only ever served to that member (docs/decisions/0033). The worker's own
 * behaviour is covered end to end in tests/e2e/saved-pages.spec.ts.
 */
describe("whose page an answer is (X-Pulse-Viewer)", () => {
  it("is `visitor` without a live session, one opaque tag per member across their sessions, another for another member", async () => {
    const member = await createMember();
    const other = await createMember();
    const tag = await viewerTag(makeRequest("/", { cookie: member.cookie }));
    expect(await viewerTag(makeRequest("/"))).toBe(VISITOR);
    expect(tag).not.toBe(VISITOR);
    expect(tag).not.toContain(String(member.id));
    expect(await viewerTag(makeRequest("/", { cookie: other.cookie }))).not.toBe(tag);

    const again = await call(loginApi, makeRequest("/api/auth/login", { json: { username: member.username, password: member.password } }));
    expect(await viewerTag(makeRequest("/", { cookie: cookiesFrom(again) }))).toBe(tag);

    // A session that has ended (signed out elsewhere) is a visitor's.
    await call(logoutApi, makeRequest("/api/auth/logout", { method: "POST", cookie: member.cookie }));
    expect(await viewerTag(makeRequest("/", { cookie: member.cookie }))).toBe(VISITOR);
  });

  it("is on loader data answers", async () => {
    const member = await createMember();
    const request = makeRequest("/?index&_data=routes%2F_index", { cookie: member.cookie });
    const response = await handleDataRequest(new Response("{}"), routeArgs(request));
    expect(response.headers.get(VIEWER_HEADER)).toBe(await viewerTag(request));
  });
});

describe("signing out clears the browser's cache of the site", () => {
  it('answers the logout page and POST /api/auth/logout with Clear-Site-Data: "cache"', async () => {
    const member = await createMember();
    const page = await call(logoutPage, makeRequest("/logout", { method: "POST", cookie: member.cookie }));
    expect(page.status).toBe(302);
    expect(page.headers.get("Clear-Site-Data")).toBe('"cache"');
    const api = await call(logoutApi, makeRequest("/api/auth/logout", { method: "POST", cookie: (await createMember()).cookie }));
    expect(api.status).toBe(204);
    expect(api.headers.get("Clear-Site-Data")).toBe('"cache"');
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { handleDataRequest } from "~/entry.server";
import { storeUpload } from "~/models/media/media.server";
import { createPost, deletePost } from "~/models/posts/post.server";
import * as apiUser from "~/routes/api.auth.user";
import * as clubApi from "~/routes/api.clubs.$id";
import * as clubInvitesApi from "~/routes/api.clubs.$id.invites";
import * as trendingApi from "~/routes/api.posts.trending";
import * as apiUsers from "~/routes/api.users.$username";
import * as clubPage from "~/routes/clubs.$id/route";
import * as clubInvitesTab from "~/routes/clubs.$id/tabs/invites";
import * as clubMembersTab from "~/routes/clubs.$id/tabs/members";
import * as joinPage from "~/routes/join.$code/route";
import { loader as mediaLoader } from "~/routes/media.$";
import * as profilePage from "~/routes/profile.$username/route";
import * as settingsPage from "~/routes/settings/route";
import { cacheControlFor, declaredCacheControl, VISITOR_PUBLIC_VALUE } from "~/web/cache-control.server";
import { png } from "../fixtures/media";
import { call, createMember, makeRequest, routeArgs } from "../fixtures/members";
import { addMember, count, makeClub } from "../fixtures/posts";

/**
 * Issue 11, "Private data stays private" (security review L6 caching, L11): Cache-Control of member
 * pages and JSON, a member's postsCount as a viewer may see it, and how a private club's media are
 * cached (docs/decisions/0022-what-a-private-club-shows-visitors.md). The real document headers of
 * the running server are checked in tests/e2e/private-caching.spec.ts.
 */

type Member = Awaited<ReturnType<typeof createMember>>;
let owner: Member;
let member: Member;
let stranger: Member;
let clubId: number;

beforeAll(async () => {
  owner = await createMember();
  member = await createMember();
  stranger = await createMember();
  clubId = await makeClub(owner.id, { isPrivate: true, name: "Cedar Swamp Camp" });
  await addMember(clubId, member.id);
});

const cc = (res: Response) => res.headers.get("Cache-Control");

/** What the document of these loaders' answers carries (entry.server.tsx's rule). */
async function documentCacheControl(request: Request, ...responses: Response[]) {
  const loaderHeaders = Object.fromEntries(responses.map((res, i) => [String(i), res.headers]));
  const signedIn = request.headers.get("Cookie") !== null;
  return cacheControlFor(signedIn, declaredCacheControl({ loaderHeaders }));
}

describe("Cache-Control of JSON answers", () => {
  it("/api GETs: private, no-cache for a member, public for a shared cache for a visitor (issue 13)", async () => {
    expect(cc(await call(trendingApi.loader, makeRequest("/api/posts/trending", { cookie: member.cookie })))).toBe("private, no-cache");
    expect(cc(await call(trendingApi.loader, makeRequest("/api/posts/trending")))).toBe(VISITOR_PUBLIC_VALUE);
    const club = (cookie?: string) => call(clubApi.loader, makeRequest(`/api/clubs/${clubId}`, { cookie }), { id: String(clubId) });
    expect(cc(await club(member.cookie))).toBe("private, no-cache");
    expect(cc(await club())).toBe(VISITOR_PUBLIC_VALUE);
  });

  it("/api answers with an email or invite codes are private, no-store", async () => {
    expect(cc(await call(apiUser.loader, makeRequest("/api/auth/user", { cookie: member.cookie })))).toBe("private, no-store");
    const profile = (username: string, cookie?: string) =>
      call(apiUsers.loader, makeRequest(`/api/users/${username}`, { cookie }), { username });
    expect(cc(await profile(member.username, member.cookie))).toBe("private, no-store"); // their own: email
    expect(cc(await profile(member.username, stranger.cookie))).toBe("private, no-cache");
    const invites = await call(clubInvitesApi.loader, makeRequest(`/api/clubs/${clubId}/invites`, { cookie: member.cookie }), {
      id: String(clubId),
    });
    expect(invites.status).toBe(200);
    expect(cc(invites)).toBe("private, no-store");
  });

  it("?_data= loader JSON follows the same rule (entry.server handleDataRequest)", async () => {
    const data = async (request: Request, response: Response) => cc(await handleDataRequest(response, routeArgs(request)));
    const clubAs = (cookie?: string) => makeRequest(`/clubs/${clubId}?_data=routes/clubs.$id`, { cookie });
    expect(await data(clubAs(member.cookie), await call(clubPage.loader, clubAs(member.cookie), { id: String(clubId) }))).toBe(
      "private, no-cache",
    );
    expect(await data(clubAs(), await call(clubPage.loader, clubAs(), { id: String(clubId) }))).toBe(VISITOR_PUBLIC_VALUE);
    const settings = makeRequest("/settings?_data=routes/settings", { cookie: member.cookie });
    expect(await data(settings, await call(settingsPage.loader, settings))).toBe("private, no-store");
  });
});

describe("Cache-Control of documents", () => {
  it("a member's club page is private, no-cache; a visitor's public for a shared cache (issue 13)", async () => {
    const page = (cookie?: string) => makeRequest(`/clubs/${clubId}/members`, { cookie });
    const as = async (cookie?: string) =>
      documentCacheControl(
        page(cookie),
        await call(clubPage.loader, page(cookie), { id: String(clubId) }),
        await call(clubMembersTab.loader, page(cookie), { id: String(clubId) }),
      );
    expect(await as(member.cookie)).toBe("private, no-cache");
    expect(await as()).toBe(VISITOR_PUBLIC_VALUE);
  });

  it("settings, the invites tab, /join/{code} and a member's own profile are private, no-store", async () => {
    const settings = makeRequest("/settings", { cookie: member.cookie });
    expect(await documentCacheControl(settings, await call(settingsPage.loader, settings))).toBe("private, no-store");
    const invites = makeRequest(`/clubs/${clubId}/invites`, { cookie: member.cookie });
    expect(
      await documentCacheControl(
        invites,
        await call(clubPage.loader, invites, { id: String(clubId) }),
        await call(clubInvitesTab.loader, invites, { id: String(clubId) }),
      ),
    ).toBe("private, no-store");
    const join = makeRequest("/join/not-a-real-code");
    expect(await documentCacheControl(join, await call(joinPage.loader, join, { code: "not-a-real-code" }))).toBe("private, no-store");
    const own = makeRequest(`/profile/${member.username}`, { cookie: member.cookie });
    expect(await documentCacheControl(own, await call(profilePage.loader, own, { username: member.username }))).toBe("private, no-store");
    const other = makeRequest(`/profile/${member.username}`, { cookie: stranger.cookie });
    expect(await documentCacheControl(other, await call(profilePage.loader, other, { username: member.username }))).toBe(
      "private, no-cache",
    );
  });
});

describe("a member's postsCount as the viewer may see it (L11)", () => {
  const content = { content: "Tracks along the cedar swamp edge this morning.", type: "article" as const };

  it("counts private-club posts only for viewers who may read them, on the API and the page, and after a delete", async () => {
    const author = await createMember();
    await addMember(clubId, author.id);
    await createPost(author, { ...content, title: "Public one" });
    await createPost(author, { ...content, title: "Public two" });
    const inClub = [];
    for (let i = 0; i < 4; i++) inClub.push(await createPost(author, { ...content, title: `Camp ${i}`, clubId }));

    const viaApi = async (cookie?: string) =>
      (await (await call(apiUsers.loader, makeRequest(`/api/users/${author.username}`, { cookie }), { username: author.username })).json())
        .postsCount;
    const viaPage = async (cookie?: string) =>
      (await (await call(profilePage.loader, makeRequest(`/profile/${author.username}`, { cookie }), { username: author.username })).json())
        .profile.postsCount;

    for (const fetch of [viaApi, viaPage]) {
      expect(await fetch()).toBe(2);
      expect(await fetch(stranger.cookie)).toBe(2);
      expect(await fetch(member.cookie)).toBe(6);
      expect(await fetch(author.cookie)).toBe(6);
    }
    await deletePost(author, inClub[0]!.id);
    expect(await viaApi()).toBe(2);
    expect(await viaApi(member.cookie)).toBe(5);
    expect(await count(`SELECT posts_count AS n FROM users WHERE id = ?`, author.id)).toBe(5); // the stored total stays right
  });
});

describe("media of a private club's posts (ADR 0022)", () => {
  async function uploadImage(who: Member) {
    const data = await png(640, 480);
    return storeUpload(who, {
      filename: "camp.png",
      data: (async function* () {
        yield new Uint8Array(data);
      })(),
    });
  }
  const served = (url: string) => call(mediaLoader, new Request(`http://localhost:3000${url}`), { "*": url.replace(/^\/media\//, "") });

  it("are served private (no shared cache keeps them); a public post's stay public, immutable", async () => {
    const secret = await uploadImage(member);
    await createPost(member, { title: "Camp photo", content: "The new stand.", type: "article", clubId, uploadedFiles: [secret.url] });
    const open = await uploadImage(member);
    await createPost(member, { title: "Open photo", content: "A public one.", type: "article", uploadedFiles: [open.url] });

    for (const url of [secret.url, ...(secret.variants ?? []).map((v) => v.url)]) {
      const res = await served(url);
      expect(res.status, url).toBe(200);
      expect(cc(res), url).toBe("private, max-age=31536000, immutable");
    }
    expect(secret.variants?.length).toBeGreaterThan(0);
    expect(cc(await served(open.url))).toBe("public, max-age=31536000, immutable");
  });
});

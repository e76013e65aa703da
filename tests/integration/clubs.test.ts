import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { users } from "#db/schema";
import * as registerWithInvite from "~/routes/api.auth.register-with-invite";
import * as clubsApi from "~/routes/api.clubs";
import * as clubApi from "~/routes/api.clubs.$id";
import * as invitesApi from "~/routes/api.clubs.$id.invites";
import * as inviteApi from "~/routes/api.clubs.$id.invites.$inviteId";
import * as joinApi from "~/routes/api.clubs.$id.join";
import * as leaveApi from "~/routes/api.clubs.$id.leave";
import * as membersApi from "~/routes/api.clubs.$id.members";
import * as postsApi from "~/routes/api.clubs.$id.posts";
import * as requestsApi from "~/routes/api.clubs.$id.requests";
import * as decideApi from "~/routes/api.clubs.$id.requests.$requestId";
import * as getInviteApi from "~/routes/api.invites.$code";
import * as apiUser from "~/routes/api.auth.user";
import { db, first } from "~/utils/db.server";
import { clubCast, type Member } from "../fixtures/clubs";
import { call, cookiesFrom, createMember, makeRequest } from "../fixtures/members";

type Cookie = string | null;

const api = {
  create: (cookie: Cookie, json: unknown) => call(clubsApi.action, makeRequest("/api/clubs", { json, cookie })),
  list: (cookie: Cookie, query = "") => call(clubsApi.loader, makeRequest(`/api/clubs${query}`, { cookie })),
  get: (cookie: Cookie, id: number | string) => call(clubApi.loader, makeRequest(`/api/clubs/${id}`, { cookie }), { id: String(id) }),
  update: (cookie: Cookie, id: number, json: unknown) =>
    call(clubApi.action, makeRequest(`/api/clubs/${id}`, { method: "PUT", json, cookie }), { id: String(id) }),
  remove: (cookie: Cookie, id: number) =>
    call(clubApi.action, makeRequest(`/api/clubs/${id}`, { method: "DELETE", cookie }), { id: String(id) }),
  join: (cookie: Cookie, id: number, json: unknown = {}) =>
    call(joinApi.action, makeRequest(`/api/clubs/${id}/join`, { json, cookie }), { id: String(id) }),
  leave: (cookie: Cookie, id: number) =>
    call(leaveApi.action, makeRequest(`/api/clubs/${id}/leave`, { method: "POST", cookie }), { id: String(id) }),
  members: (cookie: Cookie, id: number) => call(membersApi.loader, makeRequest(`/api/clubs/${id}/members`, { cookie }), { id: String(id) }),
  posts: (cookie: Cookie, id: number) => call(postsApi.loader, makeRequest(`/api/clubs/${id}/posts`, { cookie }), { id: String(id) }),
  requests: (cookie: Cookie, id: number) =>
    call(requestsApi.loader, makeRequest(`/api/clubs/${id}/requests`, { cookie }), { id: String(id) }),
  decide: (cookie: Cookie, id: number, requestId: number, action: string) =>
    call(decideApi.action, makeRequest(`/api/clubs/${id}/requests/${requestId}`, { json: { action }, cookie }), {
      id: String(id),
      requestId: String(requestId),
    }),
  invite: (cookie: Cookie, id: number, json: unknown = {}) =>
    call(invitesApi.action, makeRequest(`/api/clubs/${id}/invites`, { json, cookie }), { id: String(id) }),
  invites: (cookie: Cookie, id: number) => call(invitesApi.loader, makeRequest(`/api/clubs/${id}/invites`, { cookie }), { id: String(id) }),
  revoke: (cookie: Cookie, id: number, inviteId: number) =>
    call(inviteApi.action, makeRequest(`/api/clubs/${id}/invites/${inviteId}`, { method: "DELETE", cookie }), {
      id: String(id),
      inviteId: String(inviteId),
    }),
  getInvite: (code: string) => call(getInviteApi.loader, makeRequest(`/api/invites/${encodeURIComponent(code)}`), { code }),
};

let owner: Member;
let alice: Member;
let bob: Member;

beforeAll(async () => {
  ({ owner, alice, bob } = await clubCast());
});

async function makeClub(json: Record<string, unknown> = {}) {
  const res = await api.create(owner.cookie, { name: "Creek Bottom Lease", description: "Pike County bowhunters", ...json });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number };
}

describe("POST /api/clubs", () => {
  it("401 for visitors, 400 with SPEC messages, 201 the club with its owner", async () => {
    expect((await api.create(null, { name: "Anything" })).status).toBe(401);

    const bad = await api.create(owner.cookie, { name: "ab", imageUrl: "not a url", memberLimit: 1 });
    expect(bad.status).toBe(400);
    const err = await bad.json();
    expect(err.fieldErrors.name).toContain("Club name must be at least 3 characters");
    expect(err.fieldErrors.imageUrl).toContain("Must be a valid URL");
    expect(err.fieldErrors.memberLimit).toBeDefined();
    expect((await api.create(owner.cookie, { name: "Big Club", memberLimit: 1001 })).status).toBe(400);
    expect((await api.create(owner.cookie, { name: "Script", imageUrl: "javascript:alert(1)" })).status).toBe(400);

    const res = await api.create(owner.cookie, {
      name: "  Ridge Runners  ",
      description: "Public land crew",
      imageUrl: "",
      memberLimit: null,
      tags: [" rut ", "rut", "", "Public Land"],
    });
    expect(res.status).toBe(201);
    const club = await res.json();
    expect(club).toMatchObject({
      name: "Ridge Runners",
      imageUrl: null,
      isPrivate: true,
      memberLimit: null,
      memberCount: 1,
      tags: ["rut", "public land"], // lower-cased like post tags (issue 14 #31)
      isMember: true,
      userRole: "owner",
      requestStatus: "none",
      creator: { displayName: owner.displayName },
    });
    expect(JSON.stringify(club)).not.toContain("@example.com");
  });

  it("refuses a cross-site post", async () => {
    const res = await call(
      clubsApi.action,
      makeRequest("/api/clubs", { json: { name: "Evil Club" }, cookie: owner.cookie, headers: { Origin: "https://evil.example" } }),
    );
    expect(res.status).toBe(403);
  });
});

describe("GET /api/clubs", () => {
  it("lists clubs with the caller's state, filters public and mine, and pages with a Link header", async () => {
    const priv = await makeClub({ name: "Hidden Hollow" });
    const pub = await makeClub({ name: "Open Field Club", isPrivate: false });
    await api.join(alice.cookie, priv.id, { message: "hi" });

    const all = (await (await api.list(alice.cookie)).json()) as Array<{ id: number; requestStatus: string; isMember: boolean }>;
    expect(all.find((c) => c.id === priv.id)).toMatchObject({ requestStatus: "pending", isMember: false });
    expect(all.find((c) => c.id === pub.id)).toMatchObject({ requestStatus: "none", isMember: false });

    const publicOnly = (await (await api.list(null, "?onlyPublic=true")).json()) as Array<{ id: number; isPrivate: boolean }>;
    expect(publicOnly.every((c) => !c.isPrivate)).toBe(true);
    expect(publicOnly.map((c) => c.id)).toContain(pub.id);

    expect((await api.list(null, "?onlyMine=true")).status).toBe(401);
    const mine = (await (await api.list(owner.cookie, "?onlyMine=true")).json()) as Array<{ id: number; userRole: string }>;
    expect(mine.map((c) => c.id)).toEqual(expect.arrayContaining([priv.id, pub.id]));
    expect(mine.every((c) => c.userRole === "owner")).toBe(true);

    const found = (await (await api.list(null, "?search=hollow")).json()) as Array<{ id: number }>;
    expect(found.map((c) => c.id)).toEqual([priv.id]);

    const first = await api.list(null, "?limit=1");
    const link = first.headers.get("Link");
    expect(link).toMatch(/rel="next"/);
    const nextUrl = /<([^>]+)>/.exec(link!)![1];
    const second = await call(clubsApi.loader, makeRequest(new URL(nextUrl).pathname + new URL(nextUrl).search));
    const [a] = await first.json();
    const [b] = await second.json();
    expect(a.id).not.toBe(b.id);

    // Junk in the query string falls back to defaults.
    expect((await api.list(null, "?limit=abc&cursor=%%%&onlyPublic=maybe")).status).toBe(200);
  });
});

describe("GET / PUT / DELETE /api/clubs/{id}", () => {
  it("GET: 200 for anyone, 404 'Club Not Found' for missing or junk ids", async () => {
    const club = await makeClub();
    expect((await api.get(null, club.id)).status).toBe(200);
    const missing = await api.get(null, 999_999);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "Club Not Found" });
    expect((await api.get(null, "abc")).status).toBe(404);
  });

  it("PUT: 401 / 403 (non-member, member) / 400 with SPEC messages / 200 for the owner", async () => {
    const club = await makeClub({ isPrivate: false });
    await api.join(alice.cookie, club.id);
    const good = {
      name: "New Name",
      description: "A description long enough",
      maxMembers: 40,
      isPrivate: true,
      tags: ["a", "b"],
      rules: "Safety first",
    };
    expect((await api.update(null, club.id, good)).status).toBe(401);
    expect((await api.update(bob.cookie, club.id, good)).status).toBe(403);
    expect((await api.update(alice.cookie, club.id, good)).status).toBe(403);
    expect((await api.update(owner.cookie, 999_999, good)).status).toBe(404);

    const bad = await api.update(owner.cookie, club.id, { name: "ab", description: "short", maxMembers: 101 });
    expect(bad.status).toBe(400);
    const err = await bad.json();
    expect(err.fieldErrors.name).toContain("Name must be at least 3 characters");
    expect(err.fieldErrors.description).toContain("Description must be at least 10 characters");
    expect(err.fieldErrors.maxMembers).toBeDefined();

    const res = await api.update(owner.cookie, club.id, good);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: "New Name", memberLimit: 40, isPrivate: true, tags: ["a", "b"], rules: "Safety first" });
    const cleared = await (
      await api.update(owner.cookie, club.id, { name: "New Name", description: "A description long enough", tags: null, maxMembers: null })
    ).json();
    expect(cleared).toMatchObject({ tags: [], memberLimit: null, rules: "Safety first" });
  });

  it("PUT keeps a limit above 100 set at creation when it comes back unchanged (issue 14), and only that", async () => {
    const base = { name: "Big Lease", description: "A description long enough" };
    const big = await makeClub({ memberLimit: 500 });
    // Before issue 14 the edit form could not be saved at all: "Max members cannot be more than 100".
    const kept = await api.update(owner.cookie, big.id, { ...base, maxMembers: 500, keptMaxMembers: 500 });
    expect(kept.status).toBe(200);
    expect(await kept.json()).toMatchObject({ name: "Big Lease", memberLimit: 500 });
    const raised = await api.update(owner.cookie, big.id, { ...base, maxMembers: 400, keptMaxMembers: 500 });
    expect(raised.status).toBe(400);
    expect((await raised.json()).fieldErrors.maxMembers).toEqual(["Max members cannot be more than 100"]);
    expect(await (await api.update(owner.cookie, big.id, { ...base, maxMembers: 80, keptMaxMembers: 500 })).json()).toMatchObject({
      memberLimit: 80,
    });
    // Claiming a kept limit the club does not have changes nothing.
    const small = await makeClub({ memberLimit: 50 });
    const sneaky = await api.update(owner.cookie, small.id, { ...base, maxMembers: 900, keptMaxMembers: 900 });
    expect(await sneaky.json()).toMatchObject({ memberLimit: 50 });
  });

  it("DELETE: 401 / 403 / 204, then the club, its members and its posts are gone", async () => {
    const club = await makeClub({ isPrivate: false });
    await api.join(alice.cookie, club.id);
    expect((await api.remove(null, club.id)).status).toBe(401);
    expect((await api.remove(alice.cookie, club.id)).status).toBe(403);
    expect((await api.remove(bob.cookie, club.id)).status).toBe(403);
    expect((await api.remove(owner.cookie, club.id)).status).toBe(204);
    expect((await api.get(null, club.id)).status).toBe(404);
    expect((await api.members(null, club.id)).status).toBe(404);
    expect((await api.remove(owner.cookie, club.id)).status).toBe(404);
  });
});

describe("POST /api/clubs/{id}/join (CONTRACT.md §2)", () => {
  it("public: 200 joined; again: 409 'Already a member of this club'", async () => {
    const club = await makeClub({ isPrivate: false });
    expect((await api.join(null, club.id)).status).toBe(401);
    const res = await api.join(alice.cookie, club.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "joined" });
    const again = await api.join(alice.cookie, club.id);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: "Already a member of this club" });
    expect((await api.join(alice.cookie, 999_999)).status).toBe(404);
  });

  it("private: 201 pending; again: 409 'Join request already pending'; full: 409 'Club is full'", async () => {
    const club = await makeClub({ memberLimit: 2 });
    const res = await api.join(alice.cookie, club.id, { message: "Neighbour here" });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ status: "pending" });
    const again = await api.join(alice.cookie, club.id);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: "Join request already pending" });

    const [request] = await (await api.requests(owner.cookie, club.id)).json();
    expect(request).toMatchObject({ message: "Neighbour here", user: { username: alice.username } });
    expect((await api.decide(owner.cookie, club.id, request.id, "approve")).status).toBe(200);
    const full = await api.join(bob.cookie, club.id);
    expect(full.status).toBe(409);
    expect(await full.json()).toEqual({ error: "Club is full" });
  });

  it("a valid invite admits directly to a private club (200 joined); a bad one is 400", async () => {
    const club = await makeClub();
    const { inviteCode } = await (await api.invite(owner.cookie, club.id, { usesRemaining: 1 })).json();
    expect((await api.join(bob.cookie, club.id, { inviteCode: "bogus-code-1234" })).status).toBe(400);
    const res = await api.join(bob.cookie, club.id, { inviteCode });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "joined" });
    const member = await createMember();
    const used = await api.join(member.cookie, club.id, { inviteCode });
    expect(used.status).toBe(400);
    expect((await used.json()).error).toBe("This invite link is invalid or has expired.");
    // Without the invite the same member only asks.
    expect((await api.join(member.cookie, club.id)).status).toBe(201);
  });

  it("an invite admits someone whose request is pending, and the request is resolved (issue 14)", async () => {
    const club = await makeClub();
    const waiting = await createMember();
    expect((await api.join(waiting.cookie, club.id, { message: "Me please" })).status).toBe(201);
    const { inviteCode } = await (await api.invite(owner.cookie, club.id)).json();
    // Before issue 14: 409 "Join request already pending".
    const res = await api.join(waiting.cookie, club.id, { inviteCode });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "joined" });
    expect(await (await api.requests(owner.cookie, club.id)).json()).toEqual([]);
  });

  it("a message too long is 400 and nothing is recorded", async () => {
    const club = await makeClub();
    const member = await createMember();
    const res = await api.join(member.cookie, club.id, { message: "x".repeat(501) });
    expect(res.status).toBe(400);
    expect((await (await api.get(member.cookie, club.id)).json()).requestStatus).toBe("none");
  });
});

describe("requests (owner only)", () => {
  it("GET and POST decisions: 401 / 403 for non-member, pending and member / 200 owner; approve, reject, re-apply", async () => {
    const club = await makeClub();
    const member = await createMember();
    await api
      .invite(owner.cookie, club.id)
      .then(async (r) => api.join(member.cookie, club.id, { inviteCode: (await r.json()).inviteCode }));
    await api.join(alice.cookie, club.id, { message: "please" });

    expect((await api.requests(null, club.id)).status).toBe(401);
    expect((await api.requests(bob.cookie, club.id)).status).toBe(403);
    expect((await api.requests(alice.cookie, club.id)).status).toBe(403);
    expect((await api.requests(member.cookie, club.id)).status).toBe(403);
    const list = await api.requests(owner.cookie, club.id);
    expect(list.status).toBe(200);
    const [request] = await list.json();

    for (const cookie of [null, bob.cookie, alice.cookie, member.cookie]) {
      expect((await api.decide(cookie, club.id, request.id, "approve")).status).toBe(cookie ? 403 : 401);
    }
    expect((await api.decide(owner.cookie, club.id, request.id, "maybe")).status).toBe(400);
    expect((await api.decide(owner.cookie, club.id, 999_999, "approve")).status).toBe(404);

    const rejected = await api.decide(owner.cookie, club.id, request.id, "reject");
    expect(rejected.status).toBe(200);
    expect(await rejected.json()).toEqual({ status: "rejected" });
    expect((await (await api.get(alice.cookie, club.id)).json()).requestStatus).toBe("rejected");

    // Re-apply.
    expect((await api.join(alice.cookie, club.id, { message: "again" })).status).toBe(201);
    const [again] = await (await api.requests(owner.cookie, club.id)).json();
    const approved = await api.decide(owner.cookie, club.id, again.id, "approve");
    expect(await approved.json()).toEqual({ status: "approved" });
    expect(await (await api.get(alice.cookie, club.id)).json()).toMatchObject({
      isMember: true,
      userRole: "member",
      requestStatus: "none",
    });
  });

  it("approving into a full club is 409 'Club is full'", async () => {
    const club = await makeClub({ memberLimit: 2 });
    const m1 = await createMember();
    const m2 = await createMember();
    await api.join(m1.cookie, club.id);
    await api.join(m2.cookie, club.id);
    const [r1, r2] = await (await api.requests(owner.cookie, club.id)).json();
    expect((await api.decide(owner.cookie, club.id, r1.id, "approve")).status).toBe(200);
    const full = await api.decide(owner.cookie, club.id, r2.id, "approve");
    expect(full.status).toBe(409);
    expect(await full.json()).toEqual({ error: "Club is full" });
  });
});

describe("leave, members and posts", () => {
  it("leave: 204 member, 400 owner, 400 non-member, 401 visitor", async () => {
    const club = await makeClub({ isPrivate: false });
    await api.join(alice.cookie, club.id);
    expect((await api.leave(null, club.id)).status).toBe(401);
    expect((await api.leave(bob.cookie, club.id)).status).toBe(400);
    const ownerLeave = await api.leave(owner.cookie, club.id);
    expect(ownerLeave.status).toBe(400);
    expect((await ownerLeave.json()).error).toBe("The club owner cannot leave the club");
    expect((await api.leave(alice.cookie, club.id)).status).toBe(204);
    expect((await (await api.get(null, club.id)).json()).memberCount).toBe(1);
  });

  it("members: visible to everyone, even for a private club; no emails", async () => {
    const club = await makeClub();
    const res = await api.members(null, club.id);
    expect(res.status).toBe(200);
    const members = await res.json();
    expect(members).toEqual([expect.objectContaining({ id: owner.id, username: owner.username, role: "owner" })]);
    expect(JSON.stringify(members)).not.toContain("@example.com");
  });

  it("posts: a private club's posts only to members (403 otherwise); a public club's to all", async () => {
    const priv = await makeClub();
    const pub = await makeClub({ isPrivate: false });
    expect((await api.posts(null, priv.id)).status).toBe(403);
    expect((await api.posts(bob.cookie, priv.id)).status).toBe(403);
    const own = await api.posts(owner.cookie, priv.id);
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual([]);
    expect((await api.posts(null, pub.id)).status).toBe(200);
    expect((await api.posts(null, 999_999)).status).toBe(404);
  });
});

describe("invites", () => {
  it("POST: 401 / 403 non-member / 403 pending / 201 member; GET list members only; DELETE revoke", async () => {
    const club = await makeClub();
    await api.join(alice.cookie, club.id); // pending
    expect((await api.invite(null, club.id)).status).toBe(401);
    expect((await api.invite(bob.cookie, club.id)).status).toBe(403);
    expect((await api.invite(alice.cookie, club.id)).status).toBe(403);
    const bad = await api.invite(owner.cookie, club.id, { usesRemaining: 0, expiresIn: 0.5 });
    expect(bad.status).toBe(400);
    expect(Object.keys((await bad.json()).fieldErrors).sort()).toEqual(["expiresIn", "usesRemaining"]);

    const res = await api.invite(owner.cookie, club.id, { usesRemaining: 3, expiresIn: 24 });
    expect(res.status).toBe(201);
    const made = await res.json();
    expect(made.inviteCode).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(made.usesRemaining).toBe(3);
    expect(Date.parse(made.expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);

    const got = await api.getInvite(made.inviteCode);
    expect(got.status).toBe(200);
    expect(await got.json()).toMatchObject({
      inviteCode: made.inviteCode,
      clubId: club.id,
      usesRemaining: 3,
      club: { name: "Creek Bottom Lease" },
    });
    expect((await api.getInvite("nope-nope-nope")).status).toBe(404);

    expect((await api.invites(null, club.id)).status).toBe(401);
    expect((await api.invites(bob.cookie, club.id)).status).toBe(403);
    const list = await (await api.invites(owner.cookie, club.id)).json();
    expect(list).toHaveLength(1);
    expect((await api.revoke(bob.cookie, club.id, list[0].id)).status).toBe(403);
    expect((await api.revoke(owner.cookie, club.id, list[0].id)).status).toBe(204);
    expect((await api.getInvite(made.inviteCode)).status).toBe(404);
  });
});

describe("POST /api/auth/register-with-invite", () => {
  const register = (json: Record<string, unknown>) =>
    call(registerWithInvite.action, makeRequest("/api/auth/register-with-invite", { json }));
  const userCount = async () => first(await db.select({ n: sql<number>`count(*)` }).from(users))!.n;

  it("201: the new member is signed in and in the club, one use taken", async () => {
    const club = await makeClub();
    const { inviteCode } = await (await api.invite(owner.cookie, club.id, { usesRemaining: 1 })).json();
    const res = await register({
      username: "invited_one",
      displayName: "Invited One",
      email: "invited_one@example.com",
      password: "secret123",
      inviteCode,
    });
    expect(res.status).toBe(201);
    const user = await res.json();
    expect(user).toMatchObject({ username: "invited_one", clubId: club.id });
    const cookie = cookiesFrom(res);
    const me = await call(apiUser.loader, makeRequest("/api/auth/user", { cookie }));
    expect((await me.json()).username).toBe("invited_one");
    expect(await (await api.get(cookie, club.id)).json()).toMatchObject({ isMember: true, userRole: "member" });
    expect((await api.getInvite(inviteCode)).status).toBe(404); // used up
  });

  it("400 and no account for a bad, used-up or missing code", async () => {
    const before = await userCount();
    for (const inviteCode of ["not-a-real-invite", undefined]) {
      const res = await register({
        username: "invited_bad",
        displayName: "Invited Bad",
        email: "invited_bad@example.com",
        password: "secret123",
        inviteCode,
      });
      expect(res.status).toBe(400);
    }
    expect(await userCount()).toBe(before);
    expect(first(await db.select().from(users).where(eq(users.username, "invited_bad")))).toBeUndefined();
  });
});

describe("HTML pages (no JavaScript): /clubs/{id} actions, /join/{code}, /auth with an invite", async () => {
  const clubPage = await import("~/routes/clubs.$id/route");
  const joinPage = await import("~/routes/join.$code/route");
  const authPage = await import("~/routes/auth/route");
  const createPage = await import("~/routes/clubs.create/route");
  const post = (id: number, form: Record<string, string>, cookie: Cookie, headers: Record<string, string> = {}) =>
    call(clubPage.action, makeRequest(`/clubs/${id}`, { form, cookie, headers }), { id: String(id) });

  it("create: a visitor is sent to sign in; bad input keeps what was typed; success redirects to the club", async () => {
    const anon = await call(createPage.action, makeRequest("/clubs/create", { form: { name: "Anything" } }));
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toMatch(/^\/auth\?mode=login/);

    const bad = await call(
      createPage.action,
      makeRequest("/clubs/create", { form: { name: "ab", location: "Coshocton, OH" }, cookie: owner.cookie }),
    );
    expect(bad.status).toBe(400);
    const reply = await bad.json();
    expect(reply.error.name).toContain("Club name must be at least 3 characters");
    expect(reply.initialValue.location).toBe("Coshocton, OH");

    // A cleared Private Club box sends only the hidden "false".
    const ok = await call(
      createPage.action,
      makeRequest("/clubs/create", { form: { name: "Form Made Club", isPrivate: "false", tags: "rut, scouting" }, cookie: owner.cookie }),
    );
    expect(ok.status).toBe(302);
    const id = Number(/\/clubs\/(\d+)/.exec(ok.headers.get("Location")!)![1]);
    expect(await (await api.get(null, id)).json()).toMatchObject({ isPrivate: false, tags: ["rut", "scouting"] });
    // The ticked box sends ["false", "true"]: private.
    const ticked = await call(
      createPage.action,
      makeRequest("/clubs/create", { form: { name: "Ticked Club", isPrivate: ["false", "true"] }, cookie: owner.cookie }),
    );
    const tickedId = Number(/\/clubs\/(\d+)/.exec(ticked.headers.get("Location")!)![1]);
    expect((await (await api.get(null, tickedId)).json()).isPrivate).toBe(true);
  });

  it("join / leave / approve / reject end in a redirect with a toast; refusals come back as an error toast", async () => {
    const club = await makeClub({ memberLimit: 2 });
    const anon = await post(club.id, { intent: "join" }, null);
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toMatch(/^\/auth\?mode=login/);

    const member = await createMember();
    const asked = await post(club.id, { intent: "join", message: "Neighbour" }, member.cookie);
    expect(asked.status).toBe(302);
    expect(asked.headers.get("Location")).toBe(`/clubs/${club.id}`);
    expect(asked.headers.get("Set-Cookie")).toContain("__toast");
    const again = await post(club.id, { intent: "join" }, member.cookie);
    expect(again.status).toBe(302); // error toast, back to the club
    expect((await (await api.get(member.cookie, club.id)).json()).requestStatus).toBe("pending");

    const [request] = await (await api.requests(owner.cookie, club.id)).json();
    // Only the owner decides: another member's post is refused (403).
    expect((await post(club.id, { intent: "approve", requestId: String(request.id) }, member.cookie)).status).toBe(403);
    const approved = await post(club.id, { intent: "approve", requestId: String(request.id) }, owner.cookie);
    expect(approved.headers.get("Location")).toBe(`/clubs/${club.id}/requests`);
    expect((await (await api.get(member.cookie, club.id)).json()).isMember).toBe(true);

    const ownerLeaves = await post(club.id, { intent: "leave" }, owner.cookie);
    expect(ownerLeaves.status).toBe(302);
    expect((await (await api.get(owner.cookie, club.id)).json()).userRole).toBe("owner");
    expect((await post(club.id, { intent: "leave" }, member.cookie)).status).toBe(302);
    expect((await (await api.get(member.cookie, club.id)).json()).isMember).toBe(false);

    expect((await post(club.id, { intent: "dance" }, owner.cookie)).status).toBe(400);
    const crossSite = await post(club.id, { intent: "join" }, member.cookie, { Origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect((await (await api.get(member.cookie, club.id)).json()).requestStatus).toBe("none");
  });

  it("the tabs are nested routes: old ?tab= links redirect to them; a tab the visitor may not see shows the posts", async () => {
    const club = await makeClub();
    const invitesTab = await import("~/routes/clubs.$id/tabs/invites");
    const requestsTab = await import("~/routes/clubs.$id/tabs/requests");
    const load = (loader: Parameters<typeof call>[0], path: string, cookie: Cookie) =>
      call(loader, makeRequest(path, { cookie }), { id: String(club.id) });

    const old = await load(clubPage.loader, `/clubs/${club.id}?tab=invites&generated=abc`, owner.cookie);
    expect(old.status).toBe(302);
    expect(old.headers.get("Location")).toBe(`/clubs/${club.id}/invites?generated=abc`);
    const posts = await load(clubPage.loader, `/clubs/${club.id}?tab=posts&cursor=xyz`, null);
    expect(posts.headers.get("Location")).toBe(`/clubs/${club.id}?cursor=xyz`);

    const own = await load(invitesTab.loader, `/clubs/${club.id}/invites`, owner.cookie);
    expect(own.status).toBe(200);
    expect((await own.json()).invites).toEqual([]);
    for (const [loader, tab, cookie] of [
      [invitesTab.loader, "invites", bob.cookie],
      [invitesTab.loader, "invites", null],
      [requestsTab.loader, "requests", alice.cookie],
    ] as const) {
      const res = await load(loader, `/clubs/${club.id}/${tab}`, cookie);
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe(`/clubs/${club.id}`);
    }
    expect((await call(clubPage.loader, makeRequest("/clubs/abc"), { id: "abc" })).status).toBe(404);
    expect((await call(clubPage.loader, makeRequest("/clubs/999999"), { id: "999999" })).status).toBe(404);
  });

  it("update keeps what was typed on a validation error; invite redirects to the generated link", async () => {
    const club = await makeClub();
    const bad = await post(club.id, { intent: "update", name: "Kept Name", description: "short", isPrivate: "false" }, owner.cookie);
    expect(bad.status).toBe(400);
    const data = await bad.json();
    expect(data.intent).toBe("update");
    expect(data.result.error.description).toContain("Description must be at least 10 characters");
    expect(data.result.initialValue.name).toBe("Kept Name");
    expect((await (await api.get(null, club.id)).json()).name).toBe("Creek Bottom Lease");

    const made = await post(club.id, { intent: "invite", usesRemaining: "2", expiresIn: "" }, owner.cookie);
    expect(made.status).toBe(302);
    const location = new URL(made.headers.get("Location")!, "http://x");
    expect(location.pathname).toBe(`/clubs/${club.id}/invites`);
    const code = location.searchParams.get("generated")!;
    expect((await (await api.getInvite(code)).json()).usesRemaining).toBe(2);
  });

  it("GET /join/{code} changes nothing; the POST joins; a member is sent to the club", async () => {
    const club = await makeClub();
    const { inviteCode } = await (await api.invite(owner.cookie, club.id, { usesRemaining: 3 })).json();
    const member = await createMember();
    const page = await call(joinPage.loader, makeRequest(`/join/${inviteCode}`, { cookie: member.cookie }), { code: inviteCode });
    expect(page.status).toBe(200);
    expect((await page.json()).viewer).toBe("can-join");
    expect((await (await api.get(member.cookie, club.id)).json()).isMember).toBe(false);
    expect((await (await api.getInvite(inviteCode)).json()).usesRemaining).toBe(3);

    const joined = await call(joinPage.action, makeRequest(`/join/${inviteCode}`, { form: { intent: "join" }, cookie: member.cookie }), {
      code: inviteCode,
    });
    expect(joined.status).toBe(302);
    expect(joined.headers.get("Location")).toBe(`/clubs/${club.id}?joined=1`);
    expect((await (await api.getInvite(inviteCode)).json()).usesRemaining).toBe(2);

    const already = await call(joinPage.loader, makeRequest(`/join/${inviteCode}`, { cookie: member.cookie }), { code: inviteCode });
    expect(already.status).toBe(302);
    expect(already.headers.get("Location")).toBe(`/clubs/${club.id}`);

    const invalid = await call(joinPage.loader, makeRequest("/join/not-a-code-at-all"), { code: "not-a-code-at-all" });
    expect(invalid.status).toBe(404);
    expect((await invalid.json()).invite).toBeNull();
  });

  it("a member's invite stops working once they leave: API 404 and 400, the /join page 404 (security-2 N6)", async () => {
    const club = await makeClub();
    const maker = await createMember();
    const { inviteCode: forMaker } = await (await api.invite(owner.cookie, club.id)).json();
    expect((await api.join(maker.cookie, club.id, { inviteCode: forMaker })).status).toBe(200);
    const { inviteCode } = await (await api.invite(maker.cookie, club.id)).json();
    expect((await api.getInvite(inviteCode)).status).toBe(200);
    expect((await api.leave(maker.cookie, club.id)).status).toBe(204);

    const outsider = await createMember();
    const read = await api.getInvite(inviteCode);
    expect(read.status).toBe(404);
    expect(await read.json()).toEqual({ error: "This invite link is invalid or has expired." });
    const joined = await api.join(outsider.cookie, club.id, { inviteCode });
    expect(joined.status).toBe(400);
    expect((await joined.json()).error).toBe("This invite link is invalid or has expired.");
    for (const cookie of [null, outsider.cookie]) {
      const page = await call(joinPage.loader, makeRequest(`/join/${inviteCode}`, { cookie }), { code: inviteCode });
      expect(page.status).toBe(404);
      expect((await page.json()).invite).toBeNull();
    }
    const posted = await call(joinPage.action, makeRequest(`/join/${inviteCode}`, { form: { intent: "join" }, cookie: outsider.cookie }), {
      code: inviteCode,
    });
    expect(posted.status).toBe(400);
    expect((await (await api.get(outsider.cookie, club.id)).json()).isMember).toBe(false);
    // The owner's invite still admits.
    expect((await api.join(outsider.cookie, club.id, { inviteCode: forMaker })).status).toBe(200);
  });

  it("/auth register with an invite code joins the club in the same transaction; a bad code creates nothing", async () => {
    const club = await makeClub();
    const { inviteCode } = await (await api.invite(owner.cookie, club.id)).json();
    const form = (username: string, code: string) => ({
      intent: "register",
      username,
      displayName: "Form Invitee",
      email: `${username}@example.com`,
      password: "secret123",
      inviteCode: code,
    });
    const ok = await call(authPage.action, makeRequest("/auth?mode=register", { form: form("form_invitee", inviteCode) }));
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe(`/clubs/${club.id}?joined=1`);
    const cookie = cookiesFrom(ok);
    expect((await (await api.get(cookie, club.id)).json()).isMember).toBe(true);

    const bad = await call(authPage.action, makeRequest("/auth?mode=register", { form: form("form_badcode", "bogus-code-xyz") }));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("This invite link is invalid or has expired.");
    expect(first(await db.select().from(users).where(eq(users.username, "form_badcode")))).toBeUndefined();
  });
});

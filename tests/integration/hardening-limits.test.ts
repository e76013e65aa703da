import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { decideJoinRequest, joinClub, listJoinRequests } from "~/models/clubs/club-membership.server";
import { createInvite, REJECTED_NEEDS_OWNER } from "~/models/clubs/invite.server";
import * as loginApi from "~/routes/api.auth.login";
import * as registerApi from "~/routes/api.auth.register";
import * as clubsApi from "~/routes/api.clubs";
import * as invitesApi from "~/routes/api.clubs.$id.invites";
import * as joinApi from "~/routes/api.clubs.$id.join";
import * as authPage from "~/routes/auth/route";
import * as createClubPage from "~/routes/clubs.create/route";
import * as invitePage from "~/routes/join.$code/route";
import { env } from "~/utils/env.server";
import { LIMITS, recordHit, setRateLimitsEnabled } from "~/utils/rate-limit.server";
import { PEER_ADDRESS_HEADER } from "~/web/params.server";
import { newClub } from "../fixtures/clubs";
import { startLimitsClock } from "../fixtures/limits-clock";
import { call, createMember, makeRequest } from "../fixtures/members";

/**
 * Issue 11 (security.md H2, M3, L3, L8, L9): per-address limits key on an address the server can
 * trust (CONTRACT.md §6, ADR 0019); a member locked by the per-username limit is told when to try
 * again; clubs, invites and join requests are limited; an ordinary member's invite does not undo the
 * owner's rejection (ADR 0020). `PEER_ADDRESS_HEADER` is what the HTTP edge stamps with the socket's
 * address (http-edge.server.test.ts shows it over a real connection).
 */

beforeEach(() => {
  setRateLimitsEnabled(true);
  startLimitsClock();
});
afterEach(() => {
  vi.useRealTimers();
  setRateLimitsEnabled(false);
  env.TRUST_PROXY = 0;
});

let n = 0;
const newcomer = () => {
  n += 1;
  const username = `newcomer${n}_${Math.random().toString(36).slice(2, 6)}`;
  return { username, displayName: "New Comer", email: `${username}@example.com`, password: "secret123" };
};
const peer = (address: string, headers: Record<string, string> = {}) => ({ [PEER_ADDRESS_HEADER]: address, ...headers });
const register = (headers: Record<string, string>) =>
  call(registerApi.action, makeRequest("/api/auth/register", { json: newcomer(), headers }));
const login = (username: string, password: string, headers: Record<string, string>) =>
  call(loginApi.action, makeRequest("/api/auth/login", { json: { username, password }, headers }));
const loginForm = (username: string, password: string, headers: Record<string, string>) =>
  call(authPage.action, makeRequest("/auth", { form: { intent: "login", username, password }, headers }));

describe("registration limit per client address", () => {
  it("a new X-Forwarded-For on every request does not get past it (TRUST_PROXY=0: the socket's address counts)", async () => {
    const client = "203.0.113.20";
    for (let i = 0; i < LIMITS.registrationsPerIp.limit - 2; i++) await recordHit("registrationsPerIp", client);
    expect((await register(peer(client, { "X-Forwarded-For": "198.51.100.1" }))).status).toBe(201);
    expect((await register(peer(client, { "X-Forwarded-For": "198.51.100.2", "X-Real-IP": "198.51.100.3" }))).status).toBe(201);
    const refused = await register(peer(client, { "X-Forwarded-For": "198.51.100.4" }));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    // The form door counts the same address.
    const form = await call(authPage.action, makeRequest("/auth", { form: { intent: "register", ...newcomer() }, headers: peer(client) }));
    expect(form.status).toBe(429);
    // Another client is not affected.
    expect((await register(peer("203.0.113.21"))).status).toBe(201);
  });

  it("behind one proxy (TRUST_PROXY=1) only the entry the proxy appended counts, not what the client wrote before it", async () => {
    env.TRUST_PROXY = 1;
    const proxy = "10.0.0.2";
    const client = "198.51.100.50";
    for (let i = 0; i < LIMITS.registrationsPerIp.limit - 1; i++) await recordHit("registrationsPerIp", client);
    expect((await register(peer(proxy, { "X-Forwarded-For": `192.0.2.1, ${client}` }))).status).toBe(201);
    expect((await register(peer(proxy, { "X-Forwarded-For": `192.0.2.2, ${client}` }))).status).toBe(429);
    expect((await register(peer(proxy, { "X-Forwarded-For": client }))).status).toBe(429);
    // The proxy's other clients are not affected.
    expect((await register(peer(proxy, { "X-Forwarded-For": `${client}, 198.51.100.51` }))).status).toBe(201);
  });
});

describe("sign-in failures by strangers never lock a member out", () => {
  it("failed sign-ins for unknown or other usernames from other clients leave a member's sign-in alone", async () => {
    const member = await createMember();
    const other = await createMember();
    const attacker = peer("203.0.113.66");
    for (let i = 0; i < 12; i++) await login(`nobody${i}_${n}`, "wrong-pass", attacker);
    for (let i = 0; i < 3; i++) await login(other.username, "wrong-pass", attacker);
    // The attacker's own address is stopped…
    expect((await login(`nobody_more_${n}`, "wrong-pass", attacker)).status).toBe(429);
    // …and the member, from their own address, on both doors, is not.
    expect((await login(member.username, member.password, peer("198.51.100.77"))).status).toBe(200);
    expect((await loginForm(member.username, member.password, peer("198.51.100.78"))).status).toBe(302);
  });

  it("a proxy the server was not told about is counted as one address (security-2 N5, ADR 0054); with no address at all failures lock nobody out", async () => {
    const member = await createMember();
    // TRUST_PROXY=0 but every request comes from the proxy on 127.0.0.1 with X-Forwarded-For: a
    // rotated header no longer escapes the limit; everyone behind it shares the proxy's count.
    const viaProxy = (client: string) => peer("127.0.0.1", { "X-Forwarded-For": client });
    for (let i = 0; i < 10; i++) expect((await login(`ghost${i}_${n}`, "wrong-pass", viaProxy(`192.0.2.${i}`))).status).toBe(401);
    expect((await login(member.username, member.password, viaProxy("198.51.100.80"))).status).toBe(429);
    // No address at all (nothing in front stamped one): not counted.
    for (let i = 0; i < 12; i++) await login(`phantom${i}_${n}`, "wrong-pass", {});
    expect((await login(member.username, member.password, {})).status).toBe(200);
  });
});

describe("a member locked by the per-username limit is told when to try again", () => {
  it("on POST /api/auth/login and the /auth form: 429, Retry-After and the time left, counted from now", async () => {
    const member = await createMember();
    for (let i = 0; i < LIMITS.loginFailuresPerUsername.limit; i++)
      await login(member.username, "wrong-pass", peer(`203.0.113.${100 + i}`));
    const message = /^Too many failed sign-ins for this username\. Try again in \d+ (minute|minutes|second|seconds)\.$/;

    const api = await login(member.username, member.password, peer("198.51.100.90"));
    expect(api.status).toBe(429);
    const retryAfter = Number(api.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect((await api.json()).error).toMatch(message);

    const form = await loginForm(member.username, member.password, peer("198.51.100.91"));
    expect(form.status).toBe(429);
    expect(Number(form.headers.get("Retry-After"))).toBeGreaterThan(0);
    const body = await form.json();
    expect(body.result.error[""][0]).toMatch(message);
    // What was typed stays, but the password.
    expect(body.result.initialValue).toMatchObject({ username: member.username });
  });
});

describe("limits on clubs, invites and join requests (L8)", () => {
  it("club creation: LIMITS.clubsPerUser a day, then 429 with Retry-After; the page keeps the form and shows why", async () => {
    const member = await createMember();
    const create = (name: string) => call(clubsApi.action, makeRequest("/api/clubs", { json: { name }, cookie: member.cookie }));
    for (let i = 0; i < LIMITS.clubsPerUser.limit; i++) expect((await create(`Deer Camp ${i}`)).status).toBe(201);
    const refused = await create("One Too Many");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatch(/clubs.*Try again in \d+ (hour|hours|minute|minutes)/);

    const page = await call(
      createClubPage.action,
      makeRequest("/clubs/create", { form: { name: "Typed Name Club" }, cookie: member.cookie }),
    );
    expect(page.status).toBe(429);
    const result = await page.json();
    expect(result.error[""][0]).toMatch(/clubs/);
    expect(result.initialValue).toMatchObject({ name: "Typed Name Club" });
  });

  it("invite creation: LIMITS.invitesPerUser a day per member, then 429", async () => {
    const owner = await createMember();
    const club = await newClub(owner);
    const invite = () =>
      call(invitesApi.action, makeRequest(`/api/clubs/${club.id}/invites`, { json: {}, cookie: owner.cookie }), { id: String(club.id) });
    for (let i = 0; i < LIMITS.invitesPerUser.limit; i++) expect((await invite()).status).toBe(201);
    const refused = await invite();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("re-applying after rejection: LIMITS.joinRequestsPerClub requests a day to one club, then 429", async () => {
    const owner = await createMember();
    const hopeful = await createMember();
    const club = await newClub(owner, { isPrivate: true });
    const request = () =>
      call(joinApi.action, makeRequest(`/api/clubs/${club.id}/join`, { json: {}, cookie: hopeful.cookie }), { id: String(club.id) });
    for (let i = 0; i < LIMITS.joinRequestsPerClub.limit; i++) {
      const answer = await request();
      expect(answer.status).toBe(201);
      expect(await answer.json()).toEqual({ status: "pending" });
      const [pending] = await pendingOf(owner, club.id);
      await decideJoinRequest(owner, club.id, pending!, "reject");
    }
    const refused = await request();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Another club is another count.
    expect(await joinClub(hopeful, (await newClub(owner, { isPrivate: true })).id)).toEqual({ status: "pending" });
  });
});

describe("an invite from an ordinary member does not undo the owner's rejection (L9, ADR 0020)", () => {
  it("403 with a way forward on both doors; the owner's own invite admits", async () => {
    const owner = await createMember();
    const member = await createMember();
    const rejected = await createMember();
    const club = await newClub(owner, { isPrivate: true });
    await joinClub(member, club.id);
    const [memberRequest] = await pendingOf(owner, club.id);
    await decideJoinRequest(owner, club.id, memberRequest!, "approve");
    await joinClub(rejected, club.id);
    const [rejectedRequest] = await pendingOf(owner, club.id);
    await decideJoinRequest(owner, club.id, rejectedRequest!, "reject");

    const code = (await createInvite(member, club.id, {})).inviteCode;
    const api = await call(
      joinApi.action,
      makeRequest(`/api/clubs/${club.id}/join`, { json: { inviteCode: code }, cookie: rejected.cookie }),
      {
        id: String(club.id),
      },
    );
    expect(api.status).toBe(403);
    expect((await api.json()).error).toBe(REJECTED_NEEDS_OWNER);
    const page = await call(invitePage.action, makeRequest(`/join/${code}`, { form: { intent: "join" }, cookie: rejected.cookie }), {
      code,
    });
    expect(page.status).toBe(403);

    const ownersCode = (await createInvite(owner, club.id, {})).inviteCode;
    const admitted = await call(
      joinApi.action,
      makeRequest(`/api/clubs/${club.id}/join`, { json: { inviteCode: ownersCode }, cookie: rejected.cookie }),
      { id: String(club.id) },
    );
    expect(admitted.status).toBe(200);
    expect(await admitted.json()).toMatchObject({ status: "joined" });
  });
});

async function pendingOf(owner: { id: number }, clubId: number): Promise<number[]> {
  return (await listJoinRequests(owner, clubId)).map((r) => r.id);
}

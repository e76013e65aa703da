import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { clubMembers, moderationLog } from "#db/schema";
import * as memberApi from "~/routes/api.clubs.$id.members.$username";
import { loader as requestsApi } from "~/routes/api.clubs.$id.requests";
import { action as decideApi } from "~/routes/api.clubs.$id.requests.$requestId";
import * as membersTab from "~/routes/clubs.$id/tabs/members";
import { action as joinApi } from "~/routes/api.clubs.$id.join";
import { joinClub, REMOVAL_KEEPS_OUT_DAYS } from "~/models/clubs/club-membership.server";
import { dayAtClock } from "~/utils/time-zone";
import { db, first } from "~/utils/db.server";
import { memberCount, membershipRows, newClub } from "../fixtures/clubs";
import { call, createMember, makeRequest } from "../fixtures/members";
import { createStaff, setClubRole } from "../fixtures/moderation";

/**
 * Club staff (CONTRACT.md §8): the owner makes and unmakes admins; the owner and admins remove
 * members (never the owner; an admin not another admin) and decide join requests. Every refusal
 * changes nothing; the member count stays equal to the rows.
 */

type Who = Awaited<ReturnType<typeof createMember>>;

async function cast() {
  const owner = await createMember();
  const club = await newClub(owner, { isPrivate: false });
  const join = async () => {
    const m = await createMember();
    await joinClub(m, club.id);
    return m;
  };
  const clubAdmin = await join();
  await setClubRole(club.id, clubAdmin.id, "admin");
  return {
    club,
    owner,
    clubAdmin,
    clubMember: await join(),
    target: await join(),
    outsider: await createMember(),
    moderator: await createStaff("moderator"),
    admin: await createStaff("admin"),
    join,
  };
}

const putRole = (cookie: string | null, clubId: number, username: string, body: unknown) =>
  call(memberApi.action, makeRequest(`/api/clubs/${clubId}/members/${username}`, { method: "PUT", json: body, cookie }), {
    id: String(clubId),
    username,
  });
const remove = (cookie: string | null, clubId: number, username: string) =>
  call(memberApi.action, makeRequest(`/api/clubs/${clubId}/members/${username}`, { method: "DELETE", cookie }), {
    id: String(clubId),
    username,
  });
const roleIn = async (clubId: number, userId: number) =>
  first(
    await db
      .select({ role: clubMembers.role })
      .from(clubMembers)
      .where(and(eq(clubMembers.clubId, clubId), eq(clubMembers.userId, userId))),
  )?.role ?? null;
const clubLog = (clubId: number) => db.select().from(moderationLog).where(eq(moderationLog.clubId, clubId));
const snapshot = async (clubId: number, ...members: Who[]) => ({
  roles: await Promise.all(members.map((m) => roleIn(clubId, m.id))),
  count: await memberCount(clubId),
  rows: await membershipRows(clubId),
  log: (await clubLog(clubId)).length,
});

describe("PUT /api/clubs/{id}/members/{username}: only the owner makes and unmakes admins", () => {
  it("refuses visitor 401, everyone but the owner 403, changing nothing", async () => {
    const c = await cast();
    const before = await snapshot(c.club.id, c.target, c.clubAdmin);
    const refused: [Who | null, number][] = [
      [null, 401],
      [c.outsider, 403],
      [c.clubMember, 403],
      [c.clubAdmin, 403],
      [c.moderator, 403],
      [c.admin, 403],
    ];
    for (const [who, status] of refused) {
      expect((await putRole(who?.cookie ?? null, c.club.id, c.target.username, { role: "admin" })).status).toBe(status);
      expect((await putRole(who?.cookie ?? null, c.club.id, c.clubAdmin.username, { role: "member" })).status).toBe(status);
      expect(await snapshot(c.club.id, c.target, c.clubAdmin)).toEqual(before);
    }
    expect((await putRole(c.owner.cookie, c.club.id, c.owner.username, { role: "member" })).status).toBe(400);
    expect((await putRole(c.owner.cookie, c.club.id, c.target.username, { role: "owner" })).status).toBe(400);
    expect((await putRole(c.owner.cookie, c.club.id, c.outsider.username, { role: "admin" })).status).toBe(404);
    expect((await putRole(c.owner.cookie, 999_999, c.target.username, { role: "admin" })).status).toBe(404);
    expect(await snapshot(c.club.id, c.target, c.clubAdmin)).toEqual(before);
    expect(await roleIn(c.club.id, c.owner.id)).toBe("owner");
  });

  it("the owner makes a member admin and back, each logged with the club", async () => {
    const c = await cast();
    const made = await putRole(c.owner.cookie, c.club.id, c.target.username.toUpperCase(), { role: "admin" });
    expect(made.status).toBe(200);
    expect(await made.json()).toMatchObject({ id: c.target.id, username: c.target.username, role: "admin" });
    expect(await roleIn(c.club.id, c.target.id)).toBe("admin");
    expect((await putRole(c.owner.cookie, c.club.id, c.target.username, { role: "member" })).status).toBe(200);
    expect(await roleIn(c.club.id, c.target.id)).toBe("member");
    expect((await clubLog(c.club.id)).map((e) => [e.action, e.actorName, e.targetLabel, e.reason])).toEqual([
      ["set_role", c.owner.username, c.target.username, "member → admin"],
      ["set_role", c.owner.username, c.target.username, "admin → member"],
    ]);
  });
});

describe("DELETE /api/clubs/{id}/members/{username}", () => {
  it("refuses visitor 401, members, outsiders and site staff 403; never the owner; an admin not another admin", async () => {
    const c = await cast();
    const otherAdmin = await c.join();
    await setClubRole(c.club.id, otherAdmin.id, "admin");
    const before = await snapshot(c.club.id, c.target, otherAdmin, c.owner);
    const refused: [Who | null, number][] = [
      [null, 401],
      [c.outsider, 403],
      [c.clubMember, 403],
      [c.moderator, 403],
      [c.admin, 403],
    ];
    for (const [who, status] of refused) {
      expect((await remove(who?.cookie ?? null, c.club.id, c.target.username)).status).toBe(status);
      expect(await snapshot(c.club.id, c.target, otherAdmin, c.owner)).toEqual(before);
    }
    expect((await remove(c.clubAdmin.cookie, c.club.id, otherAdmin.username)).status).toBe(403);
    expect((await remove(c.clubAdmin.cookie, c.club.id, c.owner.username)).status).toBe(403);
    expect((await remove(c.owner.cookie, c.club.id, c.owner.username)).status).toBe(403);
    expect((await remove(c.clubAdmin.cookie, c.club.id, c.clubAdmin.username)).status).toBe(400);
    expect((await remove(c.owner.cookie, c.club.id, c.outsider.username)).status).toBe(404);
    expect(await snapshot(c.club.id, c.target, otherAdmin, c.owner)).toEqual(before);
  });

  it("an admin removes a member, the owner removes an admin: 204, count equals rows, logged", async () => {
    const c = await cast();
    const start = await memberCount(c.club.id);
    const res = await remove(c.clubAdmin.cookie, c.club.id, c.target.username);
    expect(res.status).toBe(204);
    expect(await roleIn(c.club.id, c.target.id)).toBeNull();
    expect((await remove(c.owner.cookie, c.club.id, c.clubAdmin.username)).status).toBe(204);
    expect(await memberCount(c.club.id)).toBe(start! - 2);
    expect(Number(await membershipRows(c.club.id))).toBe(await memberCount(c.club.id));
    expect((await clubLog(c.club.id)).map((e) => [e.action, e.actorName, e.targetLabel])).toEqual([
      ["remove_member", c.clubAdmin.username, c.target.username],
      ["remove_member", c.owner.username, c.clubAdmin.username],
    ]);
    // Removed keeps them out for 30 days (CONTRACT.md §12, security-3 P7): joining again is 409 with the date.
    const until = dayAtClock(Date.now() + REMOVAL_KEEPS_OUT_DAYS * 86_400_000).replace(/ \d\d:\d\d UTC$/, ""); // "26 December 2026 at"
    const again = await call(joinApi, makeRequest(`/api/clubs/${c.club.id}/join`, { method: "POST", json: {}, cookie: c.target.cookie }), {
      id: String(c.club.id),
    });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toContain(`until ${until}`);
    expect(await roleIn(c.club.id, c.target.id)).toBeNull();
    expect(Number(await membershipRows(c.club.id))).toBe(await memberCount(c.club.id));
  });
});

describe("join requests: the owner and admins decide", () => {
  it("a club admin lists and approves; a member may not", async () => {
    const owner = await createMember();
    const club = await newClub(owner, { isPrivate: true });
    const clubAdmin = await createMember();
    const clubMember = await createMember();
    await setClubRole(club.id, clubAdmin.id, "admin");
    await setClubRole(club.id, clubMember.id, "member");
    const applicant = await createMember();
    await joinClub(applicant, club.id, { message: "Hunting the creek since 1998" });
    const list = (cookie: string) => call(requestsApi, makeRequest(`/api/clubs/${club.id}/requests`, { cookie }), { id: String(club.id) });
    expect((await list(clubMember.cookie)).status).toBe(403);
    const requests = await (await list(clubAdmin.cookie)).json();
    expect(requests).toHaveLength(1);
    const decide = (cookie: string) =>
      call(decideApi, makeRequest(`/api/clubs/${club.id}/requests/${requests[0].id}`, { json: { action: "approve" }, cookie }), {
        id: String(club.id),
        requestId: String(requests[0].id),
      });
    expect((await decide(clubMember.cookie)).status).toBe(403);
    expect(await roleIn(club.id, applicant.id)).toBeNull();
    expect((await decide(clubAdmin.cookie)).status).toBe(200);
    expect(await roleIn(club.id, applicant.id)).toBe("member");
  });
});

describe("the Members tab", () => {
  const tab = (cookie: string | null, clubId: number, query = "") =>
    call(membersTab.loader, makeRequest(`/clubs/${clubId}/members${query}`, { cookie }), { id: String(clubId) });
  const post = (cookie: string | null, clubId: number, form: Record<string, string>) =>
    call(membersTab.action, makeRequest(`/clubs/${clubId}/members`, { form, cookie }), { id: String(clubId) });

  it("gives staff their buttons' data, confirms a removal in a second step, and its forms work", async () => {
    const c = await cast();
    expect(await (await tab(null, c.club.id, `?remove=${c.target.username}`)).json()).toMatchObject({
      viewerRole: null,
      confirmRemove: null,
    });
    expect(await (await tab(c.clubMember.cookie, c.club.id, `?remove=${c.target.username}`)).json()).toMatchObject({
      viewerRole: "member",
      confirmRemove: null,
    });
    const asked = await (await tab(c.owner.cookie, c.club.id, `?remove=${c.target.username}`)).json();
    expect(asked).toMatchObject({ viewerRole: "owner", confirmRemove: { username: c.target.username } });
    expect(await roleIn(c.club.id, c.target.id)).toBe("member");

    const made = await post(c.owner.cookie, c.club.id, { intent: "set-role", username: c.target.username, role: "admin" });
    expect(made.status).toBe(302);
    expect(made.headers.get("Location")).toBe(`/clubs/${c.club.id}/members`);
    expect(await roleIn(c.club.id, c.target.id)).toBe("admin");
    expect((await post(c.clubAdmin.cookie, c.club.id, { intent: "set-role", username: c.clubMember.username, role: "admin" })).status).toBe(
      403,
    );
    expect(await roleIn(c.club.id, c.clubMember.id)).toBe("member");
    // The new admin removes a member.
    expect((await post(c.target.cookie, c.club.id, { intent: "remove-member", username: c.clubMember.username })).status).toBe(302);
    expect(await roleIn(c.club.id, c.clubMember.id)).toBeNull();
    // An admin removing another admin: the toast says why, nothing changes.
    const refused = await post(c.target.cookie, c.club.id, { intent: "remove-member", username: c.clubAdmin.username });
    expect(refused.status).toBe(403);
    expect(await roleIn(c.club.id, c.clubAdmin.id)).toBe("admin");
  });
});

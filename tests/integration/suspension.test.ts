import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { endedSessions, moderationLog, sessions, users } from "#db/schema";
import * as loginApi from "~/routes/api.auth.login";
import { loader as userApi } from "~/routes/api.auth.user";
import { loader as logApi } from "~/routes/api.moderation.log";
import * as suspendApi from "~/routes/api.moderation.users.$username.suspend";
import * as unsuspendApi from "~/routes/api.moderation.users.$username.unsuspend";
import * as authPage from "~/routes/auth/route";
import { loader as rootLoader } from "~/root-data.server";
import * as staffPage from "~/routes/moderation_.members.$username/route";
import { suspendMember } from "~/models/moderation/suspension.server";
import { pruneExpiredSessions, SESSION_LIFETIME_MS } from "~/models/members/session.server";
import { db, first, writeTransaction } from "~/utils/db.server";
import { logDecision } from "~/models/moderation/moderation-log.server";
import { newClub, type Member } from "../fixtures/clubs";
import { call, createMember, makeRequest } from "../fixtures/members";
import { createStaff, setClubRole } from "../fixtures/moderation";
import { commitUserSession } from "~/web/session.server";
import { env } from "~/utils/env.server";
import { requestNotes } from "~/utils/logger.server";
import { dayAtClock } from "~/utils/time-zone";

/**
 * Suspension (CONTRACT.md §8): who may suspend whom (every refusal changes nothing), what it does to
 * the member's sessions and sign-in, the staff page, and the log API.
 */

const DAY = 24 * 60 * 60 * 1000;
const suspend = (cookie: string | null, username: string, body: unknown) =>
  call(suspendApi.action, makeRequest(`/api/moderation/users/${username}/suspend`, { json: body, cookie }), { username });
const unsuspend = (cookie: string | null, username: string) =>
  call(unsuspendApi.action, makeRequest(`/api/moderation/users/${username}/unsuspend`, { method: "POST", cookie }), { username });
const signedIn = async (cookie: string) => (await call(userApi, makeRequest("/api/auth/user", { cookie }))).status === 200;
const apiLogin = (username: string, password: string) =>
  call(loginApi.action, makeRequest("/api/auth/login", { json: { username, password } }));
const pageLogin = (username: string, password: string) =>
  call(authPage.action, makeRequest("/auth", { form: { intent: "login", username, password, redirectTo: "/" } }));
const userRow = async (id: number) => first(await db.select().from(users).where(eq(users.id, id)))!;
const sessionCount = async (id: number) => (await db.select().from(sessions).where(eq(sessions.userId, id))).length;
const logCount = async () => (await db.select().from(moderationLog)).length;
/** What a refusal must leave as it was. */
const stateOf = async (m: Member) => {
  const row = await userRow(m.id);
  return {
    at: row.suspendedAt,
    until: row.suspendedUntil,
    reason: row.suspensionReason,
    sessions: await sessionCount(m.id),
    log: await logCount(),
  };
};

/** Every kind of caller the matrix asks about (CONTRACT.md §8: only site staff suspend). */
async function cast() {
  const owner = await createMember();
  const club = await newClub(owner);
  const clubMember = await createMember();
  const clubAdmin = await createMember();
  await setClubRole(club.id, clubMember.id, "member");
  await setClubRole(club.id, clubAdmin.id, "admin");
  return {
    club,
    owner,
    clubMember,
    clubAdmin,
    member: await createMember(),
    moderator: await createStaff("moderator"),
    admin: await createStaff("admin"),
    target: await createMember(),
  };
}

describe("suspend and unsuspend: who may", () => {
  it("visitor 401; member, club member, club admin and club owner 403; each refusal changes nothing", async () => {
    const c = await cast();
    await suspend(c.moderator.cookie, c.target.username, { reason: "Spam", days: 3 }).then((r) => expect(r.status).toBe(200));
    const before = await stateOf(c.target);
    const refused: [string | null, number][] = [
      [null, 401],
      [c.member.cookie, 403],
      [c.clubMember.cookie, 403],
      [c.clubAdmin.cookie, 403],
      [c.owner.cookie, 403],
    ];
    for (const [cookie, status] of refused) {
      expect((await suspend(cookie, c.target.username, { reason: "Again", days: 9 })).status).toBe(status);
      expect((await unsuspend(cookie, c.target.username)).status).toBe(status);
      expect(await stateOf(c.target)).toEqual(before);
    }
  });

  it("moderators suspend members, not moderators or admins; admins suspend anyone but themselves", async () => {
    const c = await cast();
    const otherModerator = await createStaff("moderator");
    const otherAdmin = await createStaff("admin");
    for (const staff of [otherModerator, otherAdmin, c.moderator]) {
      const before = await stateOf(staff);
      const res = await suspend(c.moderator.cookie, staff.username, { reason: "No" });
      expect(res.status).toBe(403);
      expect((await unsuspend(c.moderator.cookie, staff.username)).status).toBe(403);
      expect(await stateOf(staff)).toEqual(before);
    }
    expect((await (await suspend(c.moderator.cookie, otherModerator.username, { reason: "No" })).json()).error).toMatch(/Only admins/);
    const self = await stateOf(c.admin);
    expect((await suspend(c.admin.cookie, c.admin.username, { reason: "Me" })).status).toBe(403);
    expect(await stateOf(c.admin)).toEqual(self);

    expect((await suspend(c.admin.cookie, otherModerator.username, { reason: "Abuse of tools" })).status).toBe(200);
    expect(await signedIn(otherModerator.cookie)).toBe(false);
    expect((await unsuspend(c.admin.cookie, otherModerator.username)).status).toBe(200);
    expect((await userRow(otherModerator.id)).suspendedAt).toBeNull();
  });

  it("bad input is 400 and changes nothing; no such member is 404", async () => {
    const c = await cast();
    const before = await stateOf(c.target);
    for (const body of [
      {},
      { reason: "   " },
      { reason: "x".repeat(501) },
      { reason: "ok", days: 0 },
      { reason: "ok", days: 1.5 },
      { reason: "ok", days: 3651 },
      { reason: "ok", days: "soon" },
    ]) {
      const res = await suspend(c.moderator.cookie, c.target.username, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await stateOf(c.target)).toEqual(before);
    expect((await suspend(c.moderator.cookie, "no_such_member", { reason: "Spam" })).status).toBe(404);
    expect((await unsuspend(c.moderator.cookie, "no_such_member")).status).toBe(404);
    expect(await logCount()).toBe(before.log);
  });
});

describe("what a suspension does", () => {
  it("ends every session, logs the decision, blocks sign-in with the reason and the date, keeps nothing else from changing", async () => {
    const c = await cast();
    const second = (await commitUserSession(c.target)).split(";")[0]!;
    expect(await sessionCount(c.target.id)).toBe(2);
    const res = await suspend(c.moderator.cookie, c.target.username, { reason: "Posting spam links", days: 7 });
    expect(res.status).toBe(200);
    const status = await res.json();
    expect(status).toMatchObject({ username: c.target.username, suspended: true, suspensionReason: "Posting spam links" });
    expect(await sessionCount(c.target.id)).toBe(0);
    expect(await signedIn(c.target.cookie)).toBe(false);
    expect(await signedIn(second)).toBe(false);
    const [entry] = await db.select().from(moderationLog).where(eq(moderationLog.targetId, c.target.id));
    expect(entry).toMatchObject({
      actorId: c.moderator.id,
      actorName: c.moderator.username,
      action: "suspend",
      targetType: "user",
      reason: "Posting spam links (7 days)",
    });

    const until = new Date(status.suspendedUntil);
    const message = `Your account is suspended until ${dayAtClock(until)}: Posting spam links.`;
    expect(message).toMatch(/until \d{1,2} [A-Z][a-z]+ 20\d\d at \d\d:\d\d UTC:/);
    const api = await apiLogin(c.target.username, c.target.password);
    expect(api.status).toBe(403);
    expect((await api.json()).error).toBe(message);
    // In the member's own zone, with the time of day, when the request names it (ux-3 U7).
    const chicago = await requestNotes.run({ timeZone: "America/Chicago" }, () => apiLogin(c.target.username, c.target.password));
    expect((await chicago.json()).error).toBe(
      `Your account is suspended until ${dayAtClock(until, "America/Chicago")}: Posting spam links.`,
    );
    // Where to ask or appeal, when the operator names an address.
    env.CONTACT_EMAIL = "moderators@pulse.example.org";
    try {
      expect((await (await apiLogin(c.target.username, c.target.password)).json()).error).toBe(
        `${message} Questions or an appeal: write to moderators@pulse.example.org.`,
      );
    } finally {
      env.CONTACT_EMAIL = undefined;
    }
    expect(dayAtClock(until, "America/Chicago")).toMatch(/ C[SD]T$/);
    expect(api.headers.getSetCookie()).toEqual([]);
    // A wrong password still says only that the pair is wrong.
    expect((await apiLogin(c.target.username, "wrongpass1")).status).toBe(401);
    const page = await pageLogin(c.target.username, c.target.password);
    expect(page.status).toBe(403);
    expect(JSON.stringify(await page.json())).toContain(message);
    expect(await sessionCount(c.target.id)).toBe(0);

    // A session made anyway (a reset link's sign-in) reads as signed out while suspended.
    const sneaked = (await commitUserSession(c.target)).split(";")[0]!;
    expect(await signedIn(sneaked)).toBe(false);

    expect((await unsuspend(c.moderator.cookie, c.target.username)).status).toBe(200);
    expect((await apiLogin(c.target.username, c.target.password)).status).toBe(200);
    expect((await db.select().from(moderationLog).where(eq(moderationLog.targetId, c.target.id))).map((e) => e.action)).toEqual([
      "suspend",
      "unsuspend",
    ]);
  });

  it("until lifted says so; an ended suspension lets the member in", async () => {
    const c = await cast();
    await suspend(c.moderator.cookie, c.target.username, { reason: "Harassment" });
    const res = await apiLogin(c.target.username, c.target.password);
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe("Your account is suspended until a moderator lifts it: Harassment.");

    const later = await createMember();
    await suspendMember(c.moderator, later.username, { reason: "Cool off", days: 1 }, Date.now() - 2 * DAY);
    expect((await userRow(later.id)).suspendedAt).not.toBeNull();
    const back = await apiLogin(later.username, later.password);
    expect(back.status).toBe(200);
    expect(await signedIn(back.headers.getSetCookie()[0]!.split(";")[0]!)).toBe(true);
  });
});

describe("the page a member had open when suspended (ux-3 U7)", () => {
  /** What the layout's loader answers a page request with this cookie: the note, and whether the cookie is dropped. */
  const openPage = async (cookie: string, notes: { timeZone?: string } = {}) => {
    const res = await requestNotes.run(notes, () => call(rootLoader, makeRequest("/notifications", { cookie })));
    const body = await res.json();
    // The note is a toast that stays until dismissed (error, sticky), in the layout's data.
    const toast = body.toast as { title: string; description?: string; sticky?: boolean } | null;
    return {
      signedOut: toast?.title === "You have been signed out" && toast.sticky ? (toast.description ?? null) : null,
      user: body.user,
      dropped: res.headers.getSetCookie().some((c) => c.startsWith("__session=;")),
    };
  };

  it("tells every device why it was signed out, once, in the member's zone", async () => {
    const c = await cast();
    const phone = (await commitUserSession(c.target)).split(";")[0]!;
    expect((await openPage(c.target.cookie)).signedOut).toBeNull();
    const res = await suspend(c.moderator.cookie, c.target.username, { reason: "Posting spam links", days: 3 });
    const until = new Date((await res.json()).suspendedUntil);

    const first = await openPage(c.target.cookie, { timeZone: "America/Chicago" });
    expect(first.user).toBeNull();
    expect(first.dropped).toBe(true);
    expect(first.signedOut).toBe(`Your account is suspended until ${dayAtClock(until, "America/Chicago")}: Posting spam links.`);
    // The phone's page, in UTC (no zone known), tells it too.
    expect((await openPage(phone)).signedOut).toBe(`Your account is suspended until ${dayAtClock(until)}: Posting spam links.`);
    // The answer told it and dropped the cookie: a browser that kept it anyway is still not signed in.
    expect((await openPage(c.target.cookie)).user).toBeNull();
    // Only hashes are kept, one per ended session.
    const kept = await db.select().from(endedSessions).where(eq(endedSessions.userId, c.target.id));
    expect(kept).toHaveLength(2);
    expect(kept.every((k) => k.reason === "suspended" && /^[0-9a-f]{64}$/.test(k.tokenHash))).toBe(true);
  });

  it("says nothing once the suspension is lifted or over, for a logout, or after 30 days; the record is swept", async () => {
    const c = await cast();
    await suspend(c.moderator.cookie, c.target.username, { reason: "Cool off", days: 1 });
    expect((await openPage(c.target.cookie)).signedOut).toMatch(/^Your account is suspended until/);
    await unsuspend(c.moderator.cookie, c.target.username);
    const lifted = await openPage(c.target.cookie);
    expect(lifted).toMatchObject({ signedOut: null, user: null, dropped: true });

    // A suspension that has run its course: its sessions say nothing.
    const over = await createMember();
    await suspendMember(c.moderator, over.username, { reason: "Cool off", days: 1 }, Date.now() - 2 * DAY);
    expect((await openPage(over.cookie)).signedOut).toBeNull();

    // A session that ended otherwise (a logout) says nothing, even for a member suspended since.
    const other = await createMember();
    await db.delete(sessions).where(eq(sessions.userId, other.id));
    await suspend(c.moderator.cookie, other.username, { reason: "Spam" });
    expect((await openPage(other.cookie)).signedOut).toBeNull();

    // Told at most as long as the cookie could have lived; then swept.
    const late = await createMember();
    await suspend(c.moderator.cookie, late.username, { reason: "Spam" });
    await db
      .update(endedSessions)
      .set({ endedAt: new Date(Date.now() - SESSION_LIFETIME_MS - 1000) })
      .where(eq(endedSessions.userId, late.id));
    expect((await openPage(late.cookie)).signedOut).toBeNull();
    await pruneExpiredSessions();
    expect(await db.select().from(endedSessions).where(eq(endedSessions.userId, late.id))).toHaveLength(0);
  });
});

describe("the staff page /moderation/members/{username}", () => {
  const open = (cookie: string | null, username: string) =>
    call(staffPage.loader, makeRequest(`/moderation/members/${username}`, { cookie }), { username });
  const post = (cookie: string | null, username: string, form: Record<string, string>) =>
    call(staffPage.action, makeRequest(`/moderation/members/${username}`, { form, cookie }), { username });

  it("is for site staff only", async () => {
    const c = await cast();
    expect((await open(null, c.target.username)).status).toBe(302);
    for (const who of [c.member, c.clubMember, c.clubAdmin, c.owner]) expect((await open(who.cookie, c.target.username)).status).toBe(403);
    const seen = await (await open(c.moderator.cookie, c.target.username)).json();
    expect(seen).toMatchObject({ member: { username: c.target.username, suspended: false }, maySuspend: true });
    expect((await open(c.moderator.cookie, "no_such_member")).status).toBe(404);
    const before = await stateOf(c.target);
    expect((await post(null, c.target.username, { intent: "suspend", reason: "x" })).status).toBe(302);
    for (const who of [c.member, c.owner, c.clubAdmin])
      expect((await post(who.cookie, c.target.username, { intent: "suspend", reason: "x" })).status).toBe(403);
    expect(await stateOf(c.target)).toEqual(before);
  });

  it("keeps the typed reason on a bad number of days, suspends, shows the log, lifts", async () => {
    const c = await cast();
    const bad = await post(c.moderator.cookie, c.target.username, { intent: "suspend", reason: "Selling tags", days: "0" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      intent: "suspend",
      values: { reason: "Selling tags", days: "0" },
      fieldErrors: { days: ["Days must be at least 1"] },
    });
    expect((await userRow(c.target.id)).suspendedAt).toBeNull();

    const ok = await post(c.moderator.cookie, c.target.username, { intent: "suspend", reason: "Selling tags", days: "" });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe(`/moderation/members/${c.target.username}`);
    const seen = await (await open(c.moderator.cookie, c.target.username)).json();
    expect(seen.member).toMatchObject({ suspended: true, suspendedUntil: null, suspensionReason: "Selling tags" });
    expect(seen.log).toEqual([
      expect.objectContaining({ action: "suspend", actor: c.moderator.username, reason: "Selling tags (until lifted)" }),
    ]);

    expect((await post(c.moderator.cookie, c.target.username, { intent: "unsuspend" })).status).toBe(302);
    expect((await userRow(c.target.id)).suspendedAt).toBeNull();
    const staffSeen = await (await open(c.moderator.cookie, c.admin.username)).json();
    expect(staffSeen).toMatchObject({ maySuspend: false, refusal: expect.stringMatching(/Only admins/) });
  });
});

describe("GET /api/moderation/log", () => {
  const log = (cookie: string | null, cursor?: string) =>
    call(logApi, makeRequest(`/api/moderation/log${cursor ? `?cursor=${cursor}` : ""}`, { cookie }));

  it("visitor 401, member and club member 403; club staff see their club's entries, site staff all, in pages", async () => {
    const c = await cast();
    await writeTransaction(async (tx) => {
      for (let i = 0; i < 3; i++)
        await logDecision(tx, {
          actor: c.moderator,
          action: "remove",
          targetType: "post",
          targetId: 9000 + i,
          targetLabel: `Post ${i}`,
          clubId: i === 0 ? c.club.id : null,
          reason: "Spam",
        });
    });
    expect((await log(null)).status).toBe(401);
    for (const who of [c.member, c.clubMember]) expect((await log(who.cookie)).status).toBe(403);
    for (const who of [c.owner, c.clubAdmin]) {
      const page = await (await log(who.cookie)).json();
      expect(page.entries.map((e: { targetId: number }) => e.targetId)).toEqual([9000]);
    }
    for (const who of [c.moderator, c.admin]) {
      const res = await log(who.cookie);
      expect(res.status).toBe(200);
      const page = await res.json();
      expect(page.entries.length).toBeGreaterThanOrEqual(3);
      expect(page.entries[0]).toMatchObject({
        actor: c.moderator.username,
        action: "remove",
        targetType: "post",
        targetId: 9002,
        reason: "Spam",
      });
      expect(page).toHaveProperty("nextCursor");
    }
  });
});

import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { clubMembers, invites, users } from "#db/schema";
import { registerUser } from "~/models/members/user.server";
import { inviteSchema } from "~/schemas/club";
import { db, first, writeTransaction } from "~/utils/db.server";
import { createMember } from "#tests/fixtures/members";
import { raceProcesses } from "#tests/fixtures/processes";
import { clubCast, expectError, type Member, memberCount, membershipRows, newClub as createFixtureClub } from "#tests/fixtures/clubs";
import { admitMember, assertMayJoin, decideJoinRequest, joinClub, leaveClub, listJoinRequests } from "./club-membership.server";
import { getMembership } from "~/models/access.server";
import { getClub } from "./club.server";
import { acceptInvite, createInvite, getInvite, INVALID_INVITE, joinNewMemberWithInvite, listInvites, revokeInvite } from "./invite.server";

const newClub = (owner: { id: number }, overrides: Record<string, unknown> = {}) =>
  createFixtureClub(owner, { description: "Members only", ...overrides });
const invite = (actor: { id: number } | null, clubId: number, input: Record<string, unknown> = {}, now?: Date) =>
  createInvite(actor, clubId, inviteSchema.parse(input), now);
const usesLeft = async (code: string) =>
  first(await db.select({ n: invites.usesRemaining }).from(invites).where(eq(invites.code, code)))?.n;

let owner: Member;
let alice: Member;
let bob: Member;

beforeEach(async () => {
  ({ owner, alice, bob } = await clubCast());
});

describe("createInvite", () => {
  it("members only: anonymous 401, non-member 403, pending 403, member and owner 201", async () => {
    const club = await newClub(owner);
    await expectError(() => invite(null, club.id), 401);
    await expectError(() => invite(alice, club.id), 403);
    await joinClub(alice, club.id); // pending
    await expectError(() => invite(alice, club.id), 403);
    await expectError(() => invite(owner, 999_999), 404);
    const made = await invite(owner, club.id);
    expect(made).toMatchObject({ clubId: club.id, usesRemaining: null, expiresAt: null, club: { name: "Creek Bottom Lease" } });
    const pub = await newClub(owner, { isPrivate: false });
    await joinClub(bob, pub.id);
    expect((await invite(bob, pub.id)).clubId).toBe(pub.id);
  });

  it("codes are random, URL-safe and carry at least 64 bits", async () => {
    const club = await newClub(owner);
    const codes = new Set<string>();
    for (let i = 0; i < 50; i++) codes.add((await invite(owner, club.id)).inviteCode);
    expect(codes.size).toBe(50);
    for (const code of codes) {
      expect(code).toMatch(/^[A-Za-z0-9_-]+$/);
      // base64url: 6 bits per character.
      expect(code.length * 6).toBeGreaterThanOrEqual(64);
    }
  });

  it("expiry is in hours; uses are counted", async () => {
    const club = await newClub(owner);
    const now = new Date("2026-11-01T12:00:00Z");
    const made = await invite(owner, club.id, { usesRemaining: "3", expiresIn: "48" }, now);
    expect(made.usesRemaining).toBe(3);
    expect(made.expiresAt).toBe("2026-11-03T12:00:00.000Z");
  });

  it("rejects non-integers and values under 1 (SPEC.md §5 Invite form)", async () => {
    expect(inviteSchema.safeParse({ usesRemaining: "0" }).success).toBe(false);
    expect(inviteSchema.safeParse({ expiresIn: 0 }).success).toBe(false);
    expect(inviteSchema.safeParse({ expiresIn: "1.5" }).success).toBe(false);
    expect(inviteSchema.safeParse({ usesRemaining: "abc" }).success).toBe(false);
    expect(inviteSchema.parse({ usesRemaining: "", expiresIn: "" })).toEqual({});
    expect(inviteSchema.parse({ usesRemaining: null })).toEqual({});
  });
});

describe("getInvite", () => {
  it("shows a usable invite; unknown, expired, used-up and revoked ones are 404", async () => {
    const club = await newClub(owner, { imageUrl: "https://example.com/club.jpg" });
    const now = new Date();
    const made = await invite(owner, club.id, { usesRemaining: 1, expiresIn: 2 }, now);
    expect(await getInvite(made.inviteCode, now)).toMatchObject({
      inviteCode: made.inviteCode,
      usesRemaining: 1,
      clubId: club.id,
      club: { name: "Creek Bottom Lease", description: "Members only", avatar: "https://example.com/club.jpg" },
    });
    await expectError(() => getInvite("no-such-code-here"), 404, INVALID_INVITE);
    await expectError(() => getInvite("../../etc"), 404, INVALID_INVITE);
    // Expired two hours later.
    await expectError(() => getInvite(made.inviteCode, new Date(now.getTime() + 2 * 3_600_000 + 1)), 404);
    // Used up.
    await acceptInvite(alice, made.inviteCode, undefined, now);
    await expectError(() => getInvite(made.inviteCode, now), 404);
    // Revoked.
    const other = await invite(owner, club.id);
    await revokeInvite(owner, club.id, (await listInvites(owner, club.id)).find((i) => i.inviteCode === other.inviteCode)!.id);
    await expectError(() => getInvite(other.inviteCode), 404);
  });
});

describe("acceptInvite", () => {
  it("admits directly even to a private club and counts each use", async () => {
    const club = await newClub(owner);
    const made = await invite(owner, club.id, { usesRemaining: 2 });
    expect(await acceptInvite(alice, made.inviteCode)).toEqual({ status: "joined", clubId: club.id });
    expect(await getMembership(club.id, alice.id)).toEqual({ role: "member" });
    expect(await memberCount(club.id)).toBe(2);
    expect(await usesLeft(made.inviteCode)).toBe(1);
    expect(await acceptInvite(bob, made.inviteCode)).toEqual({ status: "joined", clubId: club.id });
    expect(await usesLeft(made.inviteCode)).toBe(0);
    return createMember().then(async (carol) => {
      await expectError(() => acceptInvite(carol, made.inviteCode), 400, INVALID_INVITE);
      expect(await getMembership(club.id, carol.id)).toBeNull();
    });
  });

  it("unlimited invites stay unlimited", async () => {
    const club = await newClub(owner);
    const made = await invite(owner, club.id);
    await acceptInvite(alice, made.inviteCode);
    await acceptInvite(bob, made.inviteCode);
    expect(await usesLeft(made.inviteCode)).toBeNull();
    expect((await getInvite(made.inviteCode)).usesRemaining).toBeNull();
  });

  it("refuses an expired invite", async () => {
    const club = await newClub(owner);
    const then = new Date(Date.now() - 5 * 3_600_000);
    const made = await invite(owner, club.id, { expiresIn: 1 }, then);
    await expectError(() => acceptInvite(alice, made.inviteCode), 400, INVALID_INVITE);
    expect(await getMembership(club.id, alice.id)).toBeNull();
  });

  // Issue 14 (Beyond SPEC #17) changed the pending case: it was 409 'Join request already pending'.
  it("already a member: 409 and no use taken; pending: admitted, one use taken; anonymous: 401", async () => {
    const club = await newClub(owner);
    const made = await invite(owner, club.id, { usesRemaining: 5 });
    await expectError(() => acceptInvite(owner, made.inviteCode), 409, "Already a member of this club");
    expect(await usesLeft(made.inviteCode)).toBe(5);
    await joinClub(alice, club.id);
    expect(await acceptInvite(alice, made.inviteCode)).toEqual({ status: "joined", clubId: club.id });
    expect(await usesLeft(made.inviteCode)).toBe(4);
    await expectError(() => acceptInvite(null, made.inviteCode), 401);
  });

  it("a full club: 409 'Club is full' and the use is not consumed", async () => {
    const club = await newClub(owner, { memberLimit: 2 });
    const made = await invite(owner, club.id, { usesRemaining: 5 });
    await acceptInvite(alice, made.inviteCode);
    await expectError(() => acceptInvite(bob, made.inviteCode), 409, "Club is full");
    expect(await usesLeft(made.inviteCode)).toBe(4);
    expect(await memberCount(club.id)).toBe(2);
  });

  it("a code for another club is refused when a club is named", async () => {
    const club = await newClub(owner);
    const other = await newClub(owner);
    const made = await invite(owner, club.id);
    await expectError(() => acceptInvite(alice, made.inviteCode, other.id), 400, INVALID_INVITE);
    expect((await acceptInvite(alice, made.inviteCode, club.id)).status).toBe("joined");
  });

  it("a rejected requester can still come in through an invite", async () => {
    const club = await newClub(owner);
    await joinClub(alice, club.id);
    await decideJoinRequest(owner, club.id, (await listJoinRequests(owner, club.id))[0].id, "reject");
    expect((await acceptInvite(alice, (await invite(owner, club.id)).inviteCode)).status).toBe("joined");
    expect(await getClub(alice, club.id)).toMatchObject({ isMember: true, requestStatus: "none" });
  });
});

describe("listInvites and revokeInvite", () => {
  it("members see active invites; the maker or the owner may revoke", async () => {
    const club = await newClub(owner, { isPrivate: false });
    await joinClub(alice, club.id);
    await joinClub(bob, club.id);
    const byAlice = await invite(alice, club.id, { usesRemaining: 3 });
    const byOwner = await invite(owner, club.id);
    const outsider = await createMember();

    await expectError(() => listInvites(null, club.id), 401);
    await expectError(() => listInvites(outsider, club.id), 403);
    const seenByBob = await listInvites(bob, club.id);
    expect(seenByBob.map((i) => i.inviteCode)).toEqual([byOwner.inviteCode, byAlice.inviteCode]);
    expect(seenByBob.every((i) => !i.canRevoke)).toBe(true);
    expect((await listInvites(alice, club.id)).find((i) => i.inviteCode === byAlice.inviteCode)?.canRevoke).toBe(true);
    expect((await listInvites(owner, club.id)).every((i) => i.canRevoke)).toBe(true);

    const aliceInviteId = seenByBob.find((i) => i.inviteCode === byAlice.inviteCode)!.id;
    const ownerInviteId = seenByBob.find((i) => i.inviteCode === byOwner.inviteCode)!.id;
    await expectError(() => revokeInvite(null, club.id, aliceInviteId), 401);
    await expectError(() => revokeInvite(bob, club.id, aliceInviteId), 403);
    await expectError(() => revokeInvite(outsider, club.id, aliceInviteId), 403);
    await expectError(() => revokeInvite(alice, club.id, ownerInviteId), 403);
    await expectError(() => revokeInvite(owner, club.id + 1000, aliceInviteId), 404);
    await revokeInvite(alice, club.id, aliceInviteId);
    await revokeInvite(owner, club.id, ownerInviteId);
    expect(await listInvites(owner, club.id)).toEqual([]);
  });
});

describe("an invite stops working when its maker is no longer a member (security-2 N6)", () => {
  /** A private club with alice as a member who made an invite. */
  async function aliceInvites() {
    const club = await newClub(owner);
    await acceptInvite(alice, (await invite(owner, club.id)).inviteCode);
    const made = await invite(alice, club.id);
    expect((await getInvite(made.inviteCode)).clubId).toBe(club.id);
    return { club, code: made.inviteCode };
  }

  it("the maker left: 404 to read, refused to join (like an expired one), gone from the list, no use taken", async () => {
    const { club, code } = await aliceInvites();
    await leaveClub(alice, club.id);
    await expectError(() => getInvite(code), 404, INVALID_INVITE);
    await expectError(() => acceptInvite(bob, code), 400, INVALID_INVITE);
    await expectError(() => acceptInvite(bob, code, club.id), 400, INVALID_INVITE);
    expect(await getMembership(club.id, bob.id)).toBeNull();
    expect((await listInvites(owner, club.id)).map((i) => i.inviteCode)).not.toContain(code);
  });

  it("the maker was removed: the same, and a new account cannot join with it either", async () => {
    const { club, code } = await aliceInvites();
    await db.delete(clubMembers).where(sql`${clubMembers.clubId} = ${club.id} AND ${clubMembers.userId} = ${alice.id}`);
    await expectError(() => getInvite(code), 404, INVALID_INVITE);
    await expectError(() => acceptInvite(bob, code), 400, INVALID_INVITE);
    await expect(
      registerUser(
        { username: "after_removal", displayName: "New Hunter", email: "after_removal@example.com", password: "secret123" },
        async (row) => void (await joinNewMemberWithInvite(db, code, row.id)),
      ),
    ).rejects.toMatchObject({ status: 400 });
  });

  it("the maker came back: their invite works again; the owner's invites work throughout", async () => {
    const { club, code } = await aliceInvites();
    const owners = (await invite(owner, club.id)).inviteCode;
    await leaveClub(alice, club.id);
    expect((await getInvite(owners)).clubId).toBe(club.id);
    expect(await acceptInvite(bob, owners)).toEqual({ status: "joined", clubId: club.id });
    await acceptInvite(alice, (await invite(owner, club.id)).inviteCode);
    expect((await getInvite(code)).clubId).toBe(club.id);
  });
});

describe("register-with-invite inside the account's transaction", () => {
  const input = (name: string) => ({ username: name, displayName: "New Hunter", email: `${name}@example.com`, password: "secret123" });

  it("a good code makes the new account a member in the same transaction", async () => {
    const club = await newClub(owner);
    const made = await invite(owner, club.id, { usesRemaining: 1 });
    let clubId = 0;
    const user = await registerUser(input("invitee_ok"), async (row, tx) => {
      clubId = await joinNewMemberWithInvite(tx, made.inviteCode, row.id);
    });
    expect(clubId).toBe(club.id);
    expect(await getMembership(club.id, user.id)).toEqual({ role: "member" });
    expect(await usesLeft(made.inviteCode)).toBe(0);
  });

  it("a bad, used-up or full-club code creates no account", async () => {
    const club = await newClub(owner, { memberLimit: 2 });
    const made = await invite(owner, club.id, { usesRemaining: 5 });
    await acceptInvite(alice, made.inviteCode);
    const count = async () => first(await db.select({ n: sql<number>`count(*)` }).from(users))?.n;
    const before = await count();
    await expect(
      registerUser(input("invitee_bad"), async (row, tx) => void (await joinNewMemberWithInvite(tx, "not-a-real-code", row.id))),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      registerUser(input("invitee_full"), async (row, tx) => void (await joinNewMemberWithInvite(tx, made.inviteCode, row.id))),
    ).rejects.toMatchObject({
      status: 409,
      message: "Club is full",
    });
    expect(await count()).toBe(before);
    expect(await usesLeft(made.inviteCode)).toBe(4);
  });
});

describe("races for the last place and the last use", () => {
  it("interleaved: two joins that both passed their checks cannot both take the last place", async () => {
    const club = await newClub(owner, { isPrivate: false, memberLimit: 2 });
    await writeTransaction(async (tx) => {
      await assertMayJoin(tx, club.id, alice.id);
      await assertMayJoin(tx, club.id, bob.id);
      await admitMember(tx, club.id, alice.id);
      await expectError(() => admitMember(tx, club.id, bob.id), 409, "Club is full");
    });
    expect(await memberCount(club.id)).toBe(2);
    expect(await membershipRows(club.id)).toBe(2);
  });

  type Outcome = { ok: boolean; status?: number | null; error?: string; code?: string | null };

  /** One process (its own SQLite connection) per racer; once all are loaded, they fire together. */
  const race = (mode: "join" | "invite", target: string | number, userIds: number[]) =>
    raceProcesses<Outcome>(
      "tests/integration/club-race.worker.ts",
      userIds.map((userId) => [mode, String(target), String(userId)]),
    );

  async function racers(n: number) {
    const list: Member[] = [];
    for (let i = 0; i < n; i++) list.push(await createMember());
    return list;
  }

  it("processes racing for the last place: exactly one gets it, the rest get 'Club is full'", async () => {
    const club = await newClub(owner, { isPrivate: false, memberLimit: 3 });
    await joinClub(alice, club.id); // one place left
    const people = await racers(5);
    const outcomes = await race(
      "join",
      club.id,
      people.map((p) => p.id),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    for (const o of outcomes.filter((o) => !o.ok)) expect(o).toMatchObject({ status: 409, error: "Club is full" });
    expect(await memberCount(club.id)).toBe(3);
    expect(await membershipRows(club.id)).toBe(3);
  }, 60_000);

  it("processes racing for an invite's last use: exactly one is admitted", async () => {
    const club = await newClub(owner);
    const made = await invite(owner, club.id, { usesRemaining: 1 });
    const people = await racers(5);
    const outcomes = await race(
      "invite",
      made.inviteCode,
      people.map((p) => p.id),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    for (const o of outcomes.filter((o) => !o.ok)) expect(o).toMatchObject({ status: 400, error: INVALID_INVITE });
    expect(await usesLeft(made.inviteCode)).toBe(0);
    expect(await memberCount(club.id)).toBe(2);
    await leaveClub(
      people.find((_, i) => outcomes[i].ok)!,
      club.id,
    );
    expect(await memberCount(club.id)).toBe(1);
  }, 60_000);
});

import { beforeEach, describe, expect, it } from "vitest";
import { createMember } from "#tests/fixtures/members";
import { clubCast, expectError, type Member, memberCount, newClub } from "#tests/fixtures/clubs";
import { getMembership } from "~/models/access.server";
import {
  countPendingRequests,
  decideJoinRequest,
  joinClub,
  leaveClub,
  listJoinRequests,
  listMembers,
  REMOVAL_KEEPS_OUT_DAYS,
  removeClubMember,
  removedUntil,
  setClubMemberRole,
} from "./club-membership.server";
import { acceptInvite, createInvite, getInvite } from "./invite.server";
import { getClub } from "./club.server";

let owner: Member;
let alice: Member;
let bob: Member;

beforeEach(async () => {
  ({ owner, alice, bob } = await clubCast());
});

describe("joining (SPEC.md §4 Join request)", () => {
  it("a public club admits directly and counts the member", async () => {
    const club = await newClub(owner, { isPrivate: false });
    expect(await joinClub(alice, club.id)).toEqual({ status: "joined" });
    expect(await memberCount(club.id)).toBe(2);
    expect(await getMembership(club.id, alice.id)).toEqual({ role: "member" });
    await expectError(() => joinClub(alice, club.id), 409, "Already a member of this club");
    await expectError(() => joinClub(owner, club.id), 409, "Already a member of this club");
  });

  it("refuses visitors and missing clubs", async () => {
    const club = await newClub(owner, { isPrivate: false });
    await expectError(() => joinClub(null, club.id), 401);
    await expectError(() => joinClub(alice, 999_999), 404, "Club Not Found");
  });

  it("none -> pending -> approved makes a member; a second request while pending is 409", async () => {
    const club = await newClub(owner);
    expect(await joinClub(alice, club.id, { message: "I hunt the next farm over" })).toEqual({ status: "pending" });
    expect(await memberCount(club.id)).toBe(1);
    await expectError(() => joinClub(alice, club.id), 409, "Join request already pending");
    expect(await countPendingRequests(club.id)).toBe(1);
    const [request] = await listJoinRequests(owner, club.id);
    expect(request).toMatchObject({ message: "I hunt the next farm over", user: { id: alice.id, username: alice.username } });
    expect(await decideJoinRequest(owner, club.id, request.id, "approve")).toEqual({ status: "approved" });
    expect(await memberCount(club.id)).toBe(2);
    expect(await countPendingRequests(club.id)).toBe(0);
    await expectError(() => decideJoinRequest(owner, club.id, request.id, "reject"), 409);
  });

  it("pending -> rejected -> re-apply -> pending again, reusing the one request row", async () => {
    const club = await newClub(owner);
    await joinClub(alice, club.id, { message: "first" });
    const [request] = await listJoinRequests(owner, club.id);
    expect(await decideJoinRequest(owner, club.id, request.id, "reject")).toEqual({ status: "rejected" });
    expect((await getClub(alice, club.id)).requestStatus).toBe("rejected");
    expect(await getMembership(club.id, alice.id)).toBeNull();
    expect(await listJoinRequests(owner, club.id)).toEqual([]);
    expect(await joinClub(alice, club.id, { message: "second try" })).toEqual({ status: "pending" });
    const again = await listJoinRequests(owner, club.id);
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ id: request.id, message: "second try" });
    expect((await getClub(alice, club.id)).requestStatus).toBe("pending");
  });

  it("a full club refuses joins and requests with 'Club is full'", async () => {
    const pub = await newClub(owner, { isPrivate: false, memberLimit: 2 });
    await joinClub(alice, pub.id);
    await expectError(() => joinClub(bob, pub.id), 409, "Club is full");
    expect(await memberCount(pub.id)).toBe(2);
    const priv = await newClub(owner, { memberLimit: 2 });
    await joinClub(alice, priv.id);
    await decideJoinRequest(owner, priv.id, (await listJoinRequests(owner, priv.id))[0].id, "approve");
    await expectError(() => joinClub(bob, priv.id), 409, "Club is full");
  });

  it("approving into a full club is refused and the request stays pending", async () => {
    const club = await newClub(owner, { memberLimit: 2 });
    await joinClub(alice, club.id);
    await joinClub(bob, club.id);
    const [first, second] = await listJoinRequests(owner, club.id);
    await decideJoinRequest(owner, club.id, first.id, "approve");
    await expectError(() => decideJoinRequest(owner, club.id, second.id, "approve"), 409, "Club is full");
    expect((await getClub(bob, club.id)).requestStatus).toBe("pending");
    expect(await memberCount(club.id)).toBe(2);
    // Rejecting is still possible.
    expect(await decideJoinRequest(owner, club.id, second.id, "reject")).toEqual({ status: "rejected" });
  });
});

describe("requests: permissions (anonymous / non-member / pending / member / owner)", () => {
  it("only the owner lists and decides requests", async () => {
    const club = await newClub(owner);
    const member = await createMember();
    await joinClub(member, club.id);
    await decideJoinRequest(owner, club.id, (await listJoinRequests(owner, club.id))[0].id, "approve");
    await joinClub(alice, club.id); // alice is pending
    const [request] = await listJoinRequests(owner, club.id);

    await expectError(() => listJoinRequests(null, club.id), 401);
    await expectError(() => listJoinRequests(bob, club.id), 403);
    await expectError(() => listJoinRequests(alice, club.id), 403);
    await expectError(() => listJoinRequests(member, club.id), 403);
    await expectError(() => listJoinRequests(owner, 999_999), 404);

    await expectError(() => decideJoinRequest(null, club.id, request.id, "approve"), 401);
    await expectError(() => decideJoinRequest(bob, club.id, request.id, "approve"), 403);
    await expectError(() => decideJoinRequest(alice, club.id, request.id, "approve"), 403);
    await expectError(() => decideJoinRequest(member, club.id, request.id, "approve"), 403);
    expect((await getClub(alice, club.id)).requestStatus).toBe("pending");

    // A request of another club is not found through this one.
    const other = await newClub(owner);
    await expectError(() => decideJoinRequest(owner, other.id, request.id, "approve"), 404);
    await expectError(() => decideJoinRequest(owner, club.id, 999_999, "approve"), 404);
  });
});

describe("leaving", () => {
  it("a member leaves and the count drops; the owner cannot; others are told", async () => {
    const club = await newClub(owner, { isPrivate: false });
    await joinClub(alice, club.id);
    expect(await memberCount(club.id)).toBe(2);
    await leaveClub(alice, club.id);
    expect(await memberCount(club.id)).toBe(1);
    expect(await getMembership(club.id, alice.id)).toBeNull();
    await expectError(() => leaveClub(owner, club.id), 400, "The club owner cannot leave the club");
    await expectError(() => leaveClub(bob, club.id), 400);
    await expectError(() => leaveClub(null, club.id), 401);
    await expectError(() => leaveClub(alice, 999_999), 404);
    // Leaving frees the place: they may come back.
    expect(await joinClub(alice, club.id)).toEqual({ status: "joined" });
  });

  it("a member who left a private club may ask again", async () => {
    const club = await newClub(owner);
    await joinClub(alice, club.id);
    await decideJoinRequest(owner, club.id, (await listJoinRequests(owner, club.id))[0].id, "approve");
    await leaveClub(alice, club.id);
    expect(await getClub(alice, club.id)).toMatchObject({ isMember: false, requestStatus: "none" });
    expect(await joinClub(alice, club.id)).toEqual({ status: "pending" });
  });
});

describe("members", () => {
  it("lists owner first, with roles and joined dates, to anyone", async () => {
    const club = await newClub(owner, { isPrivate: false });
    await joinClub(alice, club.id);
    const members = await listMembers(club.id);
    expect(members.map((m) => [m.id, m.role])).toEqual([
      [owner.id, "owner"],
      [alice.id, "member"],
    ]);
    expect(members[0]).toMatchObject({ username: owner.username, displayName: owner.displayName });
    expect(members[0]).not.toHaveProperty("email");
    expect(Date.parse(members[1].joinedAt)).not.toBeNaN();
    await expectError(() => listMembers(999_999), 404);
  });
});

describe("a removal keeps the member out (CONTRACT.md §12, security-3 P7)", () => {
  const DAY = 86_400_000;
  const outUntil = (from: Date) => removedUntil(new Date(from.getTime() + REMOVAL_KEEPS_OUT_DAYS * DAY));

  it("of a public club: joining again is 409 with the date for 30 days, and nothing changes", async () => {
    const club = await newClub(owner, { isPrivate: false });
    await joinClub(alice, club.id);
    const removedAt = new Date();
    await removeClubMember(owner, club.id, alice.username, removedAt);
    await expectError(() => joinClub(alice, club.id), 409, outUntil(removedAt));
    expect(await getMembership(club.id, alice.id)).toBeNull();
    expect(await memberCount(club.id)).toBe(1);
    // Someone else is not kept out, and a member who left of their own accord is not either.
    await joinClub(bob, club.id);
    await leaveClub(bob, club.id);
    expect(await joinClub(bob, club.id)).toEqual({ status: "joined" });
  });

  it("of a private club: asking to join again is 409 and leaves no request for the staff", async () => {
    const club = await newClub(owner, { isPrivate: true });
    await acceptInvite(alice, (await createInvite(owner, club.id, {})).inviteCode);
    const removedAt = new Date();
    await removeClubMember(owner, club.id, alice.username, removedAt);
    await expectError(() => joinClub(alice, club.id, { message: "let me back" }), 409, outUntil(removedAt));
    expect(await countPendingRequests(club.id)).toBe(0);
  });

  it("another member's invite does not let them back (409, the invite's use kept); the owner's or an admin's does, and ends the bar", async () => {
    const club = await newClub(owner, { isPrivate: true });
    await acceptInvite(alice, (await createInvite(owner, club.id, {})).inviteCode);
    await acceptInvite(bob, (await createInvite(owner, club.id, {})).inviteCode);
    const removedAt = new Date();
    await removeClubMember(owner, club.id, alice.username, removedAt);

    const bobs = await createInvite(bob, club.id, { usesRemaining: 1 });
    await expectError(() => acceptInvite(alice, bobs.inviteCode), 409, outUntil(removedAt));
    expect(await getMembership(club.id, alice.id)).toBeNull();
    expect((await getInvite(bobs.inviteCode)).usesRemaining).toBe(1);

    const carol = await createMember();
    await acceptInvite(carol, (await createInvite(owner, club.id, {})).inviteCode);
    await setClubMemberRole(owner, club.id, carol.username, { role: "admin" });
    expect(await acceptInvite(alice, (await createInvite(carol, club.id, {})).inviteCode)).toMatchObject({ status: "joined" });
    // Admitted by the staff: the bar is gone, so leaving and asking again is an ordinary request.
    await leaveClub(alice, club.id);
    expect(await joinClub(alice, club.id)).toEqual({ status: "pending" });
  });

  it("ends after 30 days; a second removal starts it again", async () => {
    const club = await newClub(owner, { isPrivate: false });
    await joinClub(alice, club.id);
    await removeClubMember(owner, club.id, alice.username, new Date(Date.now() - (REMOVAL_KEEPS_OUT_DAYS + 1) * DAY));
    expect(await joinClub(alice, club.id)).toEqual({ status: "joined" });
    const again = new Date();
    await removeClubMember(owner, club.id, alice.username, again);
    await expectError(() => joinClub(alice, club.id), 409, outUntil(again));
  });
});

import { beforeEach, describe, expect, it } from "vitest";
import { createMember } from "#tests/fixtures/members";
import { clubCast, expectError, type Member, memberCount, newClub } from "#tests/fixtures/clubs";
import { getMembership } from "./access.server";
import { countPendingRequests, decideJoinRequest, joinClub, leaveClub, listJoinRequests, listMembers } from "./club-membership.server";
import { getClub } from "./club.server";

let owner: Member;
let alice: Member;
let bob: Member;

beforeEach(async () => {
  ({ owner, alice, bob } = await clubCast());
});

describe("joining (SPEC.md §4 Join request)", () => {
  it("a public club admits directly and counts the member", () => {
    const club = newClub(owner, { isPrivate: false });
    expect(joinClub(alice, club.id)).toEqual({ status: "joined" });
    expect(memberCount(club.id)).toBe(2);
    expect(getMembership(club.id, alice.id)).toEqual({ role: "member" });
    expectError(() => joinClub(alice, club.id), 409, "Already a member of this club");
    expectError(() => joinClub(owner, club.id), 409, "Already a member of this club");
  });

  it("refuses visitors and missing clubs", () => {
    const club = newClub(owner, { isPrivate: false });
    expectError(() => joinClub(null, club.id), 401);
    expectError(() => joinClub(alice, 999_999), 404, "Club Not Found");
  });

  it("none -> pending -> approved makes a member; a second request while pending is 409", () => {
    const club = newClub(owner);
    expect(joinClub(alice, club.id, { message: "I hunt the next farm over" })).toEqual({ status: "pending" });
    expect(memberCount(club.id)).toBe(1);
    expectError(() => joinClub(alice, club.id), 409, "Join request already pending");
    expect(countPendingRequests(club.id)).toBe(1);
    const [request] = listJoinRequests(owner, club.id);
    expect(request).toMatchObject({ message: "I hunt the next farm over", user: { id: alice.id, username: alice.username } });
    expect(decideJoinRequest(owner, club.id, request.id, "approve")).toEqual({ status: "approved" });
    expect(memberCount(club.id)).toBe(2);
    expect(countPendingRequests(club.id)).toBe(0);
    expectError(() => decideJoinRequest(owner, club.id, request.id, "reject"), 409);
  });

  it("pending -> rejected -> re-apply -> pending again, reusing the one request row", () => {
    const club = newClub(owner);
    joinClub(alice, club.id, { message: "first" });
    const [request] = listJoinRequests(owner, club.id);
    expect(decideJoinRequest(owner, club.id, request.id, "reject")).toEqual({ status: "rejected" });
    expect(getClub(alice, club.id).requestStatus).toBe("rejected");
    expect(getMembership(club.id, alice.id)).toBeNull();
    expect(listJoinRequests(owner, club.id)).toEqual([]);
    expect(joinClub(alice, club.id, { message: "second try" })).toEqual({ status: "pending" });
    const again = listJoinRequests(owner, club.id);
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ id: request.id, message: "second try" });
    expect(getClub(alice, club.id).requestStatus).toBe("pending");
  });

  it("a full club refuses joins and requests with 'Club is full'", () => {
    const pub = newClub(owner, { isPrivate: false, memberLimit: 2 });
    joinClub(alice, pub.id);
    expectError(() => joinClub(bob, pub.id), 409, "Club is full");
    expect(memberCount(pub.id)).toBe(2);
    const priv = newClub(owner, { memberLimit: 2 });
    joinClub(alice, priv.id);
    decideJoinRequest(owner, priv.id, listJoinRequests(owner, priv.id)[0].id, "approve");
    expectError(() => joinClub(bob, priv.id), 409, "Club is full");
  });

  it("approving into a full club is refused and the request stays pending", () => {
    const club = newClub(owner, { memberLimit: 2 });
    joinClub(alice, club.id);
    joinClub(bob, club.id);
    const [first, second] = listJoinRequests(owner, club.id);
    decideJoinRequest(owner, club.id, first.id, "approve");
    expectError(() => decideJoinRequest(owner, club.id, second.id, "approve"), 409, "Club is full");
    expect(getClub(bob, club.id).requestStatus).toBe("pending");
    expect(memberCount(club.id)).toBe(2);
    // Rejecting is still possible.
    expect(decideJoinRequest(owner, club.id, second.id, "reject")).toEqual({ status: "rejected" });
  });
});

describe("requests: permissions (anonymous / non-member / pending / member / owner)", () => {
  it("only the owner lists and decides requests", async () => {
    const club = newClub(owner);
    const member = await createMember();
    joinClub(member, club.id);
    decideJoinRequest(owner, club.id, listJoinRequests(owner, club.id)[0].id, "approve");
    joinClub(alice, club.id); // alice is pending
    const [request] = listJoinRequests(owner, club.id);

    expectError(() => listJoinRequests(null, club.id), 401);
    expectError(() => listJoinRequests(bob, club.id), 403);
    expectError(() => listJoinRequests(alice, club.id), 403);
    expectError(() => listJoinRequests(member, club.id), 403);
    expectError(() => listJoinRequests(owner, 999_999), 404);

    expectError(() => decideJoinRequest(null, club.id, request.id, "approve"), 401);
    expectError(() => decideJoinRequest(bob, club.id, request.id, "approve"), 403);
    expectError(() => decideJoinRequest(alice, club.id, request.id, "approve"), 403);
    expectError(() => decideJoinRequest(member, club.id, request.id, "approve"), 403);
    expect(getClub(alice, club.id).requestStatus).toBe("pending");

    // A request of another club is not found through this one.
    const other = newClub(owner);
    expectError(() => decideJoinRequest(owner, other.id, request.id, "approve"), 404);
    expectError(() => decideJoinRequest(owner, club.id, 999_999, "approve"), 404);
  });
});

describe("leaving", () => {
  it("a member leaves and the count drops; the owner cannot; others are told", () => {
    const club = newClub(owner, { isPrivate: false });
    joinClub(alice, club.id);
    expect(memberCount(club.id)).toBe(2);
    leaveClub(alice, club.id);
    expect(memberCount(club.id)).toBe(1);
    expect(getMembership(club.id, alice.id)).toBeNull();
    expectError(() => leaveClub(owner, club.id), 400, "The club owner cannot leave the club");
    expectError(() => leaveClub(bob, club.id), 400);
    expectError(() => leaveClub(null, club.id), 401);
    expectError(() => leaveClub(alice, 999_999), 404);
    // Leaving frees the place: they may come back.
    expect(joinClub(alice, club.id)).toEqual({ status: "joined" });
  });

  it("a member who left a private club may ask again", () => {
    const club = newClub(owner);
    joinClub(alice, club.id);
    decideJoinRequest(owner, club.id, listJoinRequests(owner, club.id)[0].id, "approve");
    leaveClub(alice, club.id);
    expect(getClub(alice, club.id)).toMatchObject({ isMember: false, requestStatus: "none" });
    expect(joinClub(alice, club.id)).toEqual({ status: "pending" });
  });
});

describe("members", () => {
  it("lists owner first, with roles and joined dates, to anyone", () => {
    const club = newClub(owner, { isPrivate: false });
    joinClub(alice, club.id);
    const members = listMembers(club.id);
    expect(members.map((m) => [m.id, m.role])).toEqual([
      [owner.id, "owner"],
      [alice.id, "member"],
    ]);
    expect(members[0]).toMatchObject({ username: owner.username, displayName: owner.displayName });
    expect(members[0]).not.toHaveProperty("email");
    expect(Date.parse(members[1].joinedAt)).not.toBeNaN();
    expectError(() => listMembers(999_999), 404);
  });
});

import { describe, expect, it } from "vitest";
import { expectError, newClub } from "#tests/fixtures/clubs";
import { createMember } from "#tests/fixtures/members";
import { createStaff, setClubRole } from "#tests/fixtures/moderation";
import { writeTransaction } from "~/utils/db.server";
import { requireModerationScope, requireModeratorOf, requireSiteStaff, scopeCovers } from "./moderation-access.server";
import { logDecision, moderationLogPage, SITE_ACTOR } from "./moderation-log.server";

describe("who may moderate what (CONTRACT.md §8)", () => {
  it("site staff act everywhere; club staff in their club only; nobody else anywhere", async () => {
    const owner = await createMember();
    const club = await newClub(owner);
    const other = await newClub(await createMember(), { name: "Ridge Runners" });
    const [admin, member, bystander] = [await createMember(), await createMember(), await createMember()];
    await setClubRole(club.id, admin.id, "admin");
    await setClubRole(club.id, member.id, "member");
    const moderator = await createStaff("moderator");
    const siteAdmin = await createStaff("admin");

    for (const staff of [moderator, siteAdmin]) {
      for (const clubId of [null, club.id, other.id]) expect((await requireModeratorOf(staff, { clubId })).id).toBe(staff.id);
      expect((await requireSiteStaff(staff)).role).toBe(staff === moderator ? "moderator" : "admin");
      expect((await requireModerationScope(staff)).site).toBe(true);
    }
    for (const staff of [owner, admin]) {
      expect((await requireModeratorOf(staff, { clubId: club.id })).id).toBe(staff.id);
      await expectError(() => requireModeratorOf(staff, { clubId: other.id }), 403);
      await expectError(() => requireModeratorOf(staff, { clubId: null }), 403);
      await expectError(() => requireSiteStaff(staff), 403);
      const scope = await requireModerationScope(staff);
      expect(scope).toMatchObject({ site: false, clubIds: [club.id] });
      expect(scopeCovers(scope, { clubId: club.id })).toBe(true);
      expect(scopeCovers(scope, { clubId: other.id })).toBe(false);
      expect(scopeCovers(scope, { clubId: null })).toBe(false);
    }
    for (const nobody of [member, bystander]) {
      await expectError(() => requireModeratorOf(nobody, { clubId: club.id }), 403);
      await expectError(() => requireModerationScope(nobody), 403);
    }
    await expectError(() => requireModeratorOf(null, { clubId: club.id }), 401);
    await expectError(() => requireModerationScope(null), 401);
  });
});

describe("the moderation log", () => {
  it("pages newest first; site staff see every entry, club staff their club's, others nothing", async () => {
    const owner = await createMember();
    const club = await newClub(owner);
    const moderator = await createStaff("moderator");
    const base = Date.now() - 60_000;
    await writeTransaction(async (tx) => {
      for (let i = 0; i < 5; i++)
        await logDecision(tx, {
          actor: i === 4 ? null : moderator,
          action: "remove",
          targetType: "post",
          targetId: 1000 + i,
          targetLabel: `Post ${i}`,
          clubId: i % 2 === 0 ? club.id : null,
          reason: "Spam",
          at: new Date(base + i),
        });
    });
    const first = await moderationLogPage(moderator, null, 3);
    const mine = first.entries.filter((e) => e.targetId >= 1000 && e.targetId < 1005);
    expect(mine.map((e) => e.targetId)).toEqual([1004, 1003, 1002].slice(0, mine.length));
    expect(first.entries[0]).toMatchObject({ actor: SITE_ACTOR, action: "remove", targetLabel: "Post 4", reason: "Spam" });

    const clubView = await moderationLogPage(owner);
    expect(clubView.entries.map((e) => e.targetId)).toEqual([1004, 1002, 1000]);
    const paged = await moderationLogPage(owner, null, 2);
    expect(paged.entries.map((e) => e.targetId)).toEqual([1004, 1002]);
    expect((await moderationLogPage(owner, paged.nextCursor, 2)).entries.map((e) => e.targetId)).toEqual([1000]);

    const bystander = await createMember();
    await expectError(() => moderationLogPage(bystander), 403);
    await expectError(() => moderationLogPage(null), 401);
  });
});

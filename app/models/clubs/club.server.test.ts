import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { comments, invites, joinRequests, likes, media, posts, users } from "#db/schema";
import { createClubSchema, editClubSchema } from "~/schemas/club";
import { db, first, queryColumn } from "~/utils/db.server";
import { setStorage, type MediaStorage } from "~/utils/media/storage.server";
import { clubCast, expectError, type Member, membershipRows, newClub } from "#tests/fixtures/clubs";
import { decideJoinRequest, joinClub, listJoinRequests } from "./club-membership.server";
import { canReadClub, getMembership } from "~/models/access.server";
import { createClub, deleteClub, getClub, listClubs, updateClub } from "./club.server";
import { TEXT_MATCH_IDS } from "~/utils/db/sql-dialect.server";
import { ftsQuery } from "~/models/feeds/feed-search.server";

let owner: Member;
let alice: Member;
let bob: Member;

beforeEach(async () => {
  ({ owner, alice, bob } = await clubCast());
});

describe("createClub", () => {
  it("refuses visitors", async () => {
    await expectError(() => newClub(null as never), 401);
    await expectError(() => createClub(null, createClubSchema.parse({ name: "Anyone" })), 401);
  });

  it("makes the creator the owner and first member; private by default", async () => {
    const club = await newClub(owner, { tags: "Bow Hunting, lease, , bow hunting", memberLimit: "12" });
    expect(club).toMatchObject({
      name: "Creek Bottom Lease",
      isPrivate: true,
      memberLimit: 12,
      memberCount: 1,
      isMember: true,
      userRole: "owner",
      requestStatus: "none",
      tags: ["bow hunting", "lease"], // lower-cased like post tags (issue 14 #31)
      creator: { id: owner.id, username: owner.username, displayName: owner.displayName },
    });
    expect(await getMembership(club.id, owner.id)).toEqual({ role: "owner" });
    expect(await membershipRows(club.id)).toBe(1);
  });
});

describe("getClub and the caller's state", () => {
  it("is 404 'Club Not Found' for a missing club", async () => {
    await expectError(() => getClub(null, 999_999), 404, "Club Not Found");
  });

  it("shows each caller their isMember / userRole / requestStatus", async () => {
    const club = await newClub(owner);
    expect(await getClub(null, club.id)).toMatchObject({ isMember: false, userRole: null, requestStatus: "none" });
    expect(await getClub(alice, club.id)).toMatchObject({ isMember: false, userRole: null, requestStatus: "none" });
    await joinClub(alice, club.id, { message: "Neighbour" });
    expect(await getClub(alice, club.id)).toMatchObject({ isMember: false, requestStatus: "pending" });
    expect(await getClub(owner, club.id)).toMatchObject({ isMember: true, userRole: "owner", requestStatus: "none" });
    const [request] = await listJoinRequests(owner, club.id);
    await decideJoinRequest(owner, club.id, request.id, "approve");
    expect(await getClub(alice, club.id)).toMatchObject({ isMember: true, userRole: "member", requestStatus: "none" });
  });

  it("canReadClub: public to all, private to members only, missing to nobody", async () => {
    const priv = await newClub(owner);
    const pub = await newClub(owner, { isPrivate: false });
    expect(await canReadClub(null, pub.id)).toBe(true);
    expect(await canReadClub(alice, pub.id)).toBe(true);
    expect(await canReadClub(null, priv.id)).toBe(false);
    expect(await canReadClub(alice, priv.id)).toBe(false);
    expect(await canReadClub(owner, priv.id)).toBe(true);
    expect(await canReadClub(owner, 999_999)).toBe(false);
    expect(await getMembership(priv.id, alice.id)).toBeNull();
  });
});

describe("listClubs", () => {
  it("lists private clubs too, filters public and mine, and searches name, description, location and tags", async () => {
    const priv = await newClub(owner, { name: "Secret Swamp Camp", tags: ["cedar"] });
    const pub = await newClub(alice, { name: "Open Ridge Hunters", isPrivate: false, location: "Coshocton, OH" });
    const all = (await listClubs(bob)).clubs.map((c) => c.id);
    expect(all).toEqual(expect.arrayContaining([priv.id, pub.id]));
    expect((await listClubs(bob, { onlyPublic: true })).clubs.map((c) => c.id)).toContain(pub.id);
    expect((await listClubs(bob, { onlyPublic: true })).clubs.map((c) => c.id)).not.toContain(priv.id);
    expect((await listClubs(alice, { onlyMine: true })).clubs.map((c) => c.id)).toEqual(expect.arrayContaining([pub.id]));
    expect((await listClubs(alice, { onlyMine: true })).clubs.map((c) => c.id)).not.toContain(priv.id);
    expect((await listClubs(bob, { onlyMine: true })).clubs).toEqual([]);
    await expect(listClubs(null, { onlyMine: true })).rejects.toThrow();
    expect((await listClubs(null, { search: "swamp" })).clubs.map((c) => c.id)).toEqual([priv.id]);
    expect((await listClubs(null, { search: "cedar" })).clubs.map((c) => c.id)).toEqual([priv.id]);
    expect((await listClubs(null, { search: "coshocton" })).clubs.map((c) => c.id)).toEqual([pub.id]);
    // LIKE wildcards in the search are literal.
    expect((await listClubs(null, { search: "%" })).clubs).toEqual([]);
  });

  it("pages newest first with a cursor and no repeats", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await newClub(owner, { name: `Paging Club ${i}` })).id);
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = await listClubs(owner, { search: "Paging Club", limit: 2, cursor });
      seen.push(...page.clubs.map((c) => c.id));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual([...ids].reverse());
  });
});

describe("updateClub", () => {
  const edit = (input: Record<string, unknown>) =>
    editClubSchema.parse({ name: "Renamed Club", description: "A longer description here", ...input });

  it("owner edits; others are refused", async () => {
    const club = await newClub(owner, { rules: "Be safe", tags: ["a"] });
    await joinClub(alice, club.id);
    await expectError(() => updateClub(null, club.id, edit({})), 401);
    await expectError(() => updateClub(bob, club.id, edit({})), 403);
    await expectError(() => updateClub(owner, 999_999, edit({})), 404);
    // alice is pending, then a member: refused both times
    await expectError(() => updateClub(alice, club.id, edit({})), 403);
    await decideJoinRequest(owner, club.id, (await listJoinRequests(owner, club.id))[0].id, "approve");
    await expectError(() => updateClub(alice, club.id, edit({})), 403);
    expect((await getClub(null, club.id)).name).toBe("Creek Bottom Lease");

    const updated = await updateClub(owner, club.id, edit({ maxMembers: "50", isPrivate: false, tags: "deer camp, rifle" }));
    expect(updated).toMatchObject({
      name: "Renamed Club",
      memberLimit: 50,
      isPrivate: false,
      tags: ["deer camp", "rifle"],
      rules: "Be safe",
    });
    // Empty clears; absent keeps.
    const cleared = await updateClub(owner, club.id, edit({ maxMembers: "", rules: "", tags: null }));
    expect(cleared).toMatchObject({ memberLimit: null, rules: null, tags: [], isPrivate: false });
  });

  it("refuses a limit below the current member count", async () => {
    const club = await newClub(owner, { isPrivate: false });
    await joinClub(alice, club.id);
    await joinClub(bob, club.id);
    await expectError(() => updateClub(owner, club.id, edit({ maxMembers: 2 })), 400);
    expect((await getClub(null, club.id)).memberLimit).toBeNull();
  });
});

describe("deleteClub", () => {
  it("owner only; removes members, requests, invites and the club's posts, and corrects post counts", async () => {
    const club = await newClub(owner, { isPrivate: false });
    await joinClub(alice, club.id);
    const priv = await newClub(owner);
    await joinClub(bob, priv.id);

    const insertPost = async (authorId: number, clubId: number | null, title: string) => {
      const [{ id }] = await db
        .insert(posts)
        .values({ authorId, clubId, type: "article", title, content: "Some content about deer stands" })
        .returning({ id: posts.id });
      await db
        .update(users)
        .set({ postsCount: sql`${users.postsCount} + 1` })
        .where(eq(users.id, authorId));
      return id;
    };
    const clubPost = await insertPost(alice.id, club.id, "Zebracorn drive plan");
    await insertPost(alice.id, club.id, "Second club post");
    const homePost = await insertPost(alice.id, null, "A home feed post");
    await db.insert(comments).values({ postId: clubPost, authorId: owner.id, content: "Nice" });
    await db.insert(media).values({
      ownerId: alice.id,
      postId: clubPost,
      kind: "image",
      storageKey: "club-test/photo.jpg",
      url: "/media/club-test/photo.jpg",
      name: "photo.jpg",
      mimeType: "image/jpeg",
      size: 10,
      variants: [{ width: 320, height: 240, url: "/media/club-test/photo-320.jpg", key: "club-test/photo-320.jpg" }],
    });
    const deletedKeys: string[] = [];
    setStorage({ kind: "local", delete: async (key: string) => void deletedKeys.push(key) } as unknown as MediaStorage);
    await db.insert(likes).values({ postId: clubPost, userId: owner.id });
    await db.insert(invites).values({ code: "abcdefghijklmnop", clubId: club.id, createdById: owner.id });
    await db.insert(joinRequests).values({ clubId: club.id, userId: bob.id, status: "rejected" });

    const zebracorn = () => queryColumn<number>(TEXT_MATCH_IDS, { fts: ftsQuery("zebracorn") });
    expect(await zebracorn()).toEqual([clubPost]);
    await expect(deleteClub(null, club.id)).rejects.toMatchObject({ status: 401 });
    await expect(deleteClub(bob, club.id)).rejects.toMatchObject({ status: 403 });
    await expect(deleteClub(alice, club.id)).rejects.toMatchObject({ status: 403 });
    await expect(deleteClub(owner, 999_999)).rejects.toMatchObject({ status: 404 });
    expect((await getClub(null, club.id)).id).toBe(club.id);

    await deleteClub(owner, club.id);
    await expectError(() => getClub(null, club.id), 404);
    expect(await membershipRows(club.id)).toBe(0);
    expect(await db.select().from(joinRequests).where(eq(joinRequests.clubId, club.id))).toEqual([]);
    expect(await db.select().from(invites).where(eq(invites.clubId, club.id))).toEqual([]);
    expect(await db.select().from(posts).where(eq(posts.clubId, club.id))).toEqual([]);
    expect(await db.select().from(comments).where(eq(comments.postId, clubPost))).toEqual([]);
    expect(await db.select().from(likes).where(eq(likes.postId, clubPost))).toEqual([]);
    expect(await db.select().from(media).where(eq(media.postId, clubPost))).toEqual([]);
    expect(deletedKeys.sort()).toEqual(["club-test/photo-320.jpg", "club-test/photo.jpg"]);
    setStorage(null);
    expect(first(await db.select({ id: posts.id }).from(posts).where(eq(posts.id, homePost)))).toBeDefined();
    expect(first(await db.select({ n: users.postsCount }).from(users).where(eq(users.id, alice.id)))?.n).toBe(1);
    // The full-text index forgets the removed posts.
    expect(await zebracorn()).toEqual([]);
    // Other clubs are untouched.
    expect(await getClub(bob, priv.id)).toMatchObject({ requestStatus: "pending" });
  });
});

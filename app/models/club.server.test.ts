import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { clubMembers, comments, invites, joinRequests, likes, media, posts, users } from "#db/schema";
import { createClubSchema, editClubSchema } from "~/schemas/club";
import { db, sqlite } from "~/utils/db.server";
import { setStorage, type MediaStorage } from "~/utils/storage.server";
import { clubCast, expectError, type Member, newClub } from "#tests/fixtures/clubs";
import { decideJoinRequest, joinClub, listJoinRequests } from "./club-membership.server";
import { canReadClub, getMembership } from "./access.server";
import { createClub, deleteClub, getClub, listClubs, updateClub } from "./club.server";

const memberRows = (clubId: number) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(clubMembers)
    .where(eq(clubMembers.clubId, clubId))
    .get()?.n;

let owner: Member;
let alice: Member;
let bob: Member;

beforeEach(async () => {
  ({ owner, alice, bob } = await clubCast());
});

describe("createClub", () => {
  it("refuses visitors", () => {
    expectError(() => newClub(null as never), 401);
    expectError(() => createClub(null, createClubSchema.parse({ name: "Anyone" })), 401);
  });

  it("makes the creator the owner and first member; private by default", () => {
    const club = newClub(owner, { tags: "Bow Hunting, lease, , bow hunting", memberLimit: "12" });
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
    expect(getMembership(club.id, owner.id)).toEqual({ role: "owner" });
    expect(memberRows(club.id)).toBe(1);
  });
});

describe("getClub and the caller's state", () => {
  it("is 404 'Club Not Found' for a missing club", () => {
    expectError(() => getClub(null, 999_999), 404, "Club Not Found");
  });

  it("shows each caller their isMember / userRole / requestStatus", () => {
    const club = newClub(owner);
    expect(getClub(null, club.id)).toMatchObject({ isMember: false, userRole: null, requestStatus: "none" });
    expect(getClub(alice, club.id)).toMatchObject({ isMember: false, userRole: null, requestStatus: "none" });
    joinClub(alice, club.id, { message: "Neighbour" });
    expect(getClub(alice, club.id)).toMatchObject({ isMember: false, requestStatus: "pending" });
    expect(getClub(owner, club.id)).toMatchObject({ isMember: true, userRole: "owner", requestStatus: "none" });
    const [request] = listJoinRequests(owner, club.id);
    decideJoinRequest(owner, club.id, request.id, "approve");
    expect(getClub(alice, club.id)).toMatchObject({ isMember: true, userRole: "member", requestStatus: "none" });
  });

  it("canReadClub: public to all, private to members only, missing to nobody", () => {
    const priv = newClub(owner);
    const pub = newClub(owner, { isPrivate: false });
    expect(canReadClub(null, pub.id)).toBe(true);
    expect(canReadClub(alice, pub.id)).toBe(true);
    expect(canReadClub(null, priv.id)).toBe(false);
    expect(canReadClub(alice, priv.id)).toBe(false);
    expect(canReadClub(owner, priv.id)).toBe(true);
    expect(canReadClub(owner, 999_999)).toBe(false);
    expect(getMembership(priv.id, alice.id)).toBeNull();
  });
});

describe("listClubs", () => {
  it("lists private clubs too, filters public and mine, and searches name, description, location and tags", () => {
    const priv = newClub(owner, { name: "Secret Swamp Camp", tags: ["cedar"] });
    const pub = newClub(alice, { name: "Open Ridge Hunters", isPrivate: false, location: "Coshocton, OH" });
    const all = listClubs(bob).clubs.map((c) => c.id);
    expect(all).toEqual(expect.arrayContaining([priv.id, pub.id]));
    expect(listClubs(bob, { onlyPublic: true }).clubs.map((c) => c.id)).toContain(pub.id);
    expect(listClubs(bob, { onlyPublic: true }).clubs.map((c) => c.id)).not.toContain(priv.id);
    expect(listClubs(alice, { onlyMine: true }).clubs.map((c) => c.id)).toEqual(expect.arrayContaining([pub.id]));
    expect(listClubs(alice, { onlyMine: true }).clubs.map((c) => c.id)).not.toContain(priv.id);
    expect(listClubs(bob, { onlyMine: true }).clubs).toEqual([]);
    expect(() => listClubs(null, { onlyMine: true })).toThrow();
    expect(listClubs(null, { search: "swamp" }).clubs.map((c) => c.id)).toEqual([priv.id]);
    expect(listClubs(null, { search: "cedar" }).clubs.map((c) => c.id)).toEqual([priv.id]);
    expect(listClubs(null, { search: "coshocton" }).clubs.map((c) => c.id)).toEqual([pub.id]);
    // LIKE wildcards in the search are literal.
    expect(listClubs(null, { search: "%" }).clubs).toEqual([]);
  });

  it("pages newest first with a cursor and no repeats", () => {
    const ids = Array.from({ length: 5 }, (_, i) => newClub(owner, { name: `Paging Club ${i}` }).id);
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = listClubs(owner, { search: "Paging Club", limit: 2, cursor });
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

  it("owner edits; others are refused", () => {
    const club = newClub(owner, { rules: "Be safe", tags: ["a"] });
    joinClub(alice, club.id);
    expectError(() => updateClub(null, club.id, edit({})), 401);
    expectError(() => updateClub(bob, club.id, edit({})), 403);
    expectError(() => updateClub(owner, 999_999, edit({})), 404);
    // alice is pending, then a member: refused both times
    expectError(() => updateClub(alice, club.id, edit({})), 403);
    decideJoinRequest(owner, club.id, listJoinRequests(owner, club.id)[0].id, "approve");
    expectError(() => updateClub(alice, club.id, edit({})), 403);
    expect(getClub(null, club.id).name).toBe("Creek Bottom Lease");

    const updated = updateClub(owner, club.id, edit({ maxMembers: "50", isPrivate: false, tags: "deer camp, rifle" }));
    expect(updated).toMatchObject({
      name: "Renamed Club",
      memberLimit: 50,
      isPrivate: false,
      tags: ["deer camp", "rifle"],
      rules: "Be safe",
    });
    // Empty clears; absent keeps.
    const cleared = updateClub(owner, club.id, edit({ maxMembers: "", rules: "", tags: null }));
    expect(cleared).toMatchObject({ memberLimit: null, rules: null, tags: [], isPrivate: false });
  });

  it("refuses a limit below the current member count", () => {
    const club = newClub(owner, { isPrivate: false });
    joinClub(alice, club.id);
    joinClub(bob, club.id);
    expectError(() => updateClub(owner, club.id, edit({ maxMembers: 2 })), 400);
    expect(getClub(null, club.id).memberLimit).toBeNull();
  });
});

describe("deleteClub", () => {
  it("owner only; removes members, requests, invites and the club's posts, and corrects post counts", async () => {
    const club = newClub(owner, { isPrivate: false });
    joinClub(alice, club.id);
    const priv = newClub(owner);
    joinClub(bob, priv.id);

    const insertPost = (authorId: number, clubId: number | null, title: string) => {
      const id = db
        .insert(posts)
        .values({ authorId, clubId, type: "article", title, content: "Some content about deer stands" })
        .returning({ id: posts.id })
        .get().id;
      db.update(users)
        .set({ postsCount: sql`${users.postsCount} + 1` })
        .where(eq(users.id, authorId))
        .run();
      return id;
    };
    const clubPost = insertPost(alice.id, club.id, "Zebracorn drive plan");
    insertPost(alice.id, club.id, "Second club post");
    const homePost = insertPost(alice.id, null, "A home feed post");
    db.insert(comments).values({ postId: clubPost, authorId: owner.id, content: "Nice" }).run();
    db.insert(media)
      .values({
        ownerId: alice.id,
        postId: clubPost,
        kind: "image",
        storageKey: "club-test/photo.jpg",
        url: "/media/club-test/photo.jpg",
        name: "photo.jpg",
        mimeType: "image/jpeg",
        size: 10,
        variants: [{ width: 320, height: 240, url: "/media/club-test/photo-320.jpg", key: "club-test/photo-320.jpg" }],
      })
      .run();
    const deletedKeys: string[] = [];
    setStorage({ kind: "local", delete: async (key: string) => void deletedKeys.push(key) } as unknown as MediaStorage);
    db.insert(likes).values({ postId: clubPost, userId: owner.id }).run();
    db.insert(invites).values({ code: "abcdefghijklmnop", clubId: club.id, createdById: owner.id }).run();
    db.insert(joinRequests).values({ clubId: club.id, userId: bob.id, status: "rejected" }).run();

    await expect(deleteClub(null, club.id)).rejects.toMatchObject({ status: 401 });
    await expect(deleteClub(bob, club.id)).rejects.toMatchObject({ status: 403 });
    await expect(deleteClub(alice, club.id)).rejects.toMatchObject({ status: 403 });
    await expect(deleteClub(owner, 999_999)).rejects.toMatchObject({ status: 404 });
    expect(getClub(null, club.id).id).toBe(club.id);

    await deleteClub(owner, club.id);
    expectError(() => getClub(null, club.id), 404);
    expect(memberRows(club.id)).toBe(0);
    expect(db.select().from(joinRequests).where(eq(joinRequests.clubId, club.id)).all()).toEqual([]);
    expect(db.select().from(invites).where(eq(invites.clubId, club.id)).all()).toEqual([]);
    expect(db.select().from(posts).where(eq(posts.clubId, club.id)).all()).toEqual([]);
    expect(db.select().from(comments).where(eq(comments.postId, clubPost)).all()).toEqual([]);
    expect(db.select().from(likes).where(eq(likes.postId, clubPost)).all()).toEqual([]);
    expect(db.select().from(media).where(eq(media.postId, clubPost)).all()).toEqual([]);
    expect(deletedKeys.sort()).toEqual(["club-test/photo-320.jpg", "club-test/photo.jpg"]);
    setStorage(null);
    expect(db.select({ id: posts.id }).from(posts).where(eq(posts.id, homePost)).get()).toBeDefined();
    expect(db.select({ n: users.postsCount }).from(users).where(eq(users.id, alice.id)).get()?.n).toBe(1);
    // The full-text index forgets the removed posts.
    const hits = sqlite.prepare("SELECT rowid FROM posts_fts WHERE posts_fts MATCH 'zebracorn'").all();
    expect(hits).toEqual([]);
    // Other clubs are untouched.
    expect(getClub(bob, priv.id)).toMatchObject({ requestStatus: "pending" });
  });
});

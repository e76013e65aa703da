import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { comments, posts } from "#db/schema";
import { newClub } from "#tests/fixtures/clubs";
import { createStaff, setClubRole } from "#tests/fixtures/moderation";
import { addComment } from "~/models/posts/comment.server";
import { createPost } from "~/models/posts/post.server";
import * as removeCommentRoute from "~/routes/api.moderation.comments.$id.remove";
import * as restoreCommentRoute from "~/routes/api.moderation.comments.$id.restore";
import * as removePostRoute from "~/routes/api.moderation.posts.$id.remove";
import * as restorePostRoute from "~/routes/api.moderation.posts.$id.restore";
import { db, first } from "~/utils/db.server";
import { call, createMember, makeRequest } from "../fixtures/members";
import { count, postInput } from "../fixtures/posts";

type Member = Awaited<ReturnType<typeof createMember>>;
const noPreview = { preview: async () => null };

const routes = {
  post: { remove: removePostRoute.action, restore: restorePostRoute.action, path: "posts" },
  comment: { remove: removeCommentRoute.action, restore: restoreCommentRoute.action, path: "comments" },
} as const;

function send(kind: keyof typeof routes, verb: "remove" | "restore", id: number, who: Member | null, json: unknown = { reason: "Spam" }) {
  const r = routes[kind];
  return call(
    r[verb],
    makeRequest(`/api/moderation/${r.path}/${id}/${verb}`, { json: verb === "remove" ? json : {}, cookie: who?.cookie }),
    { id: String(id) },
  );
}

/** Everything a refusal must leave as it was. */
async function snapshot(postId: number, commentId: number) {
  return {
    post: first(await db.select().from(posts).where(eq(posts.id, postId))),
    comment: first(await db.select().from(comments).where(eq(comments.id, commentId))),
    log: await count(`SELECT count(*) AS n FROM moderation_log`),
  };
}

describe("POST /api/moderation/{posts|comments}/{id}/remove and /restore (CONTRACT.md §8)", () => {
  it("visitor 401, member 403, author 403, another club's admin 403 (each changes nothing); the club's admin, a moderator and an admin 200", async () => {
    const owner = await createMember();
    const club = await newClub(owner);
    const other = await newClub(await createMember(), { name: "Ridge Runners" });
    const [author, member, clubAdmin, otherAdmin] = [
      await createMember(),
      await createMember(),
      await createMember(),
      await createMember(),
    ];
    await setClubRole(club.id, author.id, "member");
    await setClubRole(club.id, member.id, "member");
    await setClubRole(club.id, clubAdmin.id, "admin");
    await setClubRole(other.id, otherAdmin.id, "admin");
    const post = await createPost(author, postInput({ clubId: club.id }), noPreview);
    const comment = await addComment(author, post.id, { content: "My own comment" });
    const ids = { post: post.id, comment: comment.id };

    for (const [who, status] of [
      [null, 401],
      [member, 403],
      [author, 403],
      [otherAdmin, 403],
    ] as const) {
      for (const kind of ["post", "comment"] as const) {
        for (const verb of ["remove", "restore"] as const) {
          const before = await snapshot(post.id, comment.id);
          const res = await send(kind, verb, ids[kind], who);
          expect(res.status, `${kind} ${verb} as ${who?.username ?? "visitor"}`).toBe(status);
          expect((await res.json()).error).toBeTruthy();
          expect(await snapshot(post.id, comment.id)).toEqual(before);
        }
      }
    }

    for (const staff of [clubAdmin, await createStaff("moderator"), await createStaff("admin")]) {
      for (const kind of ["post", "comment"] as const) {
        const removed = await send(kind, "remove", ids[kind], staff, { reason: "  Off topic  " });
        expect(removed.status).toBe(200);
        expect(await removed.json()).toEqual({ id: ids[kind], hidden: true, removalReason: "Off topic" });
        const restored = await send(kind, "restore", ids[kind], staff);
        expect(restored.status).toBe(200);
        expect(await restored.json()).toEqual({ id: ids[kind], hidden: false, removalReason: null });
      }
    }
  });

  it("400 for a missing or blank reason (a message that says why) and 404 for a missing target, changing nothing", async () => {
    const author = await createMember();
    const moderator = await createStaff("moderator");
    const post = await createPost(author, postInput(), noPreview);
    const comment = await addComment(author, post.id, { content: "Hello" });
    const before = await snapshot(post.id, comment.id);
    for (const json of [{}, { reason: "   " }, { reason: 12 }, { reason: "x".repeat(501) }]) {
      const res = await send("post", "remove", post.id, moderator, json);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.fieldErrors.reason[0]).toMatch(/reason/i);
    }
    for (const kind of ["post", "comment"] as const) {
      expect((await send(kind, "remove", 9_999_999, moderator)).status).toBe(404);
      expect((await send(kind, "restore", 9_999_999, moderator)).status).toBe(404);
    }
    expect(await snapshot(post.id, comment.id)).toEqual(before);
  });
});

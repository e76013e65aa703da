import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { users } from "#db/schema";
import { addMember, count, failure, makeClub, makeMedia, postInput } from "#tests/fixtures/posts";
import { createMember } from "#tests/fixtures/members";
import { ageAccount } from "#tests/fixtures/new-accounts";
import type { PostInput } from "~/schemas/post";
import { databaseEngine, db, queryRows } from "~/utils/db.server";
import { addComment } from "./comment.server";
import { listFeed } from "~/models/feeds/feed.server";
import { createPost, deletePost, getPost, likePost, sharePost, unlikePost, updatePost } from "./post.server";
import { limitsOff, limitsOn } from "#tests/fixtures/limits-clock";

type Member = Awaited<ReturnType<typeof createMember>>;

const input = postInput;

const postsCountOf = (id: number) => count(`SELECT posts_count AS n FROM users WHERE id = ?`, id);

let alice: Member;
let bob: Member;
let carol: Member;

beforeAll(async () => {
  alice = await createMember({ displayName: "Alice Archer" });
  bob = await createMember({ displayName: "Bob Buck" });
  carol = await createMember({ displayName: "Carol Creek" });
});

describe("createPost", () => {
  it("refuses a visitor with 401 and writes nothing", async () => {
    const before = await count(`SELECT count(*) AS n FROM posts`);
    expect((await failure(() => createPost(null, input()))).status).toBe(401);
    expect(await count(`SELECT count(*) AS n FROM posts`)).toBe(before);
  });

  it("publishes with normalised tags, post_tags rows, posts_count and the SPEC shape", async () => {
    const before = await postsCountOf(alice.id);
    const post = await createPost(
      alice,
      input({
        tags: [" Bow Hunting", "RUT", "rut"],
        mediaUrl: "https://youtu.be/abc",
        type: "video",
      }),
      // The preview is the server's (security review L7): here a stand-in for its fetch.
      { preview: async () => ({ title: "Clip", domain: "youtu.be" }) },
    );
    expect(post).toMatchObject({
      title: "Reading rub lines",
      type: "video",
      mediaUrl: "https://youtu.be/abc",
      urlMetadata: { title: "Clip", domain: "youtu.be" },
      tags: ["bow hunting", "rut"],
      clubId: null,
      author: { id: alice.id, username: alice.username, displayName: "Alice Archer", avatar: null },
      likes: 0,
      commentsCount: 0,
      shares: 0,
      isLiked: false,
      uploadedFiles: [],
    });
    expect(new Date(post.createdAt).toISOString()).toBe(post.createdAt);
    expect(await postsCountOf(alice.id)).toBe(before + 1);
    const keys = await queryRows(`SELECT key FROM post_tags WHERE post_id = ? ORDER BY key`, [post.id]);
    expect(keys).toEqual([{ key: "bowhunting" }, { key: "rut" }]);
  });

  it("stores content that looks like HTML exactly as typed", async () => {
    const content = `<script>alert("x")</script><img src=x onerror=alert(1)> & done`;
    const post = await createPost(alice, input({ content }));
    expect((await getPost(null, post.id)).content).toBe(content);
  });

  it("re-validates its input: bad input is a 400 with SPEC messages and changes nothing", async () => {
    const before = await count(`SELECT count(*) AS n FROM posts`);
    const error = await failure(() =>
      createPost(alice, { ...input(), content: "x".repeat(10_001), mediaUrl: "javascript:alert(1)" } as PostInput),
    );
    expect(error.status).toBe(400);
    expect(error.fieldErrors).toEqual({ content: ["Content too long"], mediaUrl: ["Invalid URL format"] });
    expect(await count(`SELECT count(*) AS n FROM posts`)).toBe(before);
  });

  it("posts in a club only for its members (403 otherwise, 404 for no such club)", async () => {
    const club = await makeClub(alice.id, { isPrivate: false });
    expect((await failure(() => createPost(bob, input({ clubId: club })))).status).toBe(403);
    expect((await failure(() => createPost(bob, input({ clubId: 999_999 })))).status).toBe(404);
    await addMember(club, bob.id);
    const post = await createPost(bob, input({ clubId: club }));
    expect(post.clubId).toBe(club);
  });

  it("attaches the author's own unattached uploads, and refuses anyone else's without writing", async () => {
    const mine = await makeMedia(alice.id, "image");
    const audio = await makeMedia(alice.id, "audio");
    const post = await createPost(alice, input({ uploadedFiles: [mine, audio] }));
    expect(post.uploadedFiles).toEqual([
      {
        type: "image",
        url: mine,
        name: expect.any(String),
        size: 1000,
        width: 800,
        height: 600,
        variants: [{ width: 400, height: 300, url: `${mine}?w=400` }],
      },
      { type: "audio", url: audio, name: expect.any(String), size: 1000 },
    ]);

    const before = await postsCountOf(bob.id);
    const postsBefore = await count(`SELECT count(*) AS n FROM posts`);
    const stolen = await failure(() => createPost(bob, input({ uploadedFiles: [mine] })));
    expect(stolen.status).toBe(400);
    expect(stolen.fieldErrors?.uploadedFiles).toBeDefined();
    // Reusing one's own upload on a second post is refused too.
    expect((await failure(() => createPost(alice, input({ uploadedFiles: [mine] })))).status).toBe(400);
    expect(await count(`SELECT count(*) AS n FROM posts`)).toBe(postsBefore);
    expect(await postsCountOf(bob.id)).toBe(before);
    expect(await count(`SELECT post_id AS n FROM media WHERE url = ?`, mine)).toBe(post.id);
  });

  it("never attaches the author's current avatar to a post", async () => {
    const member = await createMember();
    const avatar = await makeMedia(member.id, "image");
    await db.update(users).set({ avatar }).where(eq(users.id, member.id));
    const refused = await failure(() => createPost(member, input({ uploadedFiles: [avatar] })));
    expect(refused.status).toBe(400);
    expect(await count(`SELECT count(*) AS n FROM media WHERE url = ? AND post_id IS NOT NULL`, avatar)).toBe(0);
  });

  it("is rate limited per member (429 with Retry-After) and a refused post is not written", async () => {
    const member = await createMember();
    await ageAccount(member.id); // past its first day (CONTRACT.md §8): the hourly limit is what is tested
    limitsOn();
    try {
      for (let i = 0; i < 30; i++) await createPost(member, input({ title: `Post ${i}` }));
      const error = await failure(() => createPost(member, input({ title: "One too many" })));
      expect(error.status).toBe(429);
      expect(error.retryAfter).toBeGreaterThan(0);
      expect(await postsCountOf(member.id)).toBe(30);
    } finally {
      limitsOff();
    }
  });
});

describe("getPost and club privacy", () => {
  it("is 404 'Post Not Found' for a missing post", async () => {
    const error = await failure(() => getPost(null, 987_654));
    expect(error.status).toBe(404);
    expect(error.message).toBe("Post Not Found");
  });

  it("hides a private club's post from visitors and non-members (404), shows it to members", async () => {
    const club = await makeClub(carol.id, { isPrivate: true });
    const post = await createPost(carol, input({ clubId: club, title: "Lease notes" }));
    expect((await failure(() => getPost(null, post.id))).status).toBe(404);
    expect((await failure(() => getPost(bob, post.id))).status).toBe(404);
    expect((await failure(() => likePost(bob, post.id))).status).toBe(404);
    expect((await getPost(carol, post.id)).title).toBe("Lease notes");
    // Not on the home feed, not on Carol's profile for outsiders, on it for members.
    const home = await listFeed(null, { limit: 50 });
    expect(home.posts.some((p) => p.id === post.id)).toBe(false);
    expect((await listFeed(bob, { authorId: carol.id })).posts.some((p) => p.id === post.id)).toBe(false);
    expect((await listFeed(carol, { authorId: carol.id })).posts.some((p) => p.id === post.id)).toBe(true);
    // The club's own list: members only.
    expect((await failure(() => listFeed(bob, { clubId: club }))).status).toBe(403);
    expect((await failure(() => listFeed(null, { clubId: 999_999 }))).status).toBe(404);
    expect((await listFeed(carol, { clubId: club })).posts.map((p) => p.id)).toEqual([post.id]);
  });

  it("shows a public club's posts on the author's profile and the club's list to anyone", async () => {
    const club = await makeClub(carol.id, { isPrivate: false });
    const post = await createPost(carol, input({ clubId: club }));
    expect((await listFeed(null, { authorId: carol.id })).posts.some((p) => p.id === post.id)).toBe(true);
    expect((await listFeed(null, { clubId: club })).posts.map((p) => p.id)).toEqual([post.id]);
    expect((await getPost(null, post.id)).clubId).toBe(club);
  });
});

describe("updatePost and deletePost: the author only", () => {
  it("answers 401 to a visitor, 403 to another member, 404 for no such post, and changes nothing", async () => {
    const post = await createPost(alice, input({ title: "Original" }));
    const change = { title: "Hijacked", content: "Someone else's words here", mediaUrl: null, tags: null };
    expect((await failure(() => updatePost(null, post.id, change))).status).toBe(401);
    expect((await failure(() => updatePost(bob, post.id, change))).status).toBe(403);
    expect((await failure(() => updatePost(alice, 987_654, change))).status).toBe(404);
    expect((await failure(() => deletePost(null, post.id))).status).toBe(401);
    expect((await failure(() => deletePost(bob, post.id))).status).toBe(403);
    expect((await failure(() => deletePost(alice, 987_654))).status).toBe(404);
    expect((await getPost(null, post.id)).title).toBe("Original");
  });

  it("lets the author edit: tags rewritten (null when none), search follows, a new media URL drops the old preview", async () => {
    const post = await createPost(alice, input({ tags: ["scouting"], mediaUrl: "https://example.com/a" }), {
      preview: async () => ({ title: "A" }),
    });
    const kept = await updatePost(alice, post.id, {
      title: "Frost seeding clover",
      content: "Broadcast clover seed on frozen ground in late winter.",
      type: undefined,
      mediaUrl: "https://example.com/a",
      tags: ["Food Plots", "clover"],
    });
    expect(kept).toMatchObject({
      title: "Frost seeding clover",
      type: "article",
      tags: ["food plots", "clover"],
      urlMetadata: { title: "A" },
    });
    expect(await queryRows(`SELECT key FROM post_tags WHERE post_id = ? ORDER BY key`, [post.id])).toEqual([
      { key: "clover" },
      { key: "foodplots" },
    ]);
    expect((await listFeed(null, { search: "frost seeding" })).posts.map((p) => p.id)).toContain(post.id);

    const changed = await updatePost(alice, post.id, {
      title: "T2",
      content: "Different content now.",
      type: "podcast",
      mediaUrl: "https://example.com/b",
      tags: null,
    });
    expect(changed).toMatchObject({ type: "podcast", mediaUrl: "https://example.com/b", urlMetadata: null, tags: null });
    expect(await count(`SELECT count(*) AS n FROM post_tags WHERE post_id = ?`, post.id)).toBe(0);
    expect((await listFeed(null, { search: "frost seeding" })).posts.map((p) => p.id)).not.toContain(post.id);

    const invalidEdit = await failure(() => updatePost(alice, post.id, { title: "", content: "short", mediaUrl: null, tags: null }));
    expect(invalidEdit.fieldErrors).toEqual({ title: ["Title is required"], content: ["Content must be at least 10 characters"] });
  });

  it("deletes with comments, likes, shares, tags and media rows, and decrements posts_count", async () => {
    const file = await makeMedia(alice.id);
    const post = await createPost(alice, input({ tags: ["gone"], uploadedFiles: [file] }));
    await addComment(bob, post.id, { content: "Great read" });
    await likePost(bob, post.id);
    await sharePost(bob, post.id);
    const before = await postsCountOf(alice.id);
    expect((await listFeed(null, { search: "#gone" })).posts.map((p) => p.id)).toContain(post.id);
    await deletePost(alice, post.id);
    expect(await postsCountOf(alice.id)).toBe(before - 1);
    for (const table of ["comments", "likes", "shares", "post_tags", "media"]) {
      expect(await count(`SELECT count(*) AS n FROM ${table} WHERE post_id = ?`, post.id)).toBe(0);
    }
    // SQLite keeps the search index in a table of its own (PostgreSQL's is a column of the deleted row).
    if (databaseEngine() === "sqlite") expect(await count(`SELECT count(*) AS n FROM posts_fts WHERE posts_fts MATCH 'gone'`)).toBe(0);
    expect((await listFeed(null, { search: "#gone" })).posts.map((p) => p.id)).not.toContain(post.id);
    expect((await failure(() => getPost(alice, post.id))).status).toBe(404);
  });
});

describe("likes and shares", () => {
  it("likes idempotently, keeps the counter in step and reports isLiked per caller", async () => {
    const post = await createPost(alice, input());
    expect((await failure(() => likePost(null, post.id))).status).toBe(401);
    expect(await likePost(bob, post.id)).toEqual({ likes: 1, isLiked: true });
    expect(await likePost(bob, post.id)).toEqual({ likes: 1, isLiked: true });
    expect(await likePost(carol, post.id)).toEqual({ likes: 2, isLiked: true });
    expect((await getPost(bob, post.id)).isLiked).toBe(true);
    expect((await getPost(alice, post.id)).isLiked).toBe(false);
    expect((await getPost(null, post.id)).isLiked).toBe(false);
    const feedForBob = await listFeed(bob, { limit: 50 });
    expect(feedForBob.posts.find((p) => p.id === post.id)?.isLiked).toBe(true);
    expect((await listFeed(alice, { limit: 50 })).posts.find((p) => p.id === post.id)?.isLiked).toBe(false);

    expect(await unlikePost(bob, post.id)).toEqual({ likes: 1, isLiked: false });
    expect(await unlikePost(bob, post.id)).toEqual({ likes: 1, isLiked: false });
    expect(await count(`SELECT likes_count AS n FROM posts WHERE id = ?`, post.id)).toBe(
      await count(`SELECT count(*) AS n FROM likes WHERE post_id = ?`, post.id),
    );
    expect((await failure(() => likePost(bob, 987_654))).status).toBe(404);
  });

  it("counts a member's shares of a post once; visitors get 401", async () => {
    const post = await createPost(alice, input());
    expect((await failure(() => sharePost(null, post.id))).status).toBe(401);
    expect(await sharePost(bob, post.id)).toEqual({ shares: 1 });
    expect(await sharePost(bob, post.id)).toEqual({ shares: 1 });
    expect(await sharePost(carol, post.id)).toEqual({ shares: 2 });
    expect((await getPost(null, post.id)).shares).toBe(2);
  });
});

import type { Params } from "~/utils/db.server";
import { and, eq, sql } from "drizzle-orm";
import { notifications } from "#db/schema";
import { beforeAll, describe, expect, it } from "vitest";
import { addComment, listCommentPage, listComments, updateComment } from "~/models/posts/comment.server";
import { listFeed } from "~/models/feeds/feed.server";
import { membersNamedQuery } from "~/models/posts/mention.server";
import { createPost, getPost, updatePost } from "~/models/posts/post.server";
import { databaseEngine, db, queryRows, writeTransaction } from "~/utils/db.server";
import { createMember } from "../fixtures/members";
import { addMember, makeClub, postInput } from "../fixtures/posts";

/**
 * @mentions as pages show them (CONTRACT.md §7, issue 26): a Post or Comment carries `mentions`,
 * the members its text names who exist (as their usernames are spelled), only when there are any;
 * an unknown name, an email address or a name past the text's first 10 is not one.
 */

type Member = Awaited<ReturnType<typeof createMember>>;
let author: Member;
let bob: Member;
let carol: Member;

beforeAll(async () => {
  author = await createMember({ username: "Mention_Author" });
  bob = await createMember({ username: "Bob_Stand" });
  carol = await createMember({ username: "carol99" });
});

describe("mentions on posts and comments", () => {
  it("a post names the members it mentions who exist, in the text's order and spelled as they are; an unknown name is left out", async () => {
    const post = await createPost(
      author,
      postInput({ content: "Sat with @carol99 and @bob_stand (not @nobody_here); mail bob@carol99.com. @BOB_STAND again." }),
    );
    expect(post.mentions).toEqual(["carol99", "Bob_Stand"]);
    expect((await getPost(null, post.id)).mentions).toEqual(["carol99", "Bob_Stand"]);
    const feed = await listFeed(null, { limit: 50 });
    expect(feed.posts.find((p) => p.id === post.id)?.mentions).toEqual(["carol99", "Bob_Stand"]);
  });

  it("a post without a known mention is answered as before (no mentions key)", async () => {
    const plain = await createPost(author, postInput({ content: "No one named here, just @nobody_at_all and a@b.com." }));
    expect("mentions" in plain).toBe(false);
    expect("mentions" in (await getPost(null, plain.id))).toBe(false);
  });

  it("only a text's first 10 names are mentions: an existing member named 11th stays text", async () => {
    const unknown = Array.from({ length: 10 }, (_, i) => `@ghost_${i}`).join(" ");
    const post = await createPost(author, postInput({ content: `${unknown} and @carol99` }));
    expect("mentions" in post).toBe(false);
  });

  it("comments name their mentions the same way, on every read", async () => {
    const post = await createPost(author, postInput());
    const added = await addComment(bob, post.id, { content: "Nice one @mention_author, ask @CAROL99 or @ghost_x" });
    expect(added.mentions).toEqual(["Mention_Author", "carol99"]);
    const plain = await addComment(bob, post.id, { content: "Nobody here" });
    expect("mentions" in plain).toBe(false);
    expect((await listComments(null, post.id)).map((c) => c.mentions)).toEqual([["Mention_Author", "carol99"], undefined]);
    expect((await listCommentPage(null, post.id)).comments.map((c) => c.mentions)).toEqual([["Mention_Author", "carol99"], undefined]);
    const edited = await updateComment(bob, added.id, { content: "Actually @bob_stand" });
    expect(edited.mentions).toEqual(["Bob_Stand"]);
  });

  it("markup and injection strings are never names: only the username's characters are taken", async () => {
    await createMember({ username: "abc" });
    const post = await createPost(author, postInput({ content: '@<script>alert(1)</script> @abc"onmouseover=alert(1) @ABC<img>' }));
    expect(post.mentions).toEqual(["abc"]);
    expect(post.content).toBe('@<script>alert(1)</script> @abc"onmouseover=alert(1) @ABC<img>');
  });

  it("looks the names up through the username index on both engines (no scan of users)", async () => {
    const query = membersNamedQuery(db, sql`${JSON.stringify(["bob_stand", "carol99"])}`).toSQL();
    expect((await membersNamedQuery(db, sql`${JSON.stringify(["bob_stand", "carol99"])}`)).map((r) => r.id).sort()).toEqual(
      [bob.id, carol.id].sort(),
    );
    if (databaseEngine() === "sqlite") {
      const plan = await queryRows<{ detail: string }>(`EXPLAIN QUERY PLAN ${query.sql}`, query.params as Params);
      const text = plan.map((r) => r.detail).join("\n");
      expect(text).toMatch(/SEARCH users USING (COVERING )?INDEX users_username_nocase/);
      expect(text).not.toMatch(/SCAN users\b/);
    } else {
      const text = await writeTransaction(async () => {
        await queryRows(`ANALYZE users`);
        await queryRows(`SET LOCAL enable_seqscan = off`);
        const plan = await queryRows<{ "QUERY PLAN": string }>(`EXPLAIN ${query.sql.replace(/\$\d+/g, "?")}`, query.params as Params);
        return plan.map((r) => r["QUERY PLAN"]).join("\n");
      });
      expect(text).toMatch(/users_username_nocase/);
      expect(text).not.toMatch(/Seq Scan on users/);
    }
  });
});

/** The mention notifications `member` has, as [postId, commentId, actorId]. */
async function mentionsOf(member: { id: number }) {
  const rows = await db
    .select({ postId: notifications.postId, commentId: notifications.commentId, actorId: notifications.actorId })
    .from(notifications)
    .where(and(eq(notifications.userId, member.id), eq(notifications.kind, "mention")));
  return rows.map((r) => [r.postId, r.commentId, r.actorId]);
}

describe("mention notifications (CONTRACT.md §7: the member named, at most 10 per text)", () => {
  it("a post tells each member it names once, however often and in whatever case; never the author, never an unknown name", async () => {
    const writer = await createMember();
    const named = await createMember();
    const bystander = await createMember();
    const post = await createPost(
      writer,
      postInput({
        content: `Out with @${named.username.toUpperCase()} and @${named.username}, thanks @${writer.username} and @no_such_one`,
      }),
    );
    expect(await mentionsOf(named)).toEqual([[post.id, null, writer.id]]);
    expect(await mentionsOf(writer)).toEqual([]);
    expect(await mentionsOf(bystander)).toEqual([]);
  });

  it("tells at most 10 members, the first 10 named", async () => {
    const writer = await createMember();
    const many = [];
    for (let i = 0; i < 12; i++) many.push(await createMember());
    const post = await createPost(writer, postInput({ content: many.map((m) => `@${m.username}`).join(" ") }));
    for (const [i, member] of many.entries()) {
      expect(await mentionsOf(member), `member ${i + 1}`).toEqual(i < 10 ? [[post.id, null, writer.id]] : []);
    }
  });

  it("an edited post tells only the members it names anew", async () => {
    const writer = await createMember();
    const first = await createMember();
    const second = await createMember();
    const post = await createPost(writer, postInput({ content: `Thanks @${first.username} for the tip` }));
    await updatePost(writer, post.id, {
      title: post.title,
      content: `Thanks @${first.username.toUpperCase()} and @${second.username}`,
      mediaUrl: null,
      tags: null,
    });
    await updatePost(writer, post.id, {
      title: post.title,
      content: `Thanks @${first.username} and @${second.username}, again`,
      mediaUrl: null,
      tags: null,
    });
    expect(await mentionsOf(first)).toEqual([[post.id, null, writer.id]]);
    expect(await mentionsOf(second)).toEqual([[post.id, null, writer.id]]);
  });

  it("a comment tells the members it names (with the comment), and its edit only those named anew", async () => {
    const writer = await createMember();
    const commenter = await createMember();
    const named = await createMember();
    const later = await createMember();
    const post = await createPost(writer, postInput());
    const comment = await addComment(commenter, post.id, { content: `@${named.username} look at this` });
    expect(await mentionsOf(named)).toEqual([[post.id, comment.id, commenter.id]]);
    await updateComment(commenter, comment.id, { content: `@${named.username} and @${later.username}, look` });
    expect(await mentionsOf(named)).toEqual([[post.id, comment.id, commenter.id]]);
    expect(await mentionsOf(later)).toEqual([[post.id, comment.id, commenter.id]]);
    expect(await mentionsOf(commenter)).toEqual([]);
  });

  it("a private club's post tells only the named members who may read it", async () => {
    const owner = await createMember();
    const insider = await createMember();
    const outsider = await createMember();
    const clubId = await makeClub(owner.id, { isPrivate: true, name: "Quiet Hollow" });
    await addMember(clubId, insider.id);
    const post = await createPost(owner, postInput({ clubId, content: `@${insider.username} and @${outsider.username}, see this` }));
    expect(await mentionsOf(insider)).toEqual([[post.id, null, owner.id]]);
    expect(await mentionsOf(outsider)).toEqual([]);
  });
});

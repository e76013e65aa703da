import { asc, eq, sql } from "drizzle-orm";
import { comments, posts, users } from "#db/schema";
import { SIGN_IN } from "~/schemas/messages";
import { commentSchema, type CommentInput } from "~/schemas/post";
import { db, decrementCounter, writeTransaction, type Tx } from "~/utils/db.server";
import { forbidden, invalid, notFound } from "~/utils/errors";
import { consumeLimit } from "~/utils/rate-limit.server";
import { zodFieldErrors } from "~/utils/validation";
import { requireSignedIn } from "./access.server";
import { assertPostVisible } from "./post.server";
import { authorColumns } from "./post-view.server";
import type { Actor } from "./user.server";
import type { Comment } from "~/schemas/shapes";

/**
 * Comments on a post. The post's comments_count changes in the same transaction as the comment, and
 * the post's visibility (a private club's post is 404 to outsiders) applies to its comments too.
 */

export const COMMENT_NOT_FOUND = "Comment not found";

function commentQuery() {
  return db
    .select({ id: comments.id, content: comments.content, createdAt: comments.createdAt, author: authorColumns })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.authorId));
}

function toComment(r: ReturnType<ReturnType<typeof commentQuery>["all"]>[number]): Comment {
  return { id: r.id, content: r.content, createdAt: r.createdAt.toISOString(), author: r.author };
}

/** A post's comments, oldest first (index comments_post). */
export function listComments(actor: Actor, postId: number): Comment[] {
  assertPostVisible(actor, postId);
  return commentQuery().where(eq(comments.postId, postId)).orderBy(asc(comments.createdAt), asc(comments.id)).all().map(toComment);
}

/** Comment on a post (signed in; whitespace-only is refused; rate limited commentsPerUser). */
export function addComment(actor: Actor, postId: number, input: CommentInput): Comment {
  const me = requireSignedIn(actor, SIGN_IN.comment);
  const parsed = commentSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
  return writeTransaction((tx) => {
    assertPostVisible(actor, postId);
    consumeLimit("commentsPerUser", String(me.id));
    const row = tx.insert(comments).values({ postId, authorId: me.id, content: parsed.data.content }).returning({ id: comments.id }).get();
    tx.update(posts)
      .set({ commentsCount: sql`${posts.commentsCount} + 1` })
      .where(eq(posts.id, postId))
      .run();
    return toComment(commentQuery().where(eq(comments.id, row.id)).get()!);
  });
}

/**
 * The comment an author may change, inside a write transaction: 404 when it is missing or its post
 * is hidden from the actor, 403 when the actor did not write it (not even the post's author may).
 */
function ownComment(tx: Tx, actor: Actor, authorId: number, commentId: number, verb: string) {
  const row = tx.select({ postId: comments.postId, authorId: comments.authorId }).from(comments).where(eq(comments.id, commentId)).get();
  if (!row) throw notFound(COMMENT_NOT_FOUND);
  try {
    assertPostVisible(actor, row.postId);
  } catch {
    throw notFound(COMMENT_NOT_FOUND);
  }
  if (row.authorId !== authorId) throw forbidden(`Only the author can ${verb} this comment`);
  return row;
}

/** Edit a comment's text: its author only (401 signed out, 403 someone else, 404 missing; 400 blank or too long). */
export function updateComment(actor: Actor, commentId: number, input: CommentInput): Comment {
  const me = requireSignedIn(actor, SIGN_IN.comment);
  const parsed = commentSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
  return writeTransaction((tx) => {
    ownComment(tx, actor, me.id, commentId, "edit");
    tx.update(comments).set({ content: parsed.data.content }).where(eq(comments.id, commentId)).run();
    return toComment(commentQuery().where(eq(comments.id, commentId)).get()!);
  });
}

/** Delete a comment: its author only (401 signed out, 403 someone else, 404 missing). */
export function deleteComment(actor: Actor, commentId: number): void {
  const me = requireSignedIn(actor);
  writeTransaction((tx) => {
    const row = ownComment(tx, actor, me.id, commentId, "delete");
    const removed = tx.delete(comments).where(eq(comments.id, commentId)).run();
    if (removed.changes) {
      tx.update(posts)
        .set({ commentsCount: decrementCounter(posts.commentsCount) })
        .where(eq(posts.id, row.postId))
        .run();
    }
  });
}
